//! `tns-heldout`: measures players on the trainer's held-out set, as a distillation run
//! measures its network, without training anything: a shipped file, an averaged one, or the
//! same network under a changed search can be judged on the same positions.

use std::process::ExitCode;

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context as _, bail};
use clap::Parser;
use tns_match::{PlayerKind, PlayerSpec};
use tns_search::Evaluator;
use tns_tablebase::Tablebase;
use tns_trainer::HeldOutArgs;
use tns_trainer::measures::{Choice, Kept, figures, limits_at, search_choices};

/// Measures each player on the held-out set the trainer builds from the same seed: for a
/// network its validation loss, value accuracy and one-ply move accuracy; for every player
/// the share of critical positions where its search keeps the value, at depth 4 and at 0.05 s
/// a move (one thread each, from an empty table; `--depth` and `--time` set others), in all and
/// in the placement alone.
#[derive(Parser, Debug)]
#[command(name = "tns-heldout", version)]
struct Cli {
    /// Players: a weights file, `network` (the built-in one) or `heuristic` (with weights after
    /// a colon, as tns-bench match takes them), each with `table=on` to search with the
    /// teacher's exact values of the movement phase.
    #[arg(required = true, value_name = "PLAYER")]
    players: Vec<PlayerSpec>,
    #[command(flatten)]
    held_out: HeldOutArgs,
    /// The depth of the fixed-depth search, in plies (the trainer judges at 4).
    #[arg(long, default_value_t = 4, value_parser = tns_match::limit::depth)]
    depth: u32,
    /// The time a move of the timed search, in seconds (the trainer judges at 0.05).
    #[arg(long, default_value_t = 0.05, value_parser = tns_match::limit::seconds)]
    time: f64,
    /// After each share, list the critical positions the search missed: the position and its
    /// value for the side to move, the move chosen and the depth completed, and the moves that
    /// keep the value.
    #[arg(long)]
    misses: bool,
}

/// "  missed S3S/S4/SSTT1/3SS/1ST1T t 12 (draw): played c3c4 at depth 9; keeps b2b1 e3d2".
fn miss_line(c: &Choice<'_>) -> String {
    let chosen = c.chosen.map_or_else(|| "nothing".to_string(), |m| m.to_string());
    let keeping: Vec<String> = c
        .held
        .moves
        .iter()
        .filter(|&&(_, v)| v == c.held.value)
        .map(|(m, _)| m.to_string())
        .collect();
    format!(
        "  missed {} ({}): played {chosen} at depth {}; keeps {}",
        c.held.board,
        c.held.value,
        c.depth,
        keeping.join(" ")
    )
}

/// The evaluator `player` searches with, or why it cannot be measured here: it does not search
/// without the table (its own error passed on), or it sets limits of its own, which the tool
/// would otherwise ignore (it judges every player at the same two limits, one thread each).
/// A player with `table=on` searches with `table`.
fn evaluator(
    player: &PlayerSpec,
    table: Option<&Arc<Tablebase>>,
) -> anyhow::Result<Box<dyn Evaluator>> {
    const MEASURABLE: &str =
        "not a searching player without the table (a weights file, network or heuristic)";
    if player.time.is_some()
        || player.depth.is_some()
        || player.threads.is_some()
        || player.tt_mb.is_some()
    {
        bail!(
            "{player}: sets its own limits, but every player is measured at the same depth and \
             time a move (--depth, --time), one thread, from an empty table: name it without \
             time, depth, threads or tt"
        );
    }
    match player.evaluator(table) {
        Ok(Some(e)) => Ok(e),
        Ok(None) => bail!("{player}: {MEASURABLE}"),
        Err(e) => Err(e).with_context(|| format!("{player}: {MEASURABLE}")),
    }
}

fn run(cli: &Cli, out: &mut impl FnMut(&str)) -> anyhow::Result<()> {
    // Every player is checked before the held-out set is built: a bad one fails at once (one
    // with `table=on`, which needs the table, is checked without it here).
    for player in &cli.players {
        evaluator(&player.clone().without_table(), None)?;
    }
    let h = &cli.held_out;
    let (teacher, validation) = h.load()?;
    let evaluators: Vec<Box<dyn Evaluator>> = cli
        .players
        .iter()
        .map(|player| evaluator(player, Some(teacher.shared_table())))
        .collect::<Result<_, _>>()?;
    out(&format!(
        "held-out set: {} positions ({} critical) from {} games, seed {}",
        validation.held.len(),
        validation.critical().count(),
        h.validation_games,
        h.seed
    ));
    let limits = limits_at(cli.depth, Duration::from_secs_f64(cli.time));
    for (spec, evaluator) in cli.players.iter().zip(&evaluators) {
        if let PlayerKind::Network(net) = &spec.kind {
            let f = figures(net, &teacher, &validation);
            teacher.check()?;
            // The network's own figures: the table plays no part in them.
            let name = spec.clone().without_table();
            out(&format!(
                "{name}: validation loss {:.4}, values {:.1}%, one-ply moves {:.1}% of {} critical",
                f.loss,
                100.0 * f.values,
                100.0 * f.moves,
                f.critical
            ));
        }
        let evaluator: &dyn Evaluator = evaluator.as_ref();
        for (what, limit) in &limits {
            let choices = search_choices(&evaluator, &validation, limit, h.positions());
            let k = Kept::of_choices(&choices);
            out(&format!("{spec}: search at {what} keeps the value in {k}"));
            if cli.misses {
                for c in choices.iter().filter(|c| !c.kept()) {
                    out(&miss_line(c));
                }
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result =
        tns_trainer::in_pool(cli.held_out.threads, || run(&cli, &mut |line| println!("{line}")));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tns-heldout: {}", tns_file::one_line(e.as_ref()));
            ExitCode::FAILURE
        }
    }
}
