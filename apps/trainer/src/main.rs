//! `tns-train`: teaches the network the game, by self-play or from the solved game.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{anyhow, bail};
use clap::Parser;
use tns_tablebase::Tablebase;
use tns_trainer::{Settings, train};

/// Trains the network one generation at a time, by self-play or, with --teacher, from the
/// solved game's exact values, saving `gen-NNN.bin`, `latest.bin` and the run's state after
/// each. GENERATIONS is a total: running the same command again after a stop (Ctrl+C, or a
/// killed process) finishes the run where it stopped, ending with the same network an unbroken
/// run would have.
#[derive(Parser, Debug)]
#[command(name = "tns-train", version)]
struct Cli {
    /// The generation to train up to (a total, counting those already in OUT).
    #[arg(default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    generations: u32,
    /// Games per generation (self-play, or with --teacher the sampled games).
    #[arg(default_value_t = 200, value_parser = games_count)]
    games: usize,
    /// The folder for the weights, the run's state and the progress log (weights/run, the
    /// default, is git-ignored).
    #[arg(default_value = "weights/run")]
    out: PathBuf,
    /// Start from this weights file instead of the newest generation in OUT.
    #[arg(long)]
    from: Option<PathBuf>,
    /// Hidden layer sizes of a new network, comma-separated (a resumed run keeps its own).
    #[arg(long, value_delimiter = ',', default_value = "64,32")]
    hidden: Vec<usize>,
    /// What a new network sees: `pieces` (the 52 inputs of the pieces, the sheep in hand and
    /// the side to move), `threats` (those, the dead, the sheep open to a jump and the
    /// trapped tigers: 87 inputs) or `mobility` (those and the number of the tigers' moves:
    /// 103).
    #[arg(long, default_value = "threats")]
    inputs: tns_nn::Inputs,
    /// How a new network's layers after the first are chosen: `one` (a single set) or `phase`
    /// (eight sets, by the side to move and the phase: sheep in hand 11-20, 1-10, none with 0-1
    /// dead, none with 2 or more), each position judged by its own; the evaluation costs the
    /// same.
    #[arg(long, default_value = "one")]
    buckets: tns_nn::Buckets,
    /// What training minimises: `squared` (the output's squared error) or `cross-entropy`
    /// (of the result's share (1 + y) / 2 against the target's, which keeps pulling an output
    /// that is sure and wrong where the squared error's gradient vanishes).
    #[arg(long, default_value = "squared")]
    objective: tns_nn::Objective,
    /// Self-play search depth in plies.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
    depth: u32,
    /// Probability of a random move in self-play, for exploration.
    #[arg(long, default_value_t = 0.05)]
    epsilon: f64,
    /// TD(λ): 1 learns from game results only, 0 from the search's values only.
    #[arg(long, default_value_t = 0.7)]
    lambda: f32,
    /// Passes over the training positions per generation.
    #[arg(long, default_value_t = 4)]
    epochs: u32,
    /// Adam's learning rate (in the first generation, with --final-learning-rate).
    #[arg(long, default_value_t = 0.001)]
    learning_rate: f32,
    /// Adam's learning rate in the last generation: the rate falls geometrically from
    /// --learning-rate to it over the run [default: --learning-rate, constant].
    #[arg(long)]
    final_learning_rate: Option<f32>,
    /// Minibatch size.
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// Generations of positions kept for training.
    #[arg(long, default_value_t = 3)]
    window: usize,
    /// Threads (all cores unless given).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
    /// Seed of everything random; with --threads 1 a run is fully reproducible.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play matches against the heuristic player and the generation last tested every this
    /// many generations (0: never).
    #[arg(long, default_value_t = 5)]
    match_every: u32,
    /// Games per match (both colours).
    #[arg(long, default_value_t = 40)]
    match_games: u32,
    /// Search depth of both players in matches.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
    match_depth: u32,
    /// Plies after which a game is a draw.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_plies: u64,
    /// Distil the solved game: the tablebase folder (the whole game, built by `tns-tablebase
    /// build --placement`; a part of it teaches the positions it holds). Targets are the
    /// table's values, and each generation is measured on a held-out set.
    #[arg(long, value_name = "DIR")]
    teacher: Option<PathBuf>,
    /// With --teacher: positions drawn evenly from the table each generation, besides the games'.
    #[arg(long, default_value_t = 20_000, value_parser = games_count)]
    uniform: usize,
    /// With --teacher: for each position of the games, this many of the positions one ply on
    /// (where a search looks, and where the moves that lose lead).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=64))]
    children: u32,
    /// With --teacher: drawn positions are trained towards MARGIN × (2k - 1), k the share of
    /// the side to move's moves that keep the draw, instead of 0: a draw that one slip loses is
    /// worth less than one held by every move.
    #[arg(long, default_value_t = 0.0, value_name = "MARGIN")]
    draw_margin: f32,
    /// With --teacher: the draw margin of the positions with the tigers to move, if it is to
    /// differ from --draw-margin (which then holds for the sheep to move). Each margin moves
    /// both sides' play, not only its own side's: see docs/training.md.
    #[arg(long, value_name = "MARGIN")]
    draw_margin_tigers: Option<f32>,
    /// With --teacher: the draw margin of the movement phase's positions (no sheep in hand),
    /// either side to move, if it is to differ there; --draw-margin and --draw-margin-tigers
    /// then hold for the placement's.
    #[arg(long, value_name = "MARGIN")]
    draw_margin_movement: Option<f32>,
    /// With --teacher: one of the games' two perfect seats sets traps, playing in a drawn
    /// position a drawing move that leaves the fewest safe replies, so that the network meets
    /// the positions a perfect opponent playing to win leads to.
    #[arg(long)]
    traps: bool,
    /// With --teacher: games whose positions make the held-out set.
    #[arg(long, default_value_t = 400, value_parser = games_count)]
    validation_games: usize,
    /// With --teacher: critical positions the searches are judged on at the end of the run, the
    /// first of the held-out set's (0: no search is measured) [default: all of them].
    #[arg(long, value_parser = games_count)]
    final_positions: Option<usize>,
    /// Resume a run with settings other than those it was started with (its folder records
    /// them in settings.txt): without it, such a resume is refused, since the run would then
    /// differ from an unbroken one.
    #[arg(long)]
    new_settings: bool,
}

/// A count of games or positions: 0 to a million (more would not fit in memory).
fn games_count(text: &str) -> anyhow::Result<usize> {
    let n: usize = text.parse().map_err(|_| anyhow!("{text:?} is not a whole number"))?;
    if n > 1_000_000 {
        bail!("{n} is more than 1000000");
    }
    Ok(n)
}

/// What is wrong with the options, if anything, in the words the user gets.
fn check(cli: &Cli) -> Result<(), &'static str> {
    if !(0.0..=1.0).contains(&cli.epsilon) || !(0.0..=1.0).contains(&cli.lambda) {
        return Err("--epsilon and --lambda must lie between 0 and 1");
    }
    let final_learning_rate = cli.final_learning_rate.unwrap_or(cli.learning_rate);
    let rates = [cli.learning_rate, final_learning_rate];
    if !rates.iter().all(|r| r.is_finite() && *r > 0.0) || cli.batch == 0 {
        return Err(
            "--learning-rate and --final-learning-rate must be positive and --batch at least 1",
        );
    }
    let margins = [Some(cli.draw_margin), cli.draw_margin_tigers, cli.draw_margin_movement];
    if !margins.iter().flatten().all(|m| (0.0..=0.9).contains(m)) {
        return Err("--draw-margin, --draw-margin-tigers and --draw-margin-movement must lie \
                    between 0 and 0.9");
    }
    if cli.match_every > 0 && cli.match_games == 0 {
        return Err("--match-games 0 plays no match: give at least 2, or --match-every 0 for none");
    }
    if cli.batch > 1_000_000 || cli.window > 1000 {
        return Err("--batch is at most 1000000 and --window at most 1000");
    }
    // Each of these would save a generation that nothing trained.
    if cli.epochs == 0 || cli.window == 0 {
        return Err("--epochs and --window must be at least 1");
    }
    if cli.games == 0 && (cli.teacher.is_none() || cli.uniform == 0) {
        return Err(
            "0 games (and, with --teacher, no --uniform positions) give nothing to train on",
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(why) = check(&cli) {
        eprintln!("tns-train: {why}");
        return ExitCode::FAILURE;
    }
    let final_learning_rate = cli.final_learning_rate.unwrap_or(cli.learning_rate);
    let teacher = match &cli.teacher {
        None => None,
        Some(dir) => match Tablebase::load(tns_board::KILLS_TO_WIN, dir) {
            Ok(table) => {
                if !table.solves_whole_game() {
                    let from = table.placement_from().map_or(20, u32::from);
                    eprintln!(
                        "tns-train: note: the table in {} holds the positions with at least {from} \
                         sheep placed; the others are not trained on",
                        dir.display()
                    );
                }
                Some(Arc::new(table))
            }
            Err(e) => {
                eprintln!("tns-train: the teacher's table in {}: {e}", dir.display());
                return ExitCode::FAILURE;
            }
        },
    };
    let settings = Settings {
        generations: cli.generations,
        games: cli.games,
        out: cli.out,
        from: cli.from,
        hidden: cli.hidden,
        inputs: cli.inputs,
        buckets: cli.buckets,
        objective: cli.objective,
        depth: cli.depth,
        epsilon: cli.epsilon,
        lambda: cli.lambda,
        epochs: cli.epochs,
        learning_rate: cli.learning_rate,
        final_learning_rate,
        batch: cli.batch,
        window: cli.window,
        seed: cli.seed,
        match_every: cli.match_every,
        match_games: cli.match_games,
        match_depth: cli.match_depth,
        max_plies: usize::try_from(cli.max_plies).unwrap_or(usize::MAX),
        bars: std::io::IsTerminal::is_terminal(&std::io::stderr()),
        teacher,
        uniform: cli.uniform,
        draw_margin: cli.draw_margin,
        draw_margin_tigers: cli.draw_margin_tigers.unwrap_or(cli.draw_margin),
        draw_margin_movement: cli.draw_margin_movement,
        traps: cli.traps,
        children: cli.children as usize,
        validation_games: cli.validation_games,
        final_positions: cli.final_positions.unwrap_or(usize::MAX),
        new_settings: cli.new_settings,
    };
    // Ctrl+C ends the run between generations, with where it stopped; a second one at once.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    {
        let stop = std::sync::Arc::clone(&stop);
        // Fails only if a handler is already set, which nothing else here does.
        let _ = ctrlc::set_handler(move || {
            if stop.swap(true, std::sync::atomic::Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!("tns-train: stopping after this generation's games (Ctrl+C again quits now)");
        });
    }
    let result =
        tns_trainer::in_pool(cli.threads, || train(&settings, &stop, |line| println!("{line}")));
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tns-train: {}", tns_file::one_line(e.as_ref()));
            ExitCode::FAILURE
        }
    }
}
