//! Finding the endgame table when a game or the puzzles start, and what the status line first
//! says of it: a damaged table passed over, `B` offered where there is none, a table that holds
//! only part of the game.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::bail;
use tns_board::{KILLS_TO_WIN, Side};
use tns_tablebase::Tablebase;

use crate::app::App;
use crate::folders::Folders;
use crate::players::Controller;

/// The first sound table found in the folders looked in ([`Folders::tablebase_dirs`]), and a
/// warning for the status line when a folder on the way held a damaged one. An error naming
/// where it looked when the perfect player (or `table=on`) needs a table and there is none, or
/// only a damaged one; where no side needs it, a damaged table does not stop the game: it plays
/// on without (and `B` builds a sound one).
///
/// # Errors
/// `--tablebase` naming no folder; no sound table where one is needed.
pub fn find_tablebase(
    folders: &Folders,
    needed: bool,
) -> anyhow::Result<(Option<Arc<Tablebase>>, Option<String>)> {
    // A folder named on the command line must be there: a typo is not "no table".
    if let Some(dir) = folders.tablebase_given()
        && !dir.is_dir()
    {
        bail!("--tablebase {}: no such folder", dir.display());
    }
    let dirs = folders.tablebase_dirs();
    let mut damaged: Option<anyhow::Error> = None;
    for dir in &dirs {
        match Tablebase::load(KILLS_TO_WIN, dir) {
            Ok(table) => {
                let skipped = damaged.map(|d| {
                    format!(
                        "{} (skipped: {} is used)",
                        tns_file::one_line(d.as_ref()),
                        dir.display()
                    )
                });
                return Ok((Some(Arc::new(table)), skipped));
            }
            Err(e) if e.is_missing() => {}
            Err(e) => {
                damaged.get_or_insert_with(|| {
                    anyhow::Error::new(e).context(format!("the tablebase in {}", dir.display()))
                });
            }
        }
    }
    if !needed {
        let warning =
            damaged.map(|d| format!("{} (playing without it)", tns_file::one_line(d.as_ref())));
        return Ok((None, warning));
    }
    if let Some(damaged) = damaged {
        return Err(damaged);
    }
    let looked: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    bail!(
        "the perfect player (or `table=on`) needs the tablebase, and there is none in {}\n(build \
         it with `cargo run --release -p tns-tablebase-cli -- build --placement --dir DIR`; the \
         movement phase alone, enough for `table=on`, builds in about a minute without \
         `--placement`)",
        looked.join(", ")
    )
}

/// Where `B` builds a table (`home`, [`Folders::table_home`]) and which seats take one
/// (`optional`, those left to the default); where there is no table and a computer seat would
/// take one, the first message says `B`. A damaged table passed over (`warning`, from
/// [`find_tablebase`]) is said first.
pub fn offer_table_build(
    app: &mut App,
    optional: [bool; 2],
    home: PathBuf,
    warning: Option<String>,
) {
    app.set_table_home(Some(home));
    app.set_takes_table(optional);
    let would_take = [Side::Sheep, Side::Tiger]
        .into_iter()
        .zip(optional)
        .any(|(side, o)| o && matches!(app.player(side), Controller::Computer(_)));
    let offer = app.tablebase().is_none() && would_take;
    let message = match (warning, offer) {
        (Some(warning), true) => format!("{warning}; B builds a sound one"),
        (Some(warning), false) => warning,
        (None, true) => "Press ? for help, B to build the endgame table (a minute)".into(),
        (None, false) => return,
    };
    app.set_message(message);
}

/// Where a perfect player plays with a table that does not solve the whole game: what it then
/// does, and how to build the rest (the perfect player is perfect only where the table holds
/// the position, and searches elsewhere).
#[must_use]
pub fn partial_table_note(seats: &[&Controller], table: Option<&Tablebase>) -> Option<String> {
    let perfect = seats.iter().any(|seat| {
        matches!(seat, Controller::Computer(spec)
            if matches!(spec.kind, tns_match::PlayerKind::Perfect { .. }))
    });
    let table = table.filter(|t| perfect && !t.solves_whole_game())?;
    let from = table.placement_from().map_or_else(
        || "once every sheep is placed".to_owned(),
        |placed| format!("from {placed} sheep placed on"),
    );
    Some(format!(
        "this table holds the game {from}: before that the perfect player searches (tns-tablebase \
         build --placement builds the rest)"
    ))
}

#[cfg(test)]
mod tests {
    use tns_board::Game;
    use tns_search::Limits;

    use super::*;

    #[test]
    fn a_default_computer_seat_without_a_table_is_told_of_b_and_takes_one() {
        let app = |sheep: Controller, optional| {
            let mut app =
                App::new(Game::new(), sheep, Controller::network(), Limits::depth(1), None);
            offer_table_build(&mut app, optional, PathBuf::from("/tmp/t"), None);
            app
        };
        let default = app(Controller::Human, [true, true]);
        assert!(default.message().contains("B to build"), "{}", default.message());
        assert_eq!(default.takes_table(), [true, true]);
        assert_eq!(default.table_home(), Some(std::path::Path::new("/tmp/t")));
        // Both sides named: nobody takes a table, and nobody is told of B at the start.
        let named = app(Controller::Human, [false, false]);
        assert!(!named.message().contains("B to build"), "{}", named.message());
        assert_eq!(named.takes_table(), [false, false]);
        // A damaged table passed over is said, with `B` only where it would be offered.
        let mut warned =
            App::new(Game::new(), Controller::Human, Controller::network(), Limits::depth(1), None);
        let damage = || Some("the tablebase in t: damaged (playing without it)".to_owned());
        offer_table_build(&mut warned, [true, true], PathBuf::from("t"), damage());
        assert!(
            warned.message().starts_with("the tablebase in t: damaged"),
            "{}",
            warned.message()
        );
        assert!(warned.message().ends_with("B builds a sound one"), "{}", warned.message());
        offer_table_build(&mut warned, [false, false], PathBuf::from("t"), damage());
        assert!(!warned.message().contains("B builds"), "{}", warned.message());
    }

    #[test]
    fn a_damaged_table_stops_only_a_player_that_needs_it() {
        let dir = std::env::temp_dir().join(format!("tns-tui-damaged-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("k5-d0.tnstb"), b"not a table at all").unwrap();
        let folders = Folders::new(None, Some(dir.clone()));
        // No side needs it: the game starts without it, saying where and what was wrong.
        let (table, warning) = find_tablebase(&folders, false).unwrap();
        assert!(table.is_none());
        let warning = warning.expect("the damage is told");
        assert!(warning.contains("k5-d0.tnstb") && warning.contains("without it"), "{warning}");
        // A perfect player needs it: the game does not start, and says why.
        let error = tns_file::one_line(find_tablebase(&folders, true).unwrap_err().as_ref());
        assert!(error.contains("k5-d0.tnstb") && error.contains("not a Tigers"), "{error}");
        // A sound folder with nothing in it: no table, no warning.
        std::fs::remove_file(dir.join("k5-d0.tnstb")).unwrap();
        assert!(matches!(find_tablebase(&folders, false), Ok((None, None))));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_perfect_player_with_part_of_the_table_is_told_so() {
        // The variant won by one kill builds in a moment; its movement phase is all it holds.
        let table = Tablebase::build(1, None, |_| {}).unwrap();
        let perfect = Controller::parse("perfect").unwrap();
        let note = partial_table_note(&[&Controller::Human, &perfect], Some(&table)).unwrap();
        assert!(
            note.contains("once every sheep is placed") && note.contains("--placement"),
            "{note}"
        );
        assert!(
            partial_table_note(&[&Controller::Human, &Controller::network()], Some(&table))
                .is_none()
        );
    }
}
