//! The settings a run folder records (`settings.txt`), so that a resumed run goes on with the
//! settings it was started with: a resume with others is refused, unless told to go on with
//! the new ones (`--new-settings`).

use anyhow::{Context as _, bail};

use crate::settings::Settings;

/// The file in the run folder.
const FILE: &str = "settings.txt";

/// The settings that decide what a run trains, one `--option value` a line. Not the number of
/// generations (a run is resumed by asking for more), nor where it starts from, nor what is only
/// shown (bars) or measured at the end.
pub fn text(s: &Settings) -> String {
    let lines = [
        ("--games", s.games.to_string()),
        ("--hidden", format!("{:?}", s.hidden)),
        ("--inputs", s.inputs.to_string()),
        ("--buckets", s.buckets.to_string()),
        ("--objective", format!("{:?}", s.objective)),
        ("--depth", s.depth.to_string()),
        ("--epsilon", s.epsilon.to_string()),
        ("--lambda", s.lambda.to_string()),
        ("--epochs", s.epochs.to_string()),
        ("--learning-rate", s.learning_rate.to_string()),
        ("--final-learning-rate", s.final_learning_rate.to_string()),
        ("--batch", s.batch.to_string()),
        ("--window", s.window.to_string()),
        ("--seed", s.seed.to_string()),
        ("--match-every", s.match_every.to_string()),
        ("--match-games", s.match_games.to_string()),
        ("--match-depth", s.match_depth.to_string()),
        ("--max-plies", s.max_plies.to_string()),
        ("--teacher", if s.teacher.is_some() { "a table" } else { "none (self-play)" }.into()),
        ("--uniform", s.uniform.to_string()),
        ("--children", s.children.to_string()),
        ("--draw-margin", s.draw_margin.to_string()),
        ("--draw-margin-tigers", s.draw_margin_tigers.to_string()),
        ("--draw-margin-movement", format!("{:?}", s.draw_margin_movement)),
        ("--traps", s.traps.to_string()),
        ("--validation-games", s.validation_games.to_string()),
    ];
    let mut text = String::new();
    for (key, value) in lines {
        text.push_str(key);
        text.push(' ');
        text.push_str(&value);
        text.push('\n');
    }
    text
}

/// Records the settings of a new run (`first` 0), or checks a resumed run's against those it
/// recorded: the same go on; others are refused, naming each that differs, unless
/// `s.new_settings` says to go on with them (they are then recorded, and the log says so).
///
/// # Errors
/// The settings that differ, or a file that cannot be read or written.
pub fn check_or_record(s: &Settings, first: u32, log: &mut impl FnMut(&str)) -> anyhow::Result<()> {
    let path = s.out.join(FILE);
    let now = text(s);
    let write = |text: &str| {
        tns_file::write_atomically(&path, text.as_bytes())
            .with_context(|| path.display().to_string())
    };
    if first == 0 {
        return write(&now);
    }
    let recorded = match tns_file::read_text(&path, 1 << 16) {
        Err(tns_file::FileError::Missing) => {
            log(&format!("note: {} records no settings: recording these", s.out.display()));
            return write(&now);
        }
        read => read.with_context(|| path.display().to_string())?,
    };
    let differ = differences(&recorded, &now);
    if differ.is_empty() {
        return Ok(());
    }
    if s.new_settings {
        log(&format!("note: going on with new settings (--new-settings): {}", differ.join("; ")));
        return write(&now);
    }
    bail!(
        "{} was started with other settings: {}. Run it with the same, or add --new-settings to \
         go on with these (the run then differs from an unbroken one), or train into a new folder",
        s.out.display(),
        differ.join("; ")
    )
}

/// Each setting whose value differs between two records: `--seed 5 in the run, 9 now`.
fn differences(recorded: &str, now: &str) -> Vec<String> {
    let pairs = |text: &str| -> Vec<(String, String)> {
        text.lines()
            .filter_map(|l| l.split_once(' '))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect()
    };
    let (was, is) = (pairs(recorded), pairs(now));
    let mut out = Vec::new();
    for (key, value) in &is {
        match was.iter().find(|(k, _)| k == key) {
            Some((_, old)) if old != value => {
                out.push(format!("{key} {old} in the run, {value} now"));
            }
            None => out.push(format!("{key} not recorded in the run, {value} now")),
            Some(_) => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_name_each_setting_that_changed() {
        let was = "--seed 5\n--games 4\n";
        let now = "--seed 9\n--games 4\n--lambda 0.7\n";
        assert_eq!(
            differences(was, now),
            ["--seed 5 in the run, 9 now", "--lambda not recorded in the run, 0.7 now"]
        );
        assert!(differences(now, now).is_empty());
    }
}
