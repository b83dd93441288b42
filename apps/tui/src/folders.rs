//! The user's folders: where games are saved, where the endgame table is looked for and built,
//! and where the puzzle record is kept. The environment (`TNS_TABLEBASE_DIR`, the user's data
//! directory) is read here once, so that every folder is worked out from the same answers.

use std::path::{Path, PathBuf};

/// The table's folder when the environment names none: in the current folder, or in the
/// user's data directory.
const TABLEBASE: &str = "tablebase";
/// The puzzle record's file name.
const PUZZLE_RECORD: &str = "puzzles.txt";

/// The folders the game reads and writes, from its options and the environment.
///
/// - Games are saved in `--save-dir`, else a `games` folder in the user's data directory, else
///   the current folder.
/// - A table is looked for in `--tablebase` alone when it is given (a folder named is the one
///   meant); else in `TNS_TABLEBASE_DIR` (set and not empty), `./tablebase`, and a `tablebase`
///   folder in the user's data directory, in that order.
/// - `B` builds the table into `--tablebase`, else `TNS_TABLEBASE_DIR`, else the data
///   directory's `tablebase` (looked in last, so that a table in the current folder still comes
///   first), else `./tablebase`.
/// - The puzzle record is `puzzles.txt` in `--save-dir`, else in the data directory, else in the
///   current folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Folders {
    /// `--save-dir`.
    save_dir: Option<PathBuf>,
    /// `--tablebase`.
    tablebase: Option<PathBuf>,
    /// `TNS_TABLEBASE_DIR`, when it is set and not empty.
    tablebase_env: Option<PathBuf>,
    /// The game's folder in the user's data directory, where the system has one (such as
    /// `~/.local/share/tigers-and-sheep` on Linux).
    data: Option<PathBuf>,
}

impl Folders {
    /// The folders for the options `--save-dir` and `--tablebase` (`None` where not given),
    /// reading `TNS_TABLEBASE_DIR` and asking the system for the user's data directory.
    #[must_use]
    pub fn new(save_dir: Option<PathBuf>, tablebase: Option<PathBuf>) -> Folders {
        let tablebase_env =
            std::env::var_os("TNS_TABLEBASE_DIR").filter(|d| !d.is_empty()).map(PathBuf::from);
        let data = directories::ProjectDirs::from("", "", "tigers-and-sheep")
            .map(|d| d.data_dir().to_path_buf());
        Folders { save_dir, tablebase, tablebase_env, data }
    }

    /// Where games are saved, and the game in progress autosaved.
    #[must_use]
    pub fn games(&self) -> PathBuf {
        match (&self.save_dir, &self.data) {
            (Some(dir), _) => dir.clone(),
            (None, Some(data)) => data.join("games"),
            (None, None) => PathBuf::from("."),
        }
    }

    /// The folder `--tablebase` names, if it does: it must be there (a typo is not "no table").
    #[must_use]
    pub fn tablebase_given(&self) -> Option<&Path> {
        self.tablebase.as_deref()
    }

    /// The folders a table is looked for in, in order.
    #[must_use]
    pub fn tablebase_dirs(&self) -> Vec<PathBuf> {
        if let Some(dir) = &self.tablebase {
            return vec![dir.clone()];
        }
        let mut dirs = Vec::new();
        dirs.extend(self.tablebase_env.clone());
        dirs.push(PathBuf::from(TABLEBASE));
        dirs.extend(self.data.as_ref().map(|d| d.join(TABLEBASE)));
        dirs
    }

    /// The folder `B` builds the table into.
    #[must_use]
    pub fn table_home(&self) -> PathBuf {
        let given = self.tablebase.as_ref().or(self.tablebase_env.as_ref());
        match (given, &self.data) {
            (Some(dir), _) => dir.clone(),
            (None, Some(data)) => data.join(TABLEBASE),
            (None, None) => PathBuf::from(TABLEBASE),
        }
    }

    /// The file the player's puzzle rating and streak are kept in.
    #[must_use]
    pub fn puzzle_record(&self) -> PathBuf {
        match self.save_dir.as_ref().or(self.data.as_ref()) {
            Some(dir) => dir.join(PUZZLE_RECORD),
            None => PathBuf::from(PUZZLE_RECORD),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every folder there is, none of them read from this machine.
    fn all() -> Folders {
        Folders {
            save_dir: Some("saves".into()),
            tablebase: Some("given".into()),
            tablebase_env: Some("from-env".into()),
            data: Some("data".into()),
        }
    }

    fn paths(names: &[&str]) -> Vec<PathBuf> {
        names.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn a_table_is_looked_for_in_the_given_folder_else_the_environment_here_and_the_data() {
        let given = all();
        assert_eq!(given.tablebase_dirs(), paths(&["given"]), "a given folder is the only one");
        let env = Folders { tablebase: None, ..all() };
        assert_eq!(env.tablebase_dirs(), paths(&["from-env", "tablebase", "data/tablebase"]));
        let here = Folders { tablebase_env: None, ..env.clone() };
        assert_eq!(here.tablebase_dirs(), paths(&["tablebase", "data/tablebase"]));
        let no_data = Folders { data: None, ..here.clone() };
        assert_eq!(no_data.tablebase_dirs(), paths(&["tablebase"]));
        assert_eq!(given.tablebase_given(), Some(Path::new("given")));
        assert_eq!(env.tablebase_given(), None);
    }

    #[test]
    fn b_builds_into_the_given_folder_else_the_environment_else_the_data() {
        assert_eq!(all().table_home(), Path::new("given"));
        let env = Folders { tablebase: None, ..all() };
        assert_eq!(env.table_home(), Path::new("from-env"));
        // Not ./tablebase while there is a data directory: it is looked in before the data's,
        // so a table already here still comes first.
        let data = Folders { tablebase_env: None, ..env };
        assert_eq!(data.table_home(), Path::new("data/tablebase"));
        let neither = Folders { data: None, ..data };
        assert_eq!(neither.table_home(), Path::new("tablebase"));
    }

    #[test]
    fn games_and_the_puzzle_record_go_to_the_save_dir_else_the_data() {
        assert_eq!(all().games(), Path::new("saves"));
        assert_eq!(all().puzzle_record(), Path::new("saves/puzzles.txt"));
        let data = Folders { save_dir: None, ..all() };
        assert_eq!(data.games(), Path::new("data/games"));
        assert_eq!(data.puzzle_record(), Path::new("data/puzzles.txt"));
        let neither = Folders { data: None, ..data };
        assert_eq!(neither.games(), Path::new("."));
        assert_eq!(neither.puzzle_record(), Path::new("puzzles.txt"));
    }
}
