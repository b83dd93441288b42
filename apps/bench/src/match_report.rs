//! What a match prints: its first lines (the players and their limits) and its summary (the
//! table, the SPRT, the statistics, the times, the forfeits, the chances' foresight).

use std::path::Path;
use std::time::Duration;

use tns_match::{Budget, Colours, MatchConfig, PlayerSpec, Sprt, SprtDecision, Standings};

use crate::match_progress::{Foresight, Progress, Timing, sprt_state};

/// The match's last lines: the table, the SPRT, the statistics, the times, the forfeits.
pub fn summary(progress: &Progress, elapsed: Duration) {
    let (config, standings) = (progress.config, &progress.standings);
    let [name_a, name_b] = &progress.names;
    print_report(standings, name_a, name_b, elapsed);
    if let Some(sprt) = &progress.sprt {
        print_sprt(sprt, progress.verdict, standings, config.colours);
        if progress.after_decision > 0 {
            say!(
                "{} game(s) under way when the test decided finished after it: not counted",
                progress.after_decision
            );
        }
    }
    print_statistics(standings, name_a, name_b);
    print_timing(&progress.timing, [name_a, name_b], config.time_control.is_some());
    let external = |spec: &PlayerSpec| matches!(spec.kind, tns_match::PlayerKind::External(_));
    if progress.forfeits.is_empty() && (external(&config.a) || external(&config.b)) {
        say!("forfeits: none");
    }
    for (name, count, reason) in &progress.forfeits {
        say!("forfeits: {name} {count} (the first: {reason})");
    }
    print_foresight(&progress.foresight, [name_a, name_b]);
}

/// How well each player's chances foretold the results, for the players that read any: the
/// mean Brier score of its readings (0 is every result foretold for certain; a player that
/// always says a third each scores 0.67), and how often the likeliest result came. The chances
/// are fitted to the solved game, that is to perfect play on both sides: against a weaker
/// opponent the results come out better than they read.
fn print_foresight(foresight: &[Foresight; 2], names: [&str; 2]) {
    for (f, name) in foresight.iter().zip(names) {
        if f.readings == 0 {
            continue;
        }
        #[expect(clippy::cast_precision_loss, reason = "counts of moves, far below 2^52")]
        let (brier, came) =
            (f.brier / f.readings as f64, f.likeliest_came as f64 / f.readings as f64);
        say!(
            "chances: {name}'s readings against the results: Brier score {brier:.3} over {} \
             moves (0: foretold for certain), the likeliest result came {:.1}% of the time",
            f.readings,
            100.0 * came
        );
    }
}

/// The time the players took a move, and their overruns.
fn print_timing(timing: &[Timing; 2], names: [&str; 2], clocks: bool) {
    for (t, name) in timing.iter().zip(names) {
        if t.moves == 0 {
            continue;
        }
        let mean = t.total / u32::try_from(t.moves).unwrap_or(u32::MAX);
        // A search stops at its limit, between two checks of the clock: most moves end a
        // little after it, so the count says by how much at most.
        let past = if clocks {
            "past their clock within the margin".to_string()
        } else if t.overruns > 0 {
            format!("past their time, by at most {:.1} ms", 1000.0 * t.worst_overrun.as_secs_f64())
        } else {
            "past their time".to_string()
        };
        say!(
            "time {name}: {} moves, mean {:.1} ms, max {:.1} ms; {} {past}{}",
            t.moves,
            1000.0 * mean.as_secs_f64(),
            1000.0 * t.max.as_secs_f64(),
            t.overruns,
            if clocks { format!(", {} lost on time", t.time_losses) } else { String::new() }
        );
    }
}

/// The match's first lines: who plays, how many games from which openings, with what limits.
pub fn print_header(config: &MatchConfig, openings_file: Option<&Path>) {
    let (name_a, name_b) = (&config.a, &config.b);
    let openings = match openings_file {
        Some(path) => format!("{} openings from {}", config.book.len(), path.display()),
        None => format!("{} random opening plies, seed {}", config.openings, config.seed),
    };
    say!(
        "{name_a} vs {name_b}: {} games, {openings}, {} at a time",
        config.games,
        config.concurrency
    );
    let (budget_a, budget_b) = (config.a.budget(config.defaults), config.b.budget(config.defaults));
    let describe = |spec: &PlayerSpec, budget| match spec.kind {
        tns_match::PlayerKind::Random => "random moves".to_string(),
        tns_match::PlayerKind::External(_) => format!("{} through TSI", budget_text(budget)),
        tns_match::PlayerKind::Heuristic(_) if spec.table => {
            format!("{} with the table's movement phase", budget_text(budget))
        }
        tns_match::PlayerKind::Heuristic(_) if spec.endgame => {
            format!("{} with the endgame built in", budget_text(budget))
        }
        tns_match::PlayerKind::Heuristic(_) => budget_text(budget),
        tns_match::PlayerKind::Network(_) if spec.table => {
            format!("{} with the network and the table's movement phase", budget_text(budget))
        }
        tns_match::PlayerKind::Network(_) if spec.endgame => {
            format!("{} with the network and the endgame built in", budget_text(budget))
        }
        tns_match::PlayerKind::Network(_) => format!("{} with the network", budget_text(budget)),
        tns_match::PlayerKind::Perfect { .. } => {
            format!("{} with the tablebase", budget_text(budget))
        }
    };
    say!(
        "limits: {name_a}: {}; {name_b}: {}",
        describe(&config.a, budget_a),
        describe(&config.b, budget_b)
    );
    if let Some(tc) = config.time_control {
        say!(
            "time control {tc} a side (seconds, plus the increment a move), a flag falls {} ms \
             past the clock",
            config.margin.as_millis()
        );
    }
}

/// Fewer games than this, and the figures are said to be a rough guide only.
const FEW_GAMES: u32 = 30;

/// Score, draw ratio, LOS, Elo from games and from pairs, as engine testers know them.
fn print_statistics(standings: &Standings, name_a: &str, name_b: &str) {
    let total = standings.a_total();
    let (Some(score), Some(elo), Some(draws)) = (total.score(), total.elo(), total.draw_ratio())
    else {
        say!("no game finished: nothing to report");
        return;
    };
    say!("score {name_a} vs {name_b}: {:.1}%", 100.0 * score);
    say!("draw ratio {:.1}%", 100.0 * draws);
    match total.los() {
        Some(los) => say!("los {:.1}% (the chance that {name_a} is the stronger)", 100.0 * los),
        None => say!("los unknown: no game was won or lost"),
    }
    say!("elo {elo}");
    let pairs = &standings.pairs;
    if let Some(pair_elo) = pairs.elo() {
        say!("pentanomial {pairs} over {} pairs (0 to 2 points for {name_a})", pairs.pairs());
        say!("elo from pairs {pair_elo}");
    }
    if total.games() < FEW_GAMES {
        say!(
            "note: {} games is too small a sample for these figures to mean much; play at least \
             {FEW_GAMES}, better hundreds",
            total.games()
        );
    }
}

fn budget_text(b: Budget) -> String {
    let limit = match (b.time, b.depth) {
        (_, Some(d)) => format!("depth {d}"),
        (Some(t), None) => format!("{t} s a move"),
        (None, None) => "on the clock".into(),
    };
    format!("{limit}, {} thread(s), {} MiB", b.threads, b.tt_mb)
}

fn print_report(standings: &Standings, name_a: &str, name_b: &str, elapsed: Duration) {
    let rows = [
        (format!("{name_a} as sheep"), standings.a_as_sheep),
        (format!("{name_a} as tigers"), standings.a_as_tiger),
        (format!("{name_b} as sheep"), standings.a_as_tiger.flipped()),
        (format!("{name_b} as tigers"), standings.a_as_sheep.flipped()),
        (format!("{name_a} overall"), standings.a_total()),
    ];
    let width = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    say!("{:width$}  games  wins draws losses  score", "");
    for (name, t) in rows.iter().filter(|(_, t)| t.games() > 0) {
        say!(
            "{name:width$}  {:5}  {:4} {:5} {:6}  {:5.1}%",
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score().unwrap_or(0.5)
        );
    }
    say!("time {:.1} s", elapsed.as_secs_f64());
}

fn print_sprt(sprt: &Sprt, verdict: SprtDecision, standings: &Standings, colours: Colours) {
    let (lower, upper) = sprt.bounds();
    let (llr, _) = sprt_state(sprt, standings, colours);
    let counts = match colours {
        Colours::Alternate => format!("pentanomial {}", standings.pairs),
        Colours::Fixed => "trinomial".to_string(),
    };
    let decided = match verdict {
        SprtDecision::H0 => "H0 accepted",
        SprtDecision::H1 => "H1 accepted",
        SprtDecision::Continue => "undecided",
    };
    say!(
        "sprt elo0 {} elo1 {} alpha {} beta {} ({counts}): llr {llr:.2} in [{lower:.2}, \
         {upper:.2}], {decided}",
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta
    );
}
