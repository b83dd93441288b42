//! The hand-written evaluator.

use tns_board::{Bitboard, Board, Side};

use crate::{Eval, Evaluator};

/// Weights of the [`Heuristic`] evaluator's terms, in hundredths of a sheep, from the tigers'
/// point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Each dead sheep.
    pub dead: i32,
    /// Each sheep a tiger could jump now, when the tigers are to move (a kill is at hand).
    pub capturable_tiger_to_move: i32,
    /// Each sheep a tiger could jump now, when the sheep are to move (they may still cover it).
    pub capturable_sheep_to_move: i32,
    /// Each tiger with no move at all.
    pub trapped_tiger: i32,
    /// Each empty point some tiger can step to.
    pub tiger_mobility: i32,
    /// Each sheep still in hand (the sheep's reserve; negative favours the sheep).
    pub in_hand: i32,
    /// Each sheep on the board's edge, where it cannot be jumped along the edge's normal
    /// (negative favours the sheep).
    pub edge_sheep: i32,
}

/// The values of the [`Heuristic`]'s terms in a position, one per weight, in the order of
/// [`Weights::to_array`]: the score is their sum weighted, from the tigers' point of view.
pub type Terms = [i32; 7];

impl Weights {
    /// The weights as an array, in the order of [`Heuristic::terms`].
    pub const fn to_array(self) -> [i32; 7] {
        [
            self.dead,
            self.capturable_tiger_to_move,
            self.capturable_sheep_to_move,
            self.trapped_tiger,
            self.tiger_mobility,
            self.in_hand,
            self.edge_sheep,
        ]
    }

    /// Weights from an array in the order of [`Weights::to_array`].
    pub const fn from_array(w: [i32; 7]) -> Weights {
        Weights {
            dead: w[0],
            capturable_tiger_to_move: w[1],
            capturable_sheep_to_move: w[2],
            trapped_tiger: w[3],
            tiger_mobility: w[4],
            in_hand: w[5],
            edge_sheep: w[6],
        }
    }

    /// The weights the engine plays with.
    pub const DEFAULT: Weights = Weights {
        dead: 400,
        capturable_tiger_to_move: 220,
        capturable_sheep_to_move: 60,
        trapped_tiger: -140,
        tiger_mobility: 12,
        in_hand: 0,
        edge_sheep: 20,
    };
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// The hand-written evaluation, in hundredths of a sheep (its [`Eval`]'s unit): dead sheep,
/// sheep open to a jump, trapped tigers, tiger mobility and sheep on the edge, all counted from
/// bitboard masks (no loop over points).
///
/// ```
/// use tns_board::Board;
/// use tns_search::{Evaluator, Heuristic};
///
/// let h = Heuristic::default();
/// // A sheep open to a jump with the tigers to move is good for the tigers...
/// let open: Board = "TS2T/5/5/5/T3T t 19".parse()?;
/// assert!(h.evaluate(open).get() > 0);
/// // ...and the same position is bad for the sheep when the tigers are to move.
/// let safe: Board = "TSS1T/5/5/5/T3T t 18".parse()?;
/// assert!(h.evaluate(open) > h.evaluate(safe));
/// # Ok::<(), tns_board::ParsePositionError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Heuristic {
    /// The weights used.
    pub weights: Weights,
}

impl Heuristic {
    /// A heuristic with the given weights.
    pub const fn new(weights: Weights) -> Heuristic {
        Heuristic { weights }
    }

    /// The evaluation from the tigers' point of view.
    #[inline]
    pub fn tiger_score(&self, board: Board) -> i32 {
        let w = &self.weights;
        let capturable = count(board.capturable_sheep().len());
        let capture_weight = match board.side_to_move() {
            Side::Tiger => w.capturable_tiger_to_move,
            Side::Sheep => w.capturable_sheep_to_move,
        };
        let trapped = 4 - count(board.mobile_tigers().len());
        w.dead * i32::from(board.dead())
            + capture_weight * capturable
            + w.trapped_tiger * trapped
            + w.tiger_mobility * count(board.tiger_step_targets().len())
            + w.in_hand * i32::from(board.in_hand())
            + w.edge_sheep * count((board.sheep().bits() & Bitboard::EDGE.bits()).count_ones())
    }
}

/// A number of points, as a term of the evaluation.
#[inline]
#[expect(clippy::cast_possible_wrap, reason = "a number of points, at most 25")]
const fn count(points: u32) -> i32 {
    points as i32
}

impl Heuristic {
    /// The terms of `board`'s evaluation, each counted once (the capturable sheep go to the
    /// term of the side to move, the other is 0): [`Heuristic::tiger_score`] is their sum
    /// weighted by [`Weights::to_array`]. What a tuner fits the weights on.
    pub fn terms(board: Board) -> Terms {
        let capturable = count(board.capturable_sheep().len());
        let (tiger_to_move, sheep_to_move) = match board.side_to_move() {
            Side::Tiger => (capturable, 0),
            Side::Sheep => (0, capturable),
        };
        [
            i32::from(board.dead()),
            tiger_to_move,
            sheep_to_move,
            4 - count(board.mobile_tigers().len()),
            count(board.tiger_step_targets().len()),
            i32::from(board.in_hand()),
            count((board.sheep().bits() & Bitboard::EDGE.bits()).count_ones()),
        ]
    }
}

impl Evaluator for Heuristic {
    #[inline]
    fn evaluate(&self, board: Board) -> Eval {
        Eval::new(self.tiger_score(board) * board.side_to_move().sign())
    }
}
