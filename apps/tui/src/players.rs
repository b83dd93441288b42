//! Who plays each side: a person or a computer player's spec, and a computer's seat with its
//! engine and limits.

use std::time::Duration;

use tns_board::{Move, Side};
use tns_match::{PlayerKind, PlayerSpec, RandomPlayer};
use tns_search::Limits;

use crate::engine::Engine;

/// Who controls a side: a person or a computer player.
#[derive(Clone, Debug, PartialEq)]
pub enum Controller {
    /// A person, with mouse and keyboard.
    Human,
    /// A computer player, named as in `tns-bench match` (`heuristic:depth=2`, `random`,
    /// `perfect`, a weights file).
    Computer(PlayerSpec),
}

impl Controller {
    /// `human`, or a player spec the game can seat: any but another program (`cmd:`), which
    /// the game does not host (`tns-bench match` plays one).
    ///
    /// # Errors
    /// The spec's error when it is not `human` and not a player spec, and a refusal of
    /// another program.
    pub fn parse(text: &str) -> anyhow::Result<Controller> {
        if text == "human" {
            return Ok(Controller::Human);
        }
        let spec: PlayerSpec = text.parse()?;
        if matches!(spec.kind, PlayerKind::External(_)) {
            anyhow::bail!(
                "{text}: the game seats people and its own players, not another program; play \
                 one with `tns-bench match --engines {text} medium` (docs/protocol.md)"
            );
        }
        Ok(Controller::Computer(spec))
    }

    /// The search with the hand-written evaluation and its default weights.
    pub fn heuristic() -> Controller {
        Controller::Computer(PlayerSpec::heuristic())
    }

    /// The same player searching with the tablebase's exact values of the movement phase
    /// ([`PlayerSpec::using_table`]); people and the perfect player as they are.
    #[must_use]
    pub fn using_table(self) -> Controller {
        match self {
            Controller::Computer(spec) => Controller::Computer(spec.using_table()),
            human @ Controller::Human => human,
        }
    }

    /// The shipped network: the strongest player without the tablebase, and the default.
    pub fn network() -> Controller {
        // The network is built into the program; were its bytes damaged, the heuristic plays.
        Controller::Computer(PlayerSpec::network().unwrap_or_else(|_| PlayerSpec::heuristic()))
    }

    /// The name shown on screen and written into saved games.
    pub fn name(&self) -> String {
        match self {
            Controller::Human => "human".to_string(),
            Controller::Computer(spec) => spec.to_string(),
        }
    }

    /// Without `table=on` ([`PlayerSpec::without_table`]).
    #[must_use]
    pub fn without_table(self) -> Controller {
        match self {
            Controller::Computer(spec) => Controller::Computer(spec.without_table()),
            human @ Controller::Human => human,
        }
    }

    /// Whether this player needs the tablebase: the perfect player, and `table=on`.
    pub fn needs_tablebase(&self) -> bool {
        matches!(self, Controller::Computer(spec) if spec.needs_tablebase())
    }
}

/// What the last computer turn found, for the "last turn" panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnInfo {
    /// The move played.
    pub mv: Move,
    /// Depth reached.
    pub depth: u32,
    /// The score, described for people (see [`crate::result_text`]).
    pub score: String,
    /// The line the engine expected, from its move on.
    pub pv: Vec<Move>,
}

/// One player slot: its kind and, for a computer, its limits and its engine while it is not
/// searching (or its random moves, for `random`).
#[derive(Debug)]
pub(crate) struct Seat {
    pub(crate) kind: Controller,
    pub(crate) engine: Option<Box<Engine>>,
    pub(crate) limits: Limits,
    pub(crate) random: Option<RandomPlayer>,
}

pub(crate) const fn seat_index(side: Side) -> usize {
    match side {
        Side::Sheep => 0,
        Side::Tiger => 1,
    }
}

/// The default thinking time.
pub const DEFAULT_TIME: Duration = Duration::from_secs(2);

/// A seed for a random player, from the clock: a new game each time.
pub(crate) fn seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| {
        #[expect(clippy::cast_possible_truncation, reason = "the low bits of the nanoseconds")]
        let low = d.as_nanos() as u64;
        low
    })
}
