//! Who plays each side: a person or a computer player's spec, and each side's seat with its
//! limits and, for a computer, its player.

use std::time::Duration;

use std::sync::Arc;

use tns_board::{Move, Side};
use tns_match::{Budget, Player, PlayerKind, PlayerSpec};
use tns_search::Limits;
use tns_tablebase::Tablebase;

use crate::thinking::{SEARCH_TT_MB, strongest};

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
    /// The line the search expected, from its move on.
    pub pv: Vec<Move>,
}

/// One side's seat: who plays there, how long a computer there may think, and a computer's
/// player (`tns-match`'s, as in every other front end) while it is not choosing a move on its
/// thread. Made only by [`Seat::new`], so a person's seat never holds a player.
pub(crate) struct Seat {
    kind: Controller,
    limits: Limits,
    player: Option<Box<dyn Player>>,
}

impl std::fmt::Debug for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seat")
            .field("kind", &self.kind)
            .field("limits", &self.limits)
            .field("player", &self.player.as_ref().map(|_| "waiting"))
            .finish()
    }
}

impl Seat {
    /// A seat for `kind`, thinking within `limits` unless its spec sets its own. A perfect
    /// player, or one with `table=on`, without `tablebase` plays as the strongest player
    /// without one (the game has said so).
    pub(crate) fn new(
        kind: Controller,
        limits: &Limits,
        tablebase: Option<&Arc<Tablebase>>,
    ) -> Seat {
        let Controller::Computer(spec) = &kind else {
            return Seat { kind, limits: limits.clone(), player: None };
        };
        let budget = budget(spec, limits);
        let mut player = spec.build(budget, tablebase).unwrap_or_else(|_| strongest(budget));
        player.new_game(seed());
        Seat { limits: budget.limits(), player: Some(player), kind }
    }

    /// Who plays here.
    pub(crate) fn kind(&self) -> &Controller {
        &self.kind
    }

    /// How long a computer here may think, unless the clocks say otherwise.
    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The computer's player, to choose a move on its thread; `None` for a person, or while it
    /// is choosing.
    pub(crate) fn take_player(&mut self) -> Option<Box<dyn Player>> {
        self.player.take()
    }

    /// The computer's player back from its thread.
    pub(crate) fn give_back(&mut self, player: Box<dyn Player>) {
        if matches!(self.kind, Controller::Computer(_)) {
            self.player = Some(player);
        }
    }
}

/// A computer player's budget: its spec's own limits, threads and transposition table, and
/// the game's `limits`, one thread and [`SEARCH_TT_MB`] for the rest.
pub(crate) fn budget(spec: &PlayerSpec, limits: &Limits) -> Budget {
    let defaults = Budget {
        time: limits.time.map(|t| t.as_secs_f64()),
        depth: limits.depth,
        threads: 1,
        tt_mb: SEARCH_TT_MB,
    };
    spec.budget(defaults)
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
