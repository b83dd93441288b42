//! The strongest player for a position: the policy every program's default player follows.

use std::sync::Arc;

use tns_board::{Board, KILLS_TO_WIN};
use tns_tablebase::{Tablebase, TablebaseError};

use crate::spec::PlayerSpec;

impl PlayerSpec {
    /// The strongest player without a table: the shipped network (the heuristic only if the
    /// network built in will not load).
    ///
    /// ```
    /// use tns_match::{Level, PlayerKind, PlayerSpec};
    ///
    /// let best = PlayerSpec::strongest();
    /// assert_eq!(best.level(), Some(Level::Strongest));
    /// assert_eq!(best.to_string(), "strongest");
    /// assert!(matches!(best.kind, PlayerKind::Network(_)));
    /// ```
    pub fn strongest() -> PlayerSpec {
        PlayerSpec::network().unwrap_or_else(|_| PlayerSpec::heuristic())
    }

    /// The strongest player there is for `board`: `perfect` where a table of the real game
    /// holds the position, else [`PlayerSpec::strongest`], with `table=on` when there is a
    /// table (its movement phase is always there: the network sees exactly how the movement
    /// phase ends wherever its search reaches it). A table built only from the last placement
    /// layers (`build --from-placed 18`) does not hold the early placement, where the perfect
    /// player would search with the heuristic behind it, weaker than the network.
    ///
    /// # Errors
    /// The table's error when it cannot answer for `board` for any reason but that it does
    /// not hold it (a damaged block, an unreadable file): a damaged table is never quietly
    /// taken for a missing one.
    pub fn strongest_at(
        board: Board,
        tablebase: Option<&Arc<Tablebase>>,
    ) -> Result<PlayerSpec, TablebaseError> {
        let Some(table) = tablebase.filter(|t| t.kills() == KILLS_TO_WIN) else {
            return Ok(PlayerSpec::strongest());
        };
        match table.wdl(board) {
            Ok(_) => Ok(PlayerSpec::perfect()),
            Err(TablebaseError::NoLayer(_) | TablebaseError::GameOver(_)) => {
                Ok(PlayerSpec::strongest().using_table())
            }
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strongest_without_the_real_games_table_is_the_network() {
        let strongest = Some(crate::Level::Strongest);
        assert_eq!(PlayerSpec::strongest_at(Board::START, None).unwrap().level(), strongest);
        // A variant's table (one kill wins) holds the start, but not for the real game.
        let variant = Arc::new(Tablebase::build(1, None, |_| {}).unwrap());
        let spec = PlayerSpec::strongest_at(Board::START, Some(&variant)).unwrap();
        assert_eq!(spec.level(), strongest);
    }
}
