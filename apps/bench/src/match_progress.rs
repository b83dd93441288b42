//! A match as it goes: each finished game into the standings, the players' times and
//! readings, the records file, the progress bar and the SPRT's decision.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::ProgressBar;
use tns_board::{RecordResult, Side};
use tns_match::{
    Colours, GameReport, MatchConfig, PlayerSpec, Sprt, SprtDecision, Standings, Tally, Termination,
};

/// How often the records appended are flushed to the disk itself (each is handed to the system
/// at once, which a killed process does not lose; the flush is for a power cut).
const SYNC_EVERY: Duration = Duration::from_secs(5);

/// Each player's move times and overruns, as the match goes.
#[derive(Debug, Default)]
pub struct Timing {
    pub moves: u64,
    pub total: Duration,
    pub max: Duration,
    /// Moves past the player's time a move, or past its clock, within the margin.
    pub overruns: u64,
    /// The most a move went past the player's time a move.
    pub worst_overrun: Duration,
    pub time_losses: u64,
}

impl Timing {
    fn add(&mut self, times: impl Iterator<Item = Duration>, movetime: Option<Duration>) {
        for t in times {
            self.moves += 1;
            self.total += t;
            self.max = self.max.max(t);
            if let Some(limit) = movetime.filter(|&limit| t > limit) {
                self.overruns += 1;
                self.worst_overrun = self.worst_overrun.max(t.saturating_sub(limit));
            }
        }
    }
}

/// How well a player's chances foretold its games: each move's reading against the game's
/// result for the side it moved for.
#[derive(Debug, Default)]
pub struct Foresight {
    pub readings: u64,
    pub brier: f64,
    pub likeliest_came: u64,
}

impl Foresight {
    fn add(
        &mut self,
        readings: impl Iterator<Item = tns_search::Chances>,
        result: tns_search::Wdl,
    ) {
        for chances in readings {
            self.readings += 1;
            self.brier += chances.brier(result);
            self.likeliest_came += u64::from(chances.likeliest() == result);
        }
    }
}

/// Today's date in a record's `Date` tag form.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = tns_board::utc_date(secs);
    format!("{year:04}.{month:02}.{day:02}")
}

/// What the match keeps as its games finish: the standings, the players' times and forfeits,
/// the records, the SPRT's decision.
pub struct Progress<'a> {
    pub config: &'a MatchConfig,
    pub sprt: Option<Sprt>,
    /// A line for every finished game (`--verbose`).
    verbose: bool,
    /// Where each finished game is appended (`--records`), if anywhere.
    records: Option<Records<'a>>,
    pub names: [String; 2],
    movetimes: [Option<Duration>; 2],
    pub bar: ProgressBar,
    stop: &'a AtomicBool,
    pub standings: Standings,
    pub verdict: SprtDecision,
    pub timing: [Timing; 2],
    pub foresight: [Foresight; 2],
    /// Forfeits by player: how many, and the first reason.
    pub forfeits: Vec<(String, u32, String)>,
    /// Why the records could not be written, if they could not: the match stops then.
    pub records_failed: Option<anyhow::Error>,
    date: String,
    /// Games that finished after the SPRT decided (under way when it did), left out.
    pub after_decision: u32,
}

impl<'a> Progress<'a> {
    /// A match before its first game; `stop` is raised when the SPRT decides.
    pub fn new(
        config: &'a MatchConfig,
        sprt: Option<Sprt>,
        verbose: bool,
        records: Option<(&'a Path, tns_file::AppendFile)>,
        bar: ProgressBar,
        stop: &'a AtomicBool,
    ) -> Self {
        let movetime = |spec: &PlayerSpec| {
            let time = spec.budget(config.defaults).time.filter(|_| config.time_control.is_none());
            time.map(Duration::from_secs_f64)
        };
        Progress {
            config,
            sprt,
            verbose,
            records: records.map(|(path, file)| Records { path, file, last_sync: Instant::now() }),
            names: [config.a.to_string(), config.b.to_string()],
            movetimes: [movetime(&config.a), movetime(&config.b)],
            bar,
            stop,
            standings: Standings::default(),
            verdict: SprtDecision::Continue,
            timing: [Timing::default(), Timing::default()],
            foresight: [Foresight::default(), Foresight::default()],
            forfeits: Vec::new(),
            records_failed: None,
            date: today(),
            after_decision: 0,
        }
    }

    /// Counts a finished game: the standings, the times and readings, the records, the bar and
    /// the SPRT's decision.
    pub fn game(&mut self, game: &GameReport) {
        if self.verdict != SprtDecision::Continue {
            // Decided on whole pairs: a game that was under way then is not counted.
            self.after_decision += 1;
            return;
        }
        self.standings.add(game);
        let [name_a, name_b] = &self.names;
        let (sheep, tiger) = match game.a_side {
            Side::Sheep => (name_a.clone(), name_b.clone()),
            Side::Tiger => (name_b.clone(), name_a.clone()),
        };
        // On disk first: a match stopped at any moment keeps every game it told of.
        self.record(game, &sheep, &tiger);
        let played = &game.played;
        for side in [Side::Sheep, Side::Tiger] {
            let who = usize::from(side != game.a_side);
            let t = &mut self.timing[who];
            t.add(played.times_of(side), self.movetimes[who]);
            self.foresight[who].add(played.readings_of(side), played.result_for(side));
            t.overruns += u64::from(played.clock_overruns[usize::from(side == Side::Tiger)]);
            if matches!(played.termination, Termination::Time { side: lost, .. } if lost == side) {
                t.time_losses += 1;
            }
        }
        if let Termination::Forfeit { side, reason } = &played.termination {
            let who = if *side == Side::Sheep { &sheep } else { &tiger };
            match self.forfeits.iter_mut().find(|(name, _, _)| name == who) {
                Some(entry) => entry.1 += 1,
                None => self.forfeits.push((who.clone(), 1, reason.clone())),
            }
        }
        if self.verbose {
            let mut line = format!(
                "game {:>4}: {sheep} (sheep) vs {tiger} (tigers): {} by {}, {} plies",
                game.index + 1,
                match played.result {
                    RecordResult::SheepWin => "sheep win",
                    RecordResult::TigerWin => "tigers win",
                    RecordResult::Draw | RecordResult::Unfinished => "draw",
                },
                played.termination,
                played.game.len()
            );
            // What each side's player read at its last move, where it reads chances.
            let last: Vec<String> = [Side::Sheep, Side::Tiger]
                .into_iter()
                .filter_map(|side| {
                    let chances = played.readings_of(side).last()?;
                    let who =
                        if side == Side::Sheep { "the sheep's player" } else { "the tigers'" };
                    Some(format!("{who} {}", chances.describe(side)))
                })
                .collect();
            if !last.is_empty() {
                let _ = write!(line, "; last readings: {}", last.join(", "));
            }
            self.say(line);
        }
        let total = self.standings.a_total();
        let mut message = format!("{} {}", self.names[0], score_text(&total));
        if let Some(sprt) = &self.sprt {
            // With pairs, decided only between pairs, on the pentanomial counts.
            let (llr, decision) = sprt_state(sprt, &self.standings, self.config.colours);
            let _ = write!(message, " llr {llr:.2}");
            if let Some(decision) = decision {
                self.verdict = decision;
                if decision != SprtDecision::Continue {
                    self.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        self.bar.set_message(message);
        self.bar.inc(1);
    }

    /// A line above the bar on a terminal; a hidden bar (output piped) would swallow it.
    fn say(&self, line: String) {
        if self.bar.is_hidden() {
            say!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    /// Appends the game to the records file before anything else is told of it; a game that
    /// cannot be written stops the match (nothing is played that would not be kept).
    fn record(&mut self, game: &GameReport, sheep: &str, tiger: &str) {
        let Some(records) = &mut self.records else { return };
        let mut record = game.played.record(sheep, tiger);
        let opening = if self.config.book.is_empty() { self.config.openings } else { 0 };
        let round = (game.index + 1).to_string();
        let tags = [
            ("Event", "tns-bench match".to_string()),
            ("Date", self.date.clone()),
            ("Round", round.clone()),
            ("Game", round),
            ("Opening", opening.to_string()),
        ];
        // Fixed, valid names: setting them cannot fail.
        for (name, value) in tags {
            let _ = record.set_tag(name, &value);
        }
        let written = records.file.append(format!("{record}\n").as_bytes()).and_then(|()| {
            if records.last_sync.elapsed() < SYNC_EVERY {
                return Ok(());
            }
            records.last_sync = Instant::now();
            records.file.sync()
        });
        if let Err(e) = written {
            let path = records.path.display().to_string();
            self.records = None;
            self.records_failed = Some(anyhow::Error::from(e).context(format!(
                "cannot write game {} to {path}: the match stopped; the games before it are kept",
                game.index + 1
            )));
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Flushes the records to the disk itself at the end of the match.
    pub fn finish_records(&mut self) {
        if let Some(records) = &self.records
            && let Err(e) = records.file.sync()
        {
            let path = records.path.display().to_string();
            self.records_failed.get_or_insert(anyhow::Error::from(e).context(path));
        }
    }
}

/// The records file of a match, and when it was last flushed to the disk.
struct Records<'a> {
    path: &'a Path,
    file: tns_file::AppendFile,
    last_sync: Instant,
}

/// The SPRT's ratio now, and a decision when one may be taken: with alternating colours only
/// once a pair is whole (on the pentanomial counts), else after every game.
pub fn sprt_state(
    sprt: &Sprt,
    standings: &Standings,
    colours: Colours,
) -> (f64, Option<SprtDecision>) {
    match colours {
        Colours::Alternate => {
            let llr = sprt.llr_pairs(&standings.pairs);
            let whole = standings.a_total().games() == 2 * standings.pairs.pairs();
            (llr, whole.then(|| sprt.decide(llr)))
        }
        Colours::Fixed => {
            let llr = sprt.llr(&standings.a_total());
            (llr, Some(sprt.decide(llr)))
        }
    }
}

fn score_text(t: &Tally) -> String {
    format!("+{} ={} -{} ({:.1}%)", t.wins, t.draws, t.losses, 100.0 * t.score().unwrap_or(0.5))
}
