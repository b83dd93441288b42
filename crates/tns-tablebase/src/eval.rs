//! The tablebase as the search's exact evaluator.

use std::sync::Arc;

use tns_board::{Board, KILLS_TO_WIN, MoveList};
use tns_search::{Chances, Eval, EvalError, Evaluator, Score};

use crate::{Tablebase, TablebaseError, Value, Wdl};

/// An evaluator that answers exactly wherever the table holds the position (no sheep in hand)
/// and leaves every other position to `inner`. Plugged into `tns_search::Search`, it makes the
/// search convert won positions by the shortest path and defend lost ones the longest. Where
/// the placement layers are built, it also narrows the search's root to the moves that keep the
/// value ([`Evaluator::root_moves`]): the perfect player from the first move.
///
/// ```
/// use std::sync::Arc;
/// use tns_search::{Evaluator, Heuristic};
/// use tns_tablebase::{Tablebase, WithTablebase};
///
/// // Only a table for the real game (5 kills) can steer the real game's search.
/// let small = Arc::new(Tablebase::build(1, None, |_| {})?);
/// assert!(WithTablebase::new(Heuristic::default(), small).is_err());
/// # Ok::<(), tns_tablebase::TablebaseError>(())
/// ```
#[derive(Clone, Debug)]
pub struct WithTablebase<E> {
    inner: E,
    table: Arc<Tablebase>,
    traps: bool,
    /// Whether the root keeps only the moves that keep the value (the perfect player); off,
    /// the table only gives the search its exact values ([`WithTablebase::table_on`]).
    narrow_root: bool,
    /// Whether the table's draws are exact scores (0) too; off, the search takes only its wins
    /// and losses and searches on below a drawn position ([`WithTablebase::endgame_on`]).
    exact_draws: bool,
}

impl<E> WithTablebase<E> {
    /// `inner` with `table` in front of it.
    ///
    /// # Errors
    /// [`TablebaseError::Variant`] when the table is for a variant, not the real game.
    pub fn new(inner: E, table: Arc<Tablebase>) -> Result<WithTablebase<E>, TablebaseError> {
        if table.kills() == KILLS_TO_WIN {
            Ok(WithTablebase { inner, table, traps: false, narrow_root: true, exact_draws: true })
        } else {
            Err(TablebaseError::Variant(table.kills()))
        }
    }

    /// The same evaluator setting traps: where the position is drawn, the root keeps only the
    /// drawing moves that leave the opponent the smallest share of replies that hold the draw,
    /// in the placement and the movement alike. Perfect play that still never lets a draw or a
    /// win slip, but plays for the opponent's mistakes as a strong player does; the plain one
    /// treats every drawing move alike.
    #[must_use]
    pub fn setting_traps(mut self) -> WithTablebase<E> {
        self.traps = true;
        self
    }

    /// The evaluator of a player with `table=on`: it uses only the table's movement phase. The
    /// search takes the exact value of every position it reaches with no sheep in hand, and
    /// `inner`'s everywhere else, and the root keeps every legal move (the placement layers, if
    /// any, are not read, and no trap is set). Not perfect play, but a player that sees exactly
    /// how the movement phase ends wherever its search reaches it (docs/results.md measures
    /// what that is worth). The movement phase alone builds in about a minute
    /// (`tns-tablebase build`).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tns_board::Board;
    /// use tns_search::{Evaluator, Heuristic};
    /// use tns_tablebase::{Tablebase, WithTablebase};
    ///
    /// # let Some(dir) = std::env::var_os("TNS_TABLEBASE_DIR") else { return Ok(()) };
    /// let table = Arc::new(Tablebase::load(5, std::path::Path::new(&dir))?);
    /// let evaluator = WithTablebase::new(Heuristic::default(), table)?.table_on();
    /// // Every move stays open at the root, even where a placement layer is built.
    /// assert!(evaluator.root_moves(Board::START)?.is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn table_on(mut self) -> WithTablebase<E> {
        self.narrow_root = false;
        self.traps = false;
        self
    }

    /// The evaluator of a player with `endgame=on`: as [`table_on`](WithTablebase::table_on),
    /// but taking only the table's wins and losses as exact scores: below a position the table
    /// holds as drawn, the search goes on with `inner` as if the table were not there. For a
    /// table of the movement's first slices only (the endgame built into the programs): a draw
    /// scored 0 makes every drawing move alike, so a tiger there no
    /// longer plays for a kill and a sheep no longer minds giving one up, into a slice the
    /// table does not hold, where `inner` must hold the draw alone. Searched on, the drawn
    /// positions are ranked by `inner` as they would be without the table, and a move into a
    /// lost position is still seen exactly (docs/solution.md measures both).
    #[must_use]
    pub fn endgame_on(self) -> WithTablebase<E> {
        WithTablebase { exact_draws: false, ..self.table_on() }
    }

    /// The table.
    pub fn table(&self) -> &Tablebase {
        &self.table
    }

    /// The evaluator for positions the table does not hold.
    pub fn inner(&self) -> &E {
        &self.inner
    }
}

/// A table value as a search score from the side to move's view, counted from the position.
pub fn score_of(value: Value) -> Score {
    match value {
        Value::Win(n) => Score::win_in(usize::from(n)),
        Value::Loss(n) => Score::loss_in(usize::from(n)),
        Value::Draw => Score::DRAW,
    }
}

impl<E: Evaluator> Evaluator for WithTablebase<E> {
    #[inline]
    fn evaluate(&self, board: Board) -> Eval {
        self.inner.evaluate(board)
    }

    #[inline]
    fn worth_caching(&self) -> bool {
        self.inner.worth_caching()
    }

    #[inline]
    fn exact(&self, board: Board) -> Option<Score> {
        match self.table.value(board)? {
            Value::Draw if !self.exact_draws => None,
            value => Some(score_of(value)),
        }
    }

    /// The table's result where it holds `board`, certain: every position of the movement
    /// phase it has, and, for the perfect player (whose root the placement layers narrow), every
    /// position of a placement layer that is built. Elsewhere `inner`'s chances.
    fn chances(&self, score: Score, board: Board) -> Chances {
        if let Some(value) = self.table.value(board) {
            return Chances::certain(value.wdl());
        }
        if self.narrow_root
            && board.in_hand() > 0
            && let Ok(wdl) = self.table.wdl(board)
        {
            return Chances::certain(wdl);
        }
        self.inner.chances(score, board)
    }

    /// In the placement phase, where the layers are built, the moves that keep the position's
    /// value: the search picks among them by its own evaluation, so a drawn or won game never
    /// slips and a weaker opponent still meets moves that test it. (With no sheep in hand the
    /// exact scores already steer the search.) Setting traps, a drawn position's moves are
    /// narrowed further, in both phases, to those that leave the fewest safe replies.
    ///
    /// [`WithTablebase::table_on`] leaves the root whole. A layer that is not built leaves
    /// the search all the moves; a layer that cannot be read (damaged, unreadable) is an
    /// error, so the player never plays on imperfectly unawares.
    fn root_moves(&self, board: Board) -> Result<Option<MoveList>, EvalError> {
        if !self.narrow_root {
            return Ok(None);
        }
        if board.dead() >= self.table.kills() || (board.in_hand() == 0 && !self.traps) {
            return Ok(None);
        }
        let verdicts = match self.table.verdicts(board) {
            Ok(v) => v,
            Err(TablebaseError::NoLayer(_)) => return Ok(None),
            Err(e) => return Err(EvalError::new(e)),
        };
        let Some(best) = verdicts.first().map(|v| v.1.wdl) else { return Ok(None) };
        if best != Wdl::Draw && board.in_hand() == 0 {
            return Ok(None);
        }
        let mut list: MoveList =
            verdicts.into_iter().filter(|(_, v)| v.wdl == best).map(|(m, _)| m).collect();
        if self.traps && best == Wdl::Draw {
            match self.table.keep_traps(board, &mut list) {
                // A child in a layer not built: the drawing moves, unnarrowed.
                Ok(()) | Err(TablebaseError::NoLayer(_)) => {}
                Err(e) => return Err(EvalError::new(e)),
            }
        }
        Ok(Some(list))
    }
}
