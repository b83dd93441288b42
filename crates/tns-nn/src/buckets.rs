//! Which of a network's sets of later layers judges a position: its *buckets*.
//!
//! A network's first layer is shared by every position; the layers after it may come in
//! several copies, one a bucket, and a position is judged by its bucket's copy. So the network
//! holds more than one way of weighing what its first layer sees (the placement is not the
//! movement phase, the tigers to move are not the sheep) for the price of one: a position's
//! evaluation still runs every layer once. NNUE's output buckets by material are the model.
//!
//! - [`Buckets::One`]: one copy, the network of before buckets (every file of versions 1 and 2).
//! - [`Buckets::Phase`]: 8 copies, by the side to move and the phase: sheep in hand 11 to 20,
//!   1 to 10, none in hand with 0 or 1 dead, none in hand with 2 or more dead.

use std::fmt;

use tns_board::{Board, Side};

use crate::NameError;

/// How a network's layers after the first are chosen for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Buckets {
    /// One set of layers for every position.
    #[default]
    One,
    /// Eight: the side to move, and the sheep in hand (11 to 20, 1 to 10, none) with, once
    /// none are in hand, the dead (0 or 1, 2 or more).
    Phase,
}

impl Buckets {
    /// Every kind of bucket, in the order of their ids.
    pub const ALL: [Buckets; 2] = [Buckets::One, Buckets::Phase];

    /// How many copies of the later layers the network holds.
    pub const fn count(self) -> usize {
        match self {
            Buckets::One => 1,
            Buckets::Phase => 8,
        }
    }

    /// The id stored in a weights file.
    pub const fn id(self) -> u32 {
        match self {
            Buckets::One => 1,
            Buckets::Phase => 2,
        }
    }

    /// The kind with this id, if any.
    pub fn from_id(id: u32) -> Option<Buckets> {
        Buckets::ALL.into_iter().find(|b| b.id() == id)
    }

    /// Its name, as the trainer's `--buckets` takes it.
    pub const fn name(self) -> &'static str {
        match self {
            Buckets::One => "one",
            Buckets::Phase => "phase",
        }
    }

    /// The bucket of `board`, below [`Buckets::count`].
    #[inline]
    pub fn of(self, board: Board) -> usize {
        match self {
            Buckets::One => 0,
            Buckets::Phase => {
                let phase = match board.in_hand() {
                    11.. => 0,
                    1..=10 => 1,
                    0 if board.dead() <= 1 => 2,
                    0 => 3,
                };
                phase * 2 + usize::from(board.side_to_move() == Side::Tiger)
            }
        }
    }
}

impl fmt::Display for Buckets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Buckets {
    type Err = NameError;

    fn from_str(s: &str) -> Result<Buckets, NameError> {
        const NAMES: [&str; 2] = [Buckets::One.name(), Buckets::Phase.name()];
        Buckets::ALL
            .into_iter()
            .find(|b| b.name() == s)
            .ok_or_else(|| NameError::new("buckets", s, &NAMES))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_phase_and_side_has_its_own_bucket() {
        let positions = [
            "T3T/5/5/5/T3T s 20",
            "T3T/5/2S2/5/T3T t 19",
            "T3T/SSSSS/SSSS1/5/T3T s 10",
            "T3T/SSSSS/SSSSS/5/T3T t 10",
            "TSSST/SSSSS/SS1SS/SSSSS/TSSST s 0",
            "TSSST/SSSSS/SS1SS/SSSSS/TSSST t 0",
            "TSSST/SSSSS/SS1SS/SSS2/TSSST s 0",
            "TSSST/SSSSS/SS1SS/SSS2/TSSST t 0",
        ];
        let buckets: Vec<usize> =
            positions.iter().map(|p| Buckets::Phase.of(p.parse().unwrap())).collect();
        assert_eq!(buckets, (0..8).collect::<Vec<_>>());
        assert!(positions.iter().all(|p| Buckets::One.of(p.parse().unwrap()) == 0));
    }

    #[test]
    fn ids_and_names_round_trip() {
        for b in Buckets::ALL {
            assert_eq!(Buckets::from_id(b.id()), Some(b));
            assert_eq!(b.name().parse::<Buckets>(), Ok(b));
        }
        assert_eq!(Buckets::from_id(0), None);
        assert!("many".parse::<Buckets>().is_err());
    }
}
