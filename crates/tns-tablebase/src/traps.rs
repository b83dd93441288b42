//! Traps: of the moves that keep a draw, those that leave the opponent the fewest safe replies.

use tns_board::{Board, MoveList};

use crate::{Tablebase, TablebaseError, Wdl};

impl Tablebase {
    /// Of a drawn `board`'s drawing moves `moves`, keeps those after which the opponent has the
    /// smallest share of replies that hold the draw, in order: the moves a perfect player who
    /// plays to win chooses among, where a plain one treats every drawing move alike. The
    /// share is the safe replies over all replies, compared as whole numbers.
    ///
    /// ```
    /// use tns_board::{Board, MoveList};
    /// use tns_tablebase::Tablebase;
    ///
    /// // The 1-kill variant's movement: a position and all its moves, whatever their values.
    /// let table = Tablebase::build(1, None, |_| {})?;
    /// let board: Board = "SSS1T/SSSST/STSSS/SSSSS/TSSSS s 0".parse().unwrap();
    /// let mut moves: MoveList = board.legal_moves().iter().copied().collect();
    /// let all = moves.len();
    /// table.keep_traps(board, &mut moves)?;
    /// assert!(!moves.is_empty() && moves.len() <= all);
    /// # Ok::<(), tns_tablebase::TablebaseError>(())
    /// ```
    ///
    /// # Errors
    /// As [`verdicts`](Tablebase::verdicts), for any position one move on; `moves` is then
    /// left as it was.
    pub fn keep_traps(&self, board: Board, moves: &mut MoveList) -> Result<(), TablebaseError> {
        let mut shares = [(0, 1); tns_board::MAX_MOVES];
        for (share, &m) in shares.iter_mut().zip(moves.iter()) {
            let replies = self.verdicts(board.after_unchecked(m))?;
            let safe = replies.iter().filter(|(_, v)| v.wdl == Wdl::Draw).count();
            *share = (safe, replies.len().max(1));
        }
        // k1 / n1 below k2 / n2, in whole numbers.
        let below = |a: (usize, usize), b: (usize, usize)| a.0 * b.1 < b.0 * a.1;
        let shares = &shares[..moves.len()];
        let Some(&fewest) = shares.iter().reduce(|f, s| if below(*s, *f) { s } else { f }) else {
            return Ok(());
        };
        let mut i = 0;
        moves.retain(|_| {
            let keep = !below(fewest, shares[i]);
            i += 1;
            keep
        });
        Ok(())
    }
}
