//! The positions the game reaches from the start, ply by ply, counted by their value.

use std::collections::HashSet;

use tns_board::Board;

use crate::{Tablebase, TablebaseError, Wdl};

/// One ply of a walk from a position: the positions the ply is played from (symmetric ones
/// counted once) by their value for the side to move, and how many of the ply's moves from the
/// drawn ones lose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReachedPly {
    /// The ply, from 1 (the moves from the position the walk starts from): the positions are
    /// those after `ply - 1` plies.
    pub ply: u32,
    /// Distinct positions, one for each set of symmetric ones.
    pub positions: u64,
    /// Of them, won for the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost.
    pub losses: u64,
    /// The legal moves of the drawn positions.
    pub moves_from_draws: u64,
    /// Of those, the moves that lose the draw.
    pub losing_moves_from_draws: u64,
}

impl Tablebase {
    /// Walks the game from `from` breadth first for `plies` plies, handing `each` the counts of
    /// each ply as it is done: the positions it is played from and its moves that lose a draw
    /// (from the start: how far a
    /// game gets before a player can throw a draw away, and how often a move does). The game
    /// ends, as the table's game does, at [`Tablebase::kills`] dead.
    ///
    /// ```no_run
    /// use tns_board::Board;
    /// use tns_tablebase::Tablebase;
    ///
    /// let table = Tablebase::load(5, "tablebase".as_ref())?;
    /// table.reach(Board::START, 4, |p| println!("ply {}: {} positions, {} drawn", p.ply, p.positions, p.draws))?;
    /// # Ok::<(), tns_tablebase::TablebaseError>(())
    /// ```
    ///
    /// # Errors
    /// What [`Tablebase::verdicts`] says of a position it cannot judge (a layer missing, a
    /// damaged block).
    pub fn reach(
        &self,
        from: Board,
        plies: u32,
        mut each: impl FnMut(ReachedPly),
    ) -> Result<(), TablebaseError> {
        let mut layer = HashSet::from([from.canonical().0]);
        for ply in 1..=plies {
            let mut counts =
                ReachedPly { ply, positions: layer.len() as u64, ..ReachedPly::default() };
            let mut next = HashSet::new();
            for &board in &layer {
                let verdicts = self.verdicts(board)?;
                match verdicts.first().map_or(Wdl::Loss, |v| v.1.wdl) {
                    Wdl::Win => counts.wins += 1,
                    Wdl::Draw => {
                        counts.draws += 1;
                        counts.moves_from_draws += verdicts.len() as u64;
                        counts.losing_moves_from_draws +=
                            verdicts.iter().filter(|v| v.1.wdl == Wdl::Loss).count() as u64;
                    }
                    Wdl::Loss => counts.losses += 1,
                }
                // The last ply's positions are counted, not walked on from.
                for (m, _) in verdicts.into_iter().filter(|_| ply < plies) {
                    let child = board.after_unchecked(m);
                    if child.dead() < self.kills() {
                        next.insert(child.canonical().0);
                    }
                }
            }
            each(counts);
            layer = next;
        }
        Ok(())
    }
}
