//! The fixed positions the search benchmarks use, one for each stage of a game. All but the
//! start were taken from games the engine played against itself.

use tns_board::Board;

/// A named benchmark position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchPosition {
    /// A short name for reports.
    pub name: &'static str,
    /// The position, in position notation.
    pub position: &'static str,
}

impl BenchPosition {
    /// The position as a board.
    ///
    /// # Panics
    /// Never for the positions in [`BENCH_POSITIONS`], which a test parses.
    pub fn board(&self) -> Board {
        self.position.parse().expect("bench positions are valid")
    }
}

/// The six positions `tns-bench search` and the criterion search suite use.
pub const BENCH_POSITIONS: [BenchPosition; 6] = [
    BenchPosition { name: "start", position: "T3T/5/5/5/T3T s 20" },
    BenchPosition { name: "mid-placement", position: "SS3/S2T1/1T2S/ST1TS/S2SS s 10" },
    BenchPosition { name: "last-placement", position: "SSSSS/SSSTS/S1TSS/S1T1S/SSTSS s 1" },
    BenchPosition { name: "kill-available", position: "SSSSS/SSTSS/SS1TS/STS1T/SS1SS t 0" },
    BenchPosition { name: "near-trap", position: "SSS1S/STSSS/STSSS/1SSST/SST1S s 0" },
    BenchPosition { name: "endgame-4-dead", position: "SSSSS/S1TTS/STS2/S1S1S/TSSSS s 0" },
];

#[cfg(test)]
mod tests {
    use tns_board::Side;

    use super::*;

    #[test]
    fn each_position_is_what_its_name_says() {
        let [start, mid, last, kill, trap, endgame] = BENCH_POSITIONS.map(|p| p.board());
        assert_eq!(start, Board::START);
        assert!(mid.in_hand() > 5 && mid.in_hand() < 15);
        assert_eq!((last.in_hand(), last.side_to_move()), (1, Side::Sheep));
        assert_eq!((kill.in_hand(), kill.side_to_move()), (0, Side::Tiger));
        assert!(kill.legal_moves().iter().any(|m| m.is_jump()));
        assert_eq!((trap.in_hand(), trap.mobile_tigers().len()), (0, 1));
        assert_eq!((endgame.in_hand(), endgame.dead()), (0, 4));
        for p in BENCH_POSITIONS {
            assert!(p.board().has_moves(), "{}", p.name);
        }
    }
}
