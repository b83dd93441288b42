//! `tns-calibrate`: fits the chances of a win, a draw and a loss that an evaluator's scores
//! stand for, on positions of games whose results the table knows, and measures them on the
//! trainer's held-out set.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use anyhow::bail;
use clap::Parser;
use tns_match::{PlayerKind, PlayerSpec};
use tns_nn::NeuralEvaluator;
use tns_search::{Calibrated, Evaluator, Heuristic, Limits, Reading, WdlModel};
use tns_trainer::HeldOutArgs;
use tns_trainer::calibration::{self, PHASE_NAMES, Reliability};
use tns_trainer::measures::Validation;

/// Fits a player's chances (tns-search's `WdlModel`) on the positions of `--fit-games` games
/// that the held-out set never holds, then measures them on the held-out set, phase by phase:
/// the expected calibration error of each result's chance, and how often the likeliest result
/// is the table's; for the evaluation alone, and for the search at `--depth` with the fitted
/// chances.
#[derive(Parser, Debug)]
#[command(name = "tns-calibrate", version)]
struct Cli {
    /// The player: `network` (the built-in one), a weights file, or `heuristic` (its weights
    /// after a colon, as tns-bench match takes them).
    #[arg(value_name = "PLAYER")]
    player: PlayerSpec,
    #[command(flatten)]
    held_out: HeldOutArgs,
    /// Games whose positions the chances are fitted on (drawn from --seed apart from the
    /// held-out set's).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    fit_games: u32,
    /// The depth at which the search's chances are measured, in plies (0: not measured).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=64))]
    depth: u32,
    /// Writes the model here (the file the programs build in: weights/latest.wdl for the
    /// shipped network, weights/heuristic.wdl for the heuristic).
    #[arg(long, short, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Writes a reliability diagram of the held-out set here (SVG).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Measures how far the search's score moves from one depth to the next on this many
    /// positions of the held-out set (spread over it), from depth 4 to --swing-depth, for the
    /// player as named (read through the fitted chances, or raw with calibrated=off) (0: not
    /// measured).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    swing: u32,
    /// The deepest iteration of the swing's searches.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(5..=64))]
    swing_depth: u32,
    /// Also fits the chances of the search's root score (`Calibrated::with_root`) on the fit
    /// set, searched at the --search-depths in turn with the evaluation as the player reads it,
    /// and writes them here (weights/latest-search.wdl for the shipped network,
    /// weights/heuristic-search.wdl for the heuristic); measured on the held-out set beside the
    /// chances the search gives without them.
    #[arg(long, value_name = "FILE")]
    search_out: Option<PathBuf>,
    /// The depths the root's chances are fitted at (each on its share of the fit set) and
    /// measured at (each on a quarter of the held-out set).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "4,6,8",
        value_parser = clap::value_parser!(u32).range(1..=64)
    )]
    search_depths: Vec<u32>,
    /// Also prints each bin of the evaluation's reliability: the positions, the mean chance
    /// given and the share that had the result.
    #[arg(long)]
    bins: bool,
}

/// The player's own evaluator, with nothing in front of it (no endgame, no table, no chances
/// already fitted), and the units of its scores.
fn raw_evaluator(player: &PlayerSpec) -> anyhow::Result<(Arc<dyn Evaluator>, Reading)> {
    match &player.kind {
        // The network's score is its tanh times 1,000, read as it is: through the atanh it was
        // no better calibrated (CHANGELOG.md), and the shipped model reads it so.
        PlayerKind::Network(net) => Ok((
            Arc::new(NeuralEvaluator::new(tns_nn::Network::clone(net))),
            Reading::linear(1000.0),
        )),
        PlayerKind::Heuristic(weights) => {
            Ok((Arc::new(Heuristic::new(*weights)), Reading::linear(400.0)))
        }
        _ => bail!("{player}: not a network or the heuristic"),
    }
}

fn report(out: &mut impl FnMut(&str), what: &str, phases: &[Reliability; 2]) {
    for (r, name) in phases.iter().zip(PHASE_NAMES) {
        out(&format!("{what}, {}", r.line(name)));
    }
}

/// Fits the chances of the search's root score (`--search-out`) and measures them beside the
/// chances the search gives without them.
fn root_chances(
    cli: &Cli,
    raw: &Arc<dyn Evaluator>,
    model: &WdlModel,
    reading: Reading,
    (fit_set, validation): (&Validation, &Validation),
    path: &std::path::Path,
    out: &mut impl FnMut(&str),
) -> anyhow::Result<()> {
    // The evaluation as the player reads it: searched through the chances, or read
    // through them (the heuristic by default).
    let played = if cli.player.calibrated {
        Calibrated::new(Arc::clone(raw), Arc::new(model.clone()))
    } else {
        Calibrated::read_through(Arc::clone(raw), Arc::new(model.clone()))
    };
    let root_reading = if cli.player.calibrated {
        Reading::linear(f64::from(tns_search::Expected::CERTAIN_WIN.get()))
    } else {
        reading
    };
    let depths = &cli.search_depths;
    let mut fit_samples = Vec::new();
    for (k, &depth) in depths.iter().enumerate() {
        let held: Vec<_> = fit_set.held.iter().skip(k).step_by(depths.len()).cloned().collect();
        let searched = calibration::search_samples(&played, &held, &Limits::depth(depth));
        fit_samples.extend(searched.into_iter().map(|(s, _)| s));
    }
    let root = calibration::fit(&fit_samples, root_reading);
    out(&root.to_string());
    let quarter: Vec<_> = validation.held.iter().step_by(4).cloned().collect();
    for &depth in depths {
        let given = calibration::search_samples(&played, &quarter, &Limits::depth(depth));
        let own = calibration::tally(given.iter().map(|(s, c)| (s.board, *c, s.result)));
        report(out, &format!("search at depth {depth}, its chances"), &own);
        let fitted = calibration::tally(given.iter().map(|(s, c)| {
            let chances =
                if s.score.is_decisive() { *c } else { root.chances(s.score.as_eval(), s.board) };
            (s.board, chances, s.result)
        }));
        report(out, &format!("search at depth {depth}, the root's chances"), &fitted);
    }
    tns_file::save(path, root.to_string().as_bytes())?;
    out(&format!("wrote {}", path.display()));
    Ok(())
}

fn run(cli: &Cli, out: &mut impl FnMut(&str)) -> anyhow::Result<()> {
    let (raw, reading) = raw_evaluator(&cli.player)?;
    let h = &cli.held_out;
    let start = Instant::now();
    let (teacher, validation) = h.load()?;
    let fit_seed = tns_match::mix_seed(h.seed, 1, 0xCA1B);
    let mut fit_set =
        Validation::build(&teacher, cli.fit_games as usize, h.epsilon, h.max_plies(), fit_seed);
    fit_set.held.retain(|p| !validation.keys.contains(&tns_trainer::sampling::class_key(p.board)));
    out(&format!(
        "fit on {} positions of {} games, measured on the held-out set's {} positions of {} games (seed {}), {:.1} s",
        fit_set.held.len(),
        cli.fit_games,
        validation.held.len(),
        h.validation_games,
        h.seed,
        start.elapsed().as_secs_f64()
    ));
    let model = calibration::fit(&calibration::samples(&raw, &fit_set), reading);
    out(&model.to_string());
    let evaluation = calibration::reliability(&validation, |b| model.chances(raw.evaluate(b), b));
    report(out, "evaluation", &evaluation);
    if cli.bins {
        for (r, name) in evaluation.iter().zip(PHASE_NAMES) {
            for wdl in tns_search::Wdl::ALL {
                for line in r.bin_lines(wdl) {
                    out(&format!("  {name} {line}"));
                }
            }
        }
    }
    if cli.depth > 0 {
        let calibrated = Calibrated::new(Arc::clone(&raw), Arc::new(model.clone()));
        let search =
            calibration::search_reliability(&calibrated, &validation, &Limits::depth(cli.depth));
        report(out, &format!("search at depth {}", cli.depth), &search);
    }
    if let Some(path) = &cli.search_out {
        root_chances(cli, &raw, &model, reading, (&fit_set, &validation), path, out)?;
    }
    if cli.swing > 0 {
        let held = &validation.held;
        let step = (held.len() / cli.swing as usize).max(1);
        let positions: Vec<_> =
            held.iter().step_by(step).take(cli.swing as usize).map(|h| h.board).collect();
        let (evaluator, certain): (Arc<dyn Evaluator>, f64) = if cli.player.calibrated {
            (
                Arc::new(Calibrated::new(Arc::clone(&raw), Arc::new(model.clone()))),
                f64::from(tns_search::Expected::CERTAIN_WIN.get()),
            )
        } else {
            (Arc::clone(&raw), reading.units)
        };
        let swings = calibration::swings(&evaluator, &positions, cli.swing_depth, certain);
        let (median, p90) = calibration::median_and_p90(&swings);
        out(&format!(
            "swing from depth to depth (4 to {}) on {} positions, {} pairs: median {:.3}, 90th percentile {:.3} (a certain win is 1; for the raw heuristic, a dead sheep)",
            cli.swing_depth,
            positions.len(),
            swings.len(),
            median,
            p90
        ));
    }
    if let Some(path) = &cli.out {
        tns_file::save(path, model.to_string().as_bytes())?;
        out(&format!("wrote {}", path.display()));
    }
    if let Some(path) = &cli.svg {
        let title = format!("{}: chances of its evaluation on the held-out set", cli.player);
        tns_file::save(path, calibration::diagram(&title, &evaluation).as_bytes())?;
        out(&format!("wrote {}", path.display()));
    }
    out(&format!("{:.1} s in all", start.elapsed().as_secs_f64()));
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result =
        tns_trainer::in_pool(cli.held_out.threads, || run(&cli, &mut |line| println!("{line}")));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tns-calibrate: {}", tns_file::one_line(e.as_ref()));
            ExitCode::FAILURE
        }
    }
}
