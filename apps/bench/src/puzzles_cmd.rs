//! `tns-bench puzzles`: how many of the shipped puzzles each player solves, and its rating on
//! them.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use anyhow::Context as _;
use rayon::prelude::*;
use tns_board::Game;
use tns_match::{Budget, PlayerSpec};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The players, by spec or level (`easy`, `strongest:time=0.05`, `random`).
    #[arg(required = true)]
    players: Vec<String>,
    /// Every Nth puzzle only (1: all of them).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    every: u32,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let set = tns_puzzles::shipped()?;
    let chosen: Vec<&tns_puzzles::Puzzle> = set.iter().step_by(args.every as usize).collect();
    let ratings: Vec<u16> = chosen.iter().map(|p| p.rating).collect();
    match args.every {
        1 => say!("the {} puzzles of the shipped set", chosen.len()),
        n => say!("{} puzzles of the shipped set (one in {n})", chosen.len()),
    }
    for name in &args.players {
        let spec: PlayerSpec = name.parse().with_context(|| name.clone())?;
        // One thread a player, the puzzles shared over the cores: a player with a time limit
        // then thinks the time it was given.
        let defaults = Budget { time: None, depth: None, threads: 1, tt_mb: 16 };
        // Built and made ready once here, so that a player that cannot play (a program that
        // does not start) is told before any puzzle, not counted as solving none.
        let ready = |spec: &PlayerSpec| -> anyhow::Result<Box<dyn tns_match::Player>> {
            let mut player = spec.build(defaults, None)?;
            player.prepare()?;
            Ok(player)
        };
        ready(&spec).with_context(|| name.clone())?;
        let solved = AtomicUsize::new(0);
        // One player a thread, made once: a player that is another program is one process a
        // thread, not one per piece of rayon's work.
        let size = chosen.len().div_ceil(rayon::current_num_threads().max(1)).max(1);
        chosen.par_chunks(size).try_for_each(|chunk| -> anyhow::Result<()> {
            let mut player = ready(&spec).with_context(|| name.clone())?;
            for puzzle in chunk {
                player.new_game(0);
                let game = Game::from_position(puzzle.position);
                // Every puzzle has a move to find: no move is the player's failure.
                let chosen = match player.choose(&game, &AtomicBool::new(false)) {
                    Ok(chosen) => chosen,
                    Err(e) => {
                        let why = tns_file::one_line(&e);
                        anyhow::bail!("{name} failed on the puzzle {}: {why}", puzzle.position);
                    }
                };
                // A move against the rules is a failure too, not a wrong answer.
                if let Err(e) = puzzle.position.check_move(chosen) {
                    anyhow::bail!(
                        "{name} answered {chosen} to the puzzle {}, against the rules: {e}",
                        puzzle.position
                    );
                }
                if puzzle.solutions.contains(&chosen) {
                    solved.fetch_add(1, Ordering::Relaxed);
                }
            }
            Ok(())
        })?;
        let solved = solved.into_inner();
        #[expect(clippy::cast_precision_loss, reason = "counts of puzzles, far below 2^52")]
        let (share, count) = (100.0 * solved as f64 / chosen.len() as f64, solved as f64);
        let performance = tns_puzzles::performance(&ratings, count).unwrap_or(f64::NAN);
        say!("{name:24} solves {solved:5} ({share:5.1}%)  performance {performance:5.0}");
    }
    Ok(())
}
