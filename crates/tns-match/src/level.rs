//! The levels a program offers people: named players, from the weakest to the perfect one, each
//! a name for a [`PlayerSpec`](crate::PlayerSpec) that a person need not learn to write.
//!
//! How strong each level is, measured, lives in docs/results.md; the texts here say what a level
//! does, not how it scored.

use std::fmt;
use std::str::FromStr;

/// A ready-made player: a name for people (`easy`), the spec it stands for
/// (`heuristic:depth=2`), and what it does. Its `Display` is its name; it parses from its name
/// or its exact spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Any legal move.
    Random,
    /// The hand-written evaluation, two plies ahead.
    Easy,
    /// The hand-written evaluation, four plies ahead.
    Medium,
    /// The hand-written evaluation, searching for the whole time.
    Hard,
    /// The shipped network: the strongest without the table.
    Strongest,
    /// The solved game itself (needs the whole table).
    Perfect,
}

/// A text that is neither a level's name nor its spec.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown level {given:?}: expected random, easy, medium, hard, strongest or perfect")]
pub struct LevelError {
    /// The text given (its first 40 characters).
    pub given: String,
}

impl Level {
    /// The levels, from the weakest to the strongest: the order every program lists them in.
    pub const ALL: [Level; 6] =
        [Level::Random, Level::Easy, Level::Medium, Level::Hard, Level::Strongest, Level::Perfect];

    /// The name people choose it by (`easy`), accepted wherever a player spec is.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Strongest => "strongest",
            Level::Perfect => "perfect",
        }
    }

    /// The player spec it stands for (`heuristic:depth=2`), written as a spec's `Display`
    /// writes its fields, so that a spec is this level exactly when its kind's text is this.
    pub const fn spec(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "heuristic:depth=2",
            Level::Medium => "heuristic:depth=4",
            Level::Hard => "heuristic",
            Level::Strongest => "network",
            Level::Perfect => "perfect",
        }
    }

    /// What it does, in a few words.
    pub const fn about(self) -> &'static str {
        match self {
            Level::Random => "any legal move",
            Level::Easy => "the hand-written evaluation, two plies ahead",
            Level::Medium => "the hand-written evaluation, four plies ahead",
            Level::Hard => "the hand-written evaluation, searching for the whole time",
            Level::Strongest => {
                "the network distilled from the solved game: the strongest without the table"
            }
            Level::Perfect => {
                "the solved game itself (needs the whole table): never lets a result slip"
            }
        }
    }

    /// Whether it needs the whole table (the perfect player).
    pub const fn needs_whole_table(self) -> bool {
        matches!(self, Level::Perfect)
    }

    /// The level called `name`, or whose spec is written exactly `name` (`network` is the
    /// `strongest`); as [`Level::from_str`](FromStr::from_str), for callers that need no error.
    ///
    /// ```
    /// use tns_match::Level;
    ///
    /// assert_eq!(Level::named("easy").map(Level::spec), Some("heuristic:depth=2"));
    /// assert_eq!(Level::named("network"), Some(Level::Strongest));
    /// assert_eq!(Level::named("heuristic:depth=3"), None);
    /// ```
    pub fn named(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name || l.spec() == name)
    }

    /// `name` with a level's name at its head replaced by the spec it stands for, its own
    /// options after the level's (so they win): `easy:time=1` is `heuristic:depth=2,time=1`.
    /// `None` when `name` does not start with a level's name that differs from its spec.
    pub(crate) fn expand(name: &str) -> Option<String> {
        let (head, options) = name.split_once(':').unwrap_or((name, ""));
        let level = Level::ALL.into_iter().find(|l| l.name() == head && l.spec() != head)?;
        let spec = level.spec();
        Some(match (spec.contains(':'), options.is_empty()) {
            (_, true) => spec.to_string(),
            (true, false) => format!("{spec},{options}"),
            (false, false) => format!("{spec}:{options}"),
        })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = LevelError;

    /// A level's name (`easy`) or its exact spec (`heuristic:depth=2`).
    fn from_str(s: &str) -> Result<Level, LevelError> {
        Level::named(s).ok_or_else(|| LevelError { given: s.chars().take(40).collect() })
    }
}

/// A player's name as the levels name it, for the lists people choose from (the game's form,
/// the web page): a level's spec (`network`, `network:table=on`, `heuristic:depth=2`) becomes
/// the level's name (`strongest`, `strongest:table=on`, `easy`); any other name stays as it is.
/// Two names of one player come out the same. A parsed player's own text is its `Display`
/// ([`PlayerSpec`](crate::PlayerSpec)), which names a level only where it is exactly one.
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
        return level.name().to_string();
    }
    let (head, options) = name.split_once(':').unwrap_or((name, ""));
    match Level::named(head) {
        Some(level) if !options.is_empty() && !level.spec().contains(':') => {
            format!("{}:{options}", level.name())
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
    for level in Level::ALL.into_iter().filter(|l| whole_table || !l.needs_whole_table()) {
        offers.push(Offer {
            name: level.name().to_string(),
            spec: level.spec().to_string(),
            about: level.about().to_string(),
        });
        if table && level == Level::Strongest {
            offers.push(Offer {
                name: format!("{}:table=on", level.name()),
                spec: format!("{}:table=on", level.spec()),
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
    fn every_level_parses_by_name_and_by_spec_to_the_same_player_named_by_the_level() {
        for level in Level::ALL {
            let by_name: PlayerSpec = level.name().parse().unwrap();
            let by_spec: PlayerSpec = level.spec().parse().unwrap();
            assert_eq!(by_name, by_spec, "{level}");
            assert_eq!(by_name.to_string(), level.name(), "a level's player shows its name");
            assert_eq!(by_name.level(), Some(level));
            assert_eq!(level.name().parse::<Level>(), Ok(level));
            assert_eq!(level.spec().parse::<Level>(), Ok(level));
            assert_eq!(level.to_string(), level.name());
        }
        assert_eq!(
            Level::ALL.map(Level::name),
            ["random", "easy", "medium", "hard", "strongest", "perfect"]
        );
        assert!(Level::ALL.windows(2).all(|w| w[0] < w[1]), "in order, weakest first");
        let err = "heuristic:depth=3".parse::<Level>().unwrap_err();
        assert!(err.to_string().contains("expected random, easy"), "{err}");
        assert!("".parse::<Level>().is_err() && "Easy".parse::<Level>().is_err());
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
        assert_eq!(spec.to_string(), "hard:depth=3");
        assert_eq!(spec.level(), None);
        let spec: PlayerSpec = "strongest:table=on".parse().unwrap();
        assert!(spec.table);
        assert_eq!(spec, "network:table=on".parse().unwrap());
        assert!("hard:speed=2".parse::<PlayerSpec>().is_err());
    }
}
