//! Saving: the record with its tags, the autosave, the saved game and picture, the position on
//! the clipboard; the dated names they are saved under.

use std::path::Path;
use std::time::Duration;

use anyhow::{anyhow, bail};
use tns_board::{EndReason, GameRecord, Outcome, RecordResult, Side};
use tns_match::TimeControl;
use tns_search::Limits;

use crate::App;
use crate::players::Controller;

impl App {
    /// The game as a record, with tags for the date (UTC) and each computer side's limits.
    pub fn record(&self) -> GameRecord {
        let mut record = GameRecord::from_game(
            &self.game,
            &self.player(Side::Sheep).name(),
            &self.player(Side::Tiger).name(),
        );
        let (date, time) = utc_now();
        // PGN's Date is 2026.12.01; the tags' names are fixed and valid, so setting cannot fail.
        let mut tags = vec![("Date", date.replace('-', ".")), ("Time", time)];
        for (side, tag) in [(Side::Sheep, "SheepLimits"), (Side::Tiger, "TigerLimits")] {
            if matches!(self.player(side), Controller::Computer(spec) if spec.searches()) {
                tags.push((tag, self.limit_text(side)));
            }
        }
        if let Some(clock) = &self.clock {
            // PGN's form, in seconds ("300+3"), and each side's time left when written.
            tags.push(("TimeControl", clock.control.pgn()));
            let now = std::time::Instant::now();
            for (side, tag) in [(Side::Sheep, "SheepClock"), (Side::Tiger, "TigerClock")] {
                // Tenths, rounded down as the clock shows them: 0:00.0 is never saved as 0.1.
                let tenths = clock.remaining(side, now).as_millis() / 100;
                tags.push((tag, format!("{}.{}", tenths / 10, tenths % 10)));
            }
        }
        if let Some(ended) = self.notes.ended.filter(|_| self.game.outcome().is_none()) {
            record.result = RecordResult::from_outcome(Some(ended));
            tags.push(("Termination", ended.reason.to_string()));
        }
        for (name, value) in tags {
            let _ = record.set_tag(name, &value);
        }
        record
    }

    /// Writes the game to the autosave file if it changed since it was last written (whole or
    /// not at all: a temporary file, then a rename). A failure is said once, then tried again
    /// at the next change.
    pub fn autosave_now(&mut self) {
        let Some(path) = &self.saving.autosave else { return };
        let now = (self.game.start(), self.game.moves().to_vec(), self.notes.ended);
        if self.saving.autosaved.as_ref() == Some(&now) {
            return;
        }
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Err(e) = tns_file::write_atomically(path, self.record().to_string().as_bytes()) {
            self.message = format!("could not autosave {}: {e}", path.display());
        }
        self.saving.autosaved = Some(now);
    }

    /// The last autosave, as the game is closed: on clocks it is written even if no move was
    /// made since the last one, so that `--resume` does not give back the time spent on this
    /// move.
    pub(super) fn autosave_final(&mut self) {
        if self.clock.is_some() {
            self.saving.autosaved = None;
        }
        self.autosave_now();
    }

    /// Saves the game record in `dir` (made if need be) under a dated name, written whole or
    /// not at all.
    pub fn save(&mut self, dir: &Path) {
        if let Err(e) = std::fs::create_dir_all(dir) {
            self.message = format!("could not save into {}: {e}", dir.display());
            return;
        }
        let (date, time) = utc_now();
        let path = fresh_path(dir, &format!("tns-{date}-{}", time.replace(':', "")), "txt");
        self.message = match tns_file::write_atomically(&path, self.record().to_string().as_bytes())
        {
            Ok(()) => {
                self.saving.dirty = false;
                self.saving.saved_to = Some(path.clone());
                format!("saved {}", path.display())
            }
            Err(e) => format!("could not save {}: {e}", path.display()),
        };
    }

    /// Saves the shown position (the one under review, if any) as an SVG picture in `dir`,
    /// with its last move ringed and the hint, if there is one, as an arrow.
    pub(crate) fn save_picture(&mut self, dir: &Path) {
        if let Err(e) = std::fs::create_dir_all(dir) {
            self.message = format!("could not save into {}: {e}", dir.display());
            return;
        }
        let picture = tns_svg::Picture {
            last_move: self.shown_last_move(),
            arrows: self
                .input
                .hinted()
                .filter(|_| self.looking_back().is_none())
                .into_iter()
                .collect(),
            ..tns_svg::Picture::default()
        };
        let svg = tns_svg::position(self.shown_board(), &picture);
        let (date, time) = utc_now();
        let stem = format!("tns-{date}-{}-move{}", time.replace(':', ""), self.shown_ply());
        let path = fresh_path(dir, &stem, "svg");
        self.message = match tns_file::write_atomically(&path, svg.as_bytes()) {
            Ok(()) => format!("picture saved: {}", path.display()),
            Err(e) => format!("could not save {}: {e}", path.display()),
        };
    }

    /// Shows the position on the board (the one under review, if any) in position notation
    /// and puts it on the clipboard (where the terminal allows), as `P` saves its picture.
    pub(crate) fn copy_position(&mut self) {
        let text = self.shown_board().to_string();
        self.message = format!("position: {text} (copied)");
        self.saving.clipboard = Some(text);
    }
}

/// `dir/stem.ext`, or `dir/stem-1.ext` and so on if that is taken: a name that never overwrites.
fn fresh_path(dir: &Path, stem: &str, ext: &str) -> std::path::PathBuf {
    (0..100)
        .map(|i| {
            let suffix = if i == 0 { String::new() } else { format!("-{i}") };
            dir.join(format!("{stem}{suffix}.{ext}"))
        })
        .find(|p| !p.exists())
        .unwrap_or_else(|| dir.join(format!("{stem}.{ext}")))
}

/// Today's date and the time, UTC, as `2026-11-30` and `20:45:51`.
pub fn utc_now() -> (String, String) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc_of(secs)
}

/// The UTC date and time of a Unix time.
pub fn utc_of(secs: u64) -> (String, String) {
    let (year, month, day) = tns_board::utc_date(secs);
    let rest = secs % 86_400;
    (
        format!("{year:04}-{month:02}-{day:02}"),
        format!("{:02}:{:02}:{:02}", rest / 3600, rest / 60 % 60, rest % 60),
    )
}

/// The ending a saved game's `Termination` tag and result say the players (or a clock) chose:
/// a resignation, an agreed draw, a loss on time. `None` for an ending the moves make
/// themselves, or for a tag that names none of these.
pub fn ending_of(record: &GameRecord) -> Option<Outcome> {
    let reason = record.tag("Termination")?;
    let winner = match record.result {
        RecordResult::SheepWin => Some(Side::Sheep),
        RecordResult::TigerWin => Some(Side::Tiger),
        _ => None,
    };
    match (reason.parse::<EndReason>().ok()?, winner) {
        (EndReason::Agreement, None) if record.result == RecordResult::Draw => {
            Some(Outcome::DRAW_BY_AGREEMENT)
        }
        (EndReason::Resignation, Some(w)) => Some(Outcome::resigned(w.other())),
        (EndReason::TimeForfeit, Some(w)) => Some(Outcome::lost_on_time(w.other())),
        _ => None,
    }
}

/// A saved game's time control, and the sheep's and the tigers' time left if it says.
pub type SavedClock = (TimeControl, Option<(Duration, Duration)>);

/// The clocks a saved game was played on: its `TimeControl` tag (`300+3`, in seconds, as
/// PGN writes it) and each side's time left (`SheepClock`, `TigerClock`), if it has them.
///
/// # Errors
/// A tag that does not read as a time, or one side's time left without the other's: a saved
/// game's clocks are never quietly reset.
pub fn clock_of(record: &GameRecord) -> anyhow::Result<Option<SavedClock>> {
    let Some(text) = record.tag("TimeControl") else { return Ok(None) };
    let seconds = |tag: &str, s: &str| {
        let t: Option<f64> = s.trim().parse().ok();
        t.filter(|t| t.is_finite() && (0.0..=86_400.0).contains(t))
            .map(Duration::from_secs_f64)
            .ok_or_else(|| anyhow!("the {tag} tag {s:?} is not a time in seconds (0 to 86400)"))
    };
    let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
    let control = TimeControl {
        base: seconds("TimeControl", base)?,
        increment: seconds("TimeControl", increment)?,
        moves: None,
    };
    if control.base.is_zero() && control.increment.is_zero() {
        bail!("the TimeControl tag {text:?} gives no time");
    }
    let left = match (record.tag("SheepClock"), record.tag("TigerClock")) {
        (Some(s), Some(t)) => Some((seconds("SheepClock", s)?, seconds("TigerClock", t)?)),
        (None, None) => None,
        _ => bail!("the saved game has one side's clock (SheepClock, TigerClock) only"),
    };
    Ok(Some((control, left)))
}

/// The limits a saved game's tag describes ("depth 4", "2.0 s a move"), if it reads as one.
pub fn limits_of_tag(text: &str) -> Option<Limits> {
    if let Some(d) = text.strip_prefix("depth ") {
        return d.trim().parse().ok().filter(|&d| (1..=100).contains(&d)).map(Limits::depth);
    }
    let secs: f64 = text.strip_suffix(" s a move")?.trim().parse().ok()?;
    (secs.is_finite() && secs > 0.0 && secs <= 86_400.0)
        .then(|| Limits::time(Duration::from_secs_f64(secs)))
}
