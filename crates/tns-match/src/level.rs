//! The levels a program offers people: named players, from the weakest to the perfect one, each
//! a name for a [`PlayerSpec`](crate::PlayerSpec) that a person need not learn to write.
//!
//! How strong each level is, measured, lives in docs/results.md; the texts here say what a level
//! does, not how it scored.

/// A ready-made player: its name for people, the spec it stands for, and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The name people choose it by (`easy`), accepted wherever a player spec is.
    pub name: &'static str,
    /// The player spec it stands for (`heuristic:depth=2`).
    pub spec: &'static str,
    /// What it does, in a few words.
    pub about: &'static str,
    /// Whether it needs the whole table (the perfect player).
    pub needs_whole_table: bool,
}

/// The levels, from the weakest to the strongest.
pub const LEVELS: [Level; 6] = [
    Level { name: "random", spec: "random", about: "any legal move", needs_whole_table: false },
    Level {
        name: "easy",
        spec: "heuristic:depth=2",
        about: "the hand-written evaluation, two plies ahead",
        needs_whole_table: false,
    },
    Level {
        name: "medium",
        spec: "heuristic:depth=4",
        about: "the hand-written evaluation, four plies ahead",
        needs_whole_table: false,
    },
    Level {
        name: "hard",
        spec: "heuristic",
        about: "the hand-written evaluation, searching for the whole time",
        needs_whole_table: false,
    },
    Level {
        name: "strongest",
        spec: "network",
        about: "the network distilled from the solved game: the strongest without the table",
        needs_whole_table: false,
    },
    Level {
        name: "perfect",
        spec: "perfect",
        about: "the solved game itself (needs the whole table): never lets a result slip",
        needs_whole_table: true,
    },
];

impl Level {
    /// The level called `name`, or whose spec is written exactly `name` (`network` is the
    /// `strongest`).
    ///
    /// ```
    /// use tns_match::Level;
    ///
    /// assert_eq!(Level::named("easy").map(|l| l.spec), Some("heuristic:depth=2"));
    /// assert_eq!(Level::named("network").map(|l| l.name), Some("strongest"));
    /// assert_eq!(Level::named("heuristic:depth=3"), None);
    /// ```
    pub fn named(name: &str) -> Option<&'static Level> {
        LEVELS.iter().find(|l| l.name == name || l.spec == name)
    }

    /// `name` with a level's name at its head replaced by the spec it stands for, its own
    /// options after the level's (so they win): `easy:time=1` is `heuristic:depth=2,time=1`.
    /// `None` when `name` does not start with a level's name that differs from its spec.
    pub(crate) fn expand(name: &str) -> Option<String> {
        let (head, options) = name.split_once(':').unwrap_or((name, ""));
        let level = LEVELS.iter().find(|l| l.name == head && l.spec != head)?;
        Some(match (level.spec.contains(':'), options.is_empty()) {
            (_, true) => level.spec.to_string(),
            (true, false) => format!("{},{options}", level.spec),
            (false, false) => format!("{}:{options}", level.spec),
        })
    }
}

/// A player's name as the levels name it: a level's spec (`network`, `network:table=on`,
/// `heuristic:depth=2`) becomes the level's name (`strongest`, `strongest:table=on`, `easy`);
/// any other name stays as it is. Two names of one player come out the same.
///
/// ```
/// use tns_match::level_name;
///
/// assert_eq!(level_name("network:table=on"), "strongest:table=on");
/// assert_eq!(level_name("heuristic:depth=4"), "medium");
/// assert_eq!(level_name("easy"), "easy");
/// assert_eq!(level_name("heuristic:dead=350"), "hard:dead=350");
/// assert_eq!(level_name("my.bin"), "my.bin");
/// ```
pub fn level_name(name: &str) -> String {
    if let Some(level) = Level::named(name) {
        return level.name.to_string();
    }
    let (head, options) = name.split_once(':').unwrap_or((name, ""));
    match Level::named(head) {
        Some(level) if !options.is_empty() && !level.spec.contains(':') => {
            format!("{}:{options}", level.name)
        }
        _ => name.to_string(),
    }
}

/// A player a program offers: its name (a level's, or a level's with `table=on`) and what it
/// does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    /// The name to choose and to parse as a player spec.
    pub name: String,
    /// The spec it stands for, for those who want it (`heuristic:depth=2`).
    pub spec: String,
    /// What it does.
    pub about: String,
}

/// The players a program offers, in one order everywhere: the levels from the weakest; where a
/// table is loaded, the strongest searching with its movement phase right after the
/// strongest; the perfect player only where the table solves the whole game.
///
/// ```
/// use tns_match::offers;
///
/// let names: Vec<String> = offers(false, false).into_iter().map(|o| o.name).collect();
/// assert_eq!(names, ["random", "easy", "medium", "hard", "strongest"]);
/// let names: Vec<String> = offers(true, true).into_iter().map(|o| o.name).collect();
/// assert_eq!(names[4..], ["strongest", "strongest:table=on", "perfect"]);
/// ```
pub fn offers(table: bool, whole_table: bool) -> Vec<Offer> {
    let mut offers = Vec::new();
    for level in LEVELS.iter().filter(|l| whole_table || !l.needs_whole_table) {
        offers.push(Offer {
            name: level.name.to_string(),
            spec: level.spec.to_string(),
            about: level.about.to_string(),
        });
        if table && level.name == "strongest" {
            offers.push(Offer {
                name: format!("{}:table=on", level.name),
                spec: format!("{}:table=on", level.spec),
                about: "the strongest, searching with the table's exact values once every \
                        sheep is placed"
                    .to_string(),
            });
        }
    }
    offers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PlayerSpec;

    #[test]
    fn every_level_parses_by_name_and_by_spec_to_the_same_player() {
        for level in LEVELS {
            let by_name: PlayerSpec = level.name.parse().unwrap();
            let by_spec: PlayerSpec = level.spec.parse().unwrap();
            assert_eq!(by_name.name, level.name, "a level keeps the name it was chosen by");
            assert_eq!(
                PlayerSpec { name: by_spec.name.clone(), ..by_name },
                by_spec,
                "{}",
                level.name
            );
        }
    }

    #[test]
    fn a_levels_options_come_after_its_own() {
        assert_eq!(Level::expand("easy:time=1").as_deref(), Some("heuristic:depth=2,time=1"));
        assert_eq!(Level::expand("hard:depth=6").as_deref(), Some("heuristic:depth=6"));
        assert_eq!(Level::expand("strongest").as_deref(), Some("network"));
        assert_eq!(Level::expand("network"), None);
        assert_eq!(Level::expand("perfect"), None, "a spec that is its own name");
        let spec: PlayerSpec = "easy:depth=3".parse().unwrap();
        assert_eq!(spec.depth, Some(3), "the player's option replaces the level's");
        assert_eq!(spec.name, "easy:depth=3");
        let spec: PlayerSpec = "strongest:table=on".parse().unwrap();
        assert!(spec.table);
        assert!("hard:speed=2".parse::<PlayerSpec>().is_err());
    }
}
