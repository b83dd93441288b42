//! Players, named on the command line the same way by every program here: what a player spec
//! holds. Its grammar is in `spec_grammar.rs`, what it builds in `spec_build.rs`, the strongest
//! player for a position in `strongest.rs`.
//!
//! A player is written `KIND[:OPTION=VALUE,...]`: `heuristic`, `network` (the shipped network,
//! built in), `perfect`, `random`, or a
//! weights file, with options that set its limits (`time`, `depth`, `threads`, `tt`)
//! and, for `heuristic` and `perfect`, any of the heuristic's weights (`dead=350,mobility=15`);
//! for `perfect`, `traps=on` to play for the opponent's mistakes among the drawing moves;
//! for `heuristic`, `network` and a weights file, `table=on` to search with the exact values of
//! the tablebase's movement phase wherever the search reaches it;
//! or `cmd:PROGRAM [ARGS]` for another program, with `name=`, `option.NAME=` and limits among its
//! words.

use std::fmt;
use std::sync::Arc;

use tns_nn::Network;
#[cfg(doc)]
use tns_search::Calibrated;
use tns_search::{Evaluator, Search, Weights};
#[cfg(doc)]
use tns_tablebase::WithTablebase;

use crate::error::PlayerError;
use crate::external::External;
use crate::player::Budget;
use crate::shipped::shipped_network_shared;

/// What kind of player a [`PlayerSpec`] builds.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerKind {
    /// The search with the hand-written evaluator and these weights.
    Heuristic(Weights),
    /// The search with the tablebase in front of the heuristic: perfect from the first move
    /// when the placement layers are built, else once the last sheep is placed. With `traps`
    /// (`perfect:traps=on`) it plays, among the drawing moves, those that leave the opponent
    /// the fewest replies that hold the draw ([`WithTablebase::setting_traps`]).
    Perfect {
        /// The heuristic's weights, for the positions the table does not hold.
        weights: Weights,
        /// Whether it sets traps.
        traps: bool,
    },
    /// The search with a network as its evaluator, from a weights file.
    Neural(Arc<Network>),
    /// A uniformly random legal move.
    Random,
    /// Another program speaking the TSI protocol.
    External(External),
}

/// A player as named on the command line: its kind, and any limits it sets for itself (those it
/// leaves unset come from the match's defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    /// The text it was parsed from, used as its name in reports and records.
    pub name: String,
    /// What kind of player.
    pub kind: PlayerKind,
    /// Seconds per move, if set for this player.
    pub time: Option<f64>,
    /// Plies per move, if set for this player.
    pub depth: Option<u32>,
    /// Search threads, if set for this player.
    pub threads: Option<usize>,
    /// Table size in MiB, if set for this player.
    pub tt_mb: Option<usize>,
    /// Whether the search takes the tablebase's exact values wherever it reaches a position
    /// with no sheep in hand (`table=on`, for `heuristic`, `network` and weights files; see
    /// [`WithTablebase::table_on`]). The perfect player always does.
    pub table: bool,
    /// Whether the search takes the exact wins and losses of the endgame built into the program
    /// (the movement phase after at most one kill, [`shipped_endgame`](crate::shipped_endgame), [`with_endgame`](crate::with_endgame)) where
    /// it has no `table=on`:
    /// `endgame=on`, the default of the network players (`network` and weights files);
    /// `endgame=off` leaves the network alone. The heuristic takes it only when told.
    pub endgame: bool,
    /// Whether the evaluator's scores are read through the chances fitted for it on the solved
    /// game ([`Calibrated`], [`shipped_chances`](crate::shipped_chances)): its scores are then the expected result in
    /// permille, steady from depth to depth, and its chances are calibrated. On by default for
    /// the shipped network (and a weights file that holds it); `calibrated=off` searches with
    /// its raw scores, which change sign with the horizon's parity. Off by default for the
    /// heuristic, whose chances are fitted only on the table's last placement layers so far;
    /// `heuristic:calibrated=on` reads its default weights' scores through them. Other
    /// evaluators have no fitted chances and are never calibrated.
    pub calibrated: bool,
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// A search ready to play as a player: its evaluator, threads and table. Programs that run
/// the search themselves (to show its lines, to stop it) get one from
/// [`PlayerSpec::searcher`].
pub type Searcher = Search<Box<dyn Evaluator>>;

impl PlayerSpec {
    /// A player of `kind` named `name`, setting no limits of its own.
    pub fn new(name: impl Into<String>, kind: PlayerKind) -> PlayerSpec {
        PlayerSpec {
            name: name.into(),
            endgame: matches!(kind, PlayerKind::Neural(_)),
            calibrated: matches!(kind, PlayerKind::Neural(_)),
            kind,
            time: None,
            depth: None,
            threads: None,
            tt_mb: None,
            table: false,
        }
    }

    /// `network`: the search with the shipped network, within the limits a program gives it.
    ///
    /// # Errors
    /// As [`shipped_network`](crate::shipped_network).
    pub fn network() -> Result<PlayerSpec, PlayerError> {
        Ok(PlayerSpec::new("network", PlayerKind::Neural(shipped_network_shared()?)))
    }

    /// `heuristic`: the search with the hand-written evaluator's default weights, within the
    /// limits a program gives it.
    pub fn heuristic() -> PlayerSpec {
        PlayerSpec::new("heuristic", PlayerKind::Heuristic(Weights::DEFAULT))
    }

    /// `perfect`: the search behind the tablebase, with the heuristic's default weights where
    /// the table does not hold a position.
    pub fn perfect() -> PlayerSpec {
        PlayerSpec::new("perfect", PlayerKind::Perfect { weights: Weights::DEFAULT, traps: false })
    }

    /// The same player with `table=on` (its name says so): its search takes the exact values
    /// of the tablebase's movement phase. The perfect player, which always does, and players
    /// that do not search are returned as they are.
    ///
    /// ```
    /// use tns_match::PlayerSpec;
    ///
    /// let spec: PlayerSpec = "heuristic:depth=4".parse()?;
    /// let with = spec.using_table();
    /// assert!(with.table);
    /// assert_eq!(with.name, "heuristic:depth=4,table=on");
    /// assert_eq!(with.name.parse::<PlayerSpec>()?, with);
    /// # Ok::<(), tns_match::PlayerError>(())
    /// ```
    #[must_use]
    pub fn using_table(mut self) -> PlayerSpec {
        if self.table || !matches!(self.kind, PlayerKind::Heuristic(_) | PlayerKind::Neural(_)) {
            return self;
        }
        self.table = true;
        let joint = if self.name.contains(':') { ',' } else { ':' };
        self.name = format!("{}{joint}table=on", self.name);
        self
    }

    /// The same player without `table=on` (its name no longer says it): for a saved game whose
    /// player searched with a table that is not here now.
    ///
    /// ```
    /// use tns_match::PlayerSpec;
    ///
    /// let spec: PlayerSpec = "network:depth=4,table=on".parse()?;
    /// let without = spec.without_table();
    /// assert!(!without.table);
    /// assert_eq!(without.name, "network:depth=4");
    /// assert_eq!(without.name.parse::<PlayerSpec>()?, without);
    /// # Ok::<(), tns_match::PlayerError>(())
    /// ```
    #[must_use]
    pub fn without_table(mut self) -> PlayerSpec {
        if !self.table {
            return self;
        }
        self.table = false;
        let (kind, options) = self.name.split_once(':').unwrap_or((&self.name, ""));
        let kept: Vec<&str> =
            options.split(',').filter(|o| !o.is_empty() && !o.starts_with("table=")).collect();
        self.name =
            if kept.is_empty() { kind.to_string() } else { format!("{kind}:{}", kept.join(",")) };
        self
    }

    /// This player's budget: its own settings, and `defaults` for the rest. A player that sets
    /// a depth but no time searches to that depth only, and the other way round.
    pub fn budget(&self, defaults: Budget) -> Budget {
        let (time, depth) = match (self.time, self.depth) {
            (None, None) => (defaults.time, defaults.depth),
            own => own,
        };
        Budget {
            time,
            depth,
            threads: self.threads.unwrap_or(defaults.threads),
            tt_mb: self.tt_mb.unwrap_or(defaults.tt_mb),
        }
    }

    /// Whether this player needs the tablebase: the perfect player, and those with `table=on`.
    pub fn needs_tablebase(&self) -> bool {
        self.table || matches!(self.kind, PlayerKind::Perfect { .. })
    }

    /// Whether this player is one of ours that searches (and so has limits): not `random`,
    /// not an external program.
    pub fn searches(&self) -> bool {
        !matches!(self.kind, PlayerKind::Random | PlayerKind::External(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_limits_replace_the_defaults_as_a_pair() {
        let defaults = Budget { time: Some(1.0), depth: None, threads: 1, tt_mb: 16 };
        let spec: PlayerSpec = "heuristic:depth=5".parse().unwrap();
        let b = spec.budget(defaults);
        assert_eq!((b.time, b.depth, b.tt_mb), (None, Some(5), 16));
        let plain: PlayerSpec = "heuristic".parse().unwrap();
        assert_eq!(plain.budget(defaults), defaults);
    }
}
