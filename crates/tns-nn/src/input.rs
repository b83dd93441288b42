//! What the network sees of a position: one of two input sets, named in the weights file.
//!
//! - [`Inputs::Pieces`], 52 inputs: one for each point a tiger stands on (25), one for each
//!   point a sheep stands on (25), the sheep still in hand divided by 20, and 1 when the tigers
//!   are to move. Everything else the network has to learn.
//! - [`Inputs::Threats`], 87 inputs: the 52, then the dead sheep (one of 5 inputs, 0 to 4 dead),
//!   the sheep a tiger could jump right now whoever is to move (one input per point, 25), and
//!   the tigers with no step or jump (one of 5 inputs, 0 to 4 trapped). Those are what decide
//!   most games, and a small network finds them hard to add up from the pieces alone.
//! - [`Inputs::Mobility`], 103 inputs: the 87, then how many steps and jumps the tigers have
//!   whoever is to move (one of 16 inputs, 0 to 14 and 15 or more). The sheep win only by
//!   leaving the tigers no move, and a network sees how near that is far better counted for it.

use std::fmt;

use tns_board::{Board, Side, TOTAL_SHEEP};

use crate::NameError;

/// The number of inputs of [`Inputs::Pieces`].
pub const INPUTS: usize = 52;
/// The input holding the sheep in hand (divided by 20).
pub(crate) const IN_HAND: usize = 50;
/// The input that is 1 when the tigers are to move.
pub(crate) const TIGER_TO_MOVE: usize = 51;
/// The inputs of [`Inputs::Threats`].
const THREATS: usize = 87;
/// The most inputs any set has.
pub(crate) const MAX_INPUTS: usize = 103;
/// The most inputs that can be on at once: 25 points hold a piece, and 1 each for the side, the
/// dead count, the trapped count and the tigers' moves, and at most 20 capturable sheep.
const MAX_ONES: usize = 49;

/// The input sets a network can be built on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Inputs {
    /// The pieces, the sheep in hand and the side to move: 52 inputs.
    Pieces,
    /// The pieces and the rest of [`Inputs::Pieces`], with the dead, the sheep open to a jump
    /// and the trapped tigers: 87 inputs.
    Threats,
    /// [`Inputs::Threats`] and the number of moves the tigers have: 103 inputs.
    Mobility,
}

impl Inputs {
    /// Every input set, in the order of their ids.
    pub const ALL: [Inputs; 3] = [Inputs::Pieces, Inputs::Threats, Inputs::Mobility];

    /// How many inputs the set has.
    pub const fn count(self) -> usize {
        match self {
            Inputs::Pieces => INPUTS,
            Inputs::Threats => THREATS,
            Inputs::Mobility => MAX_INPUTS,
        }
    }

    /// The id stored in a weights file.
    pub const fn id(self) -> u32 {
        match self {
            Inputs::Pieces => 1,
            Inputs::Threats => 2,
            Inputs::Mobility => 3,
        }
    }

    /// The set with this id, if any.
    pub fn from_id(id: u32) -> Option<Inputs> {
        Inputs::ALL.into_iter().find(|i| i.id() == id)
    }

    /// The set with this many inputs, if any.
    pub fn from_count(count: usize) -> Option<Inputs> {
        Inputs::ALL.into_iter().find(|i| i.count() == count)
    }

    /// Its name, as the trainer's `--inputs` takes it.
    pub const fn name(self) -> &'static str {
        match self {
            Inputs::Pieces => "pieces",
            Inputs::Threats => "threats",
            Inputs::Mobility => "mobility",
        }
    }
}

impl fmt::Display for Inputs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Inputs {
    type Err = NameError;

    fn from_str(s: &str) -> Result<Inputs, NameError> {
        const NAMES: [&str; 3] =
            [Inputs::Pieces.name(), Inputs::Threats.name(), Inputs::Mobility.name()];
        Inputs::ALL
            .into_iter()
            .find(|i| i.name() == s)
            .ok_or_else(|| NameError::new("input set", s, &NAMES))
    }
}

/// The inputs of a position as a sparse list: the indices that are 1, and the one input with
/// another value (sheep in hand).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Features {
    pub(crate) ones: [u8; MAX_ONES],
    pub(crate) len: usize,
    pub(crate) in_hand: f32,
}

impl Features {
    #[inline]
    fn push(&mut self, i: usize) {
        if self.len < self.ones.len() {
            #[expect(clippy::cast_possible_truncation, reason = "an input's index, under 103")]
            let i = i as u8;
            self.ones[self.len] = i;
            self.len += 1;
        }
    }

    #[inline]
    pub(crate) fn of(board: Board, inputs: Inputs) -> Features {
        let in_hand = f32::from(board.in_hand()) / f32::from(TOTAL_SHEEP);
        let mut f = Features { ones: [0; MAX_ONES], len: 0, in_hand };
        for p in board.tigers() {
            f.push(p.index());
        }
        for p in board.sheep() {
            f.push(25 + p.index());
        }
        if board.side_to_move() == Side::Tiger {
            f.push(TIGER_TO_MOVE);
        }
        if inputs != Inputs::Pieces {
            f.push(52 + usize::from(board.dead().min(4)));
            for p in board.capturable_sheep() {
                f.push(57 + p.index());
            }
            let trapped = 4 - board.mobile_tigers().len().min(4);
            f.push(82 + trapped as usize);
        }
        if inputs == Inputs::Mobility {
            f.push(THREATS + board.tiger_moves().min(15) as usize);
        }
        f
    }

    /// The features as a dense vector (the first `inputs.count()` entries are the set's).
    pub(crate) fn dense(&self) -> [f32; MAX_INPUTS] {
        let mut x = [0.0; MAX_INPUTS];
        for &i in &self.ones[..self.len] {
            x[usize::from(i)] = 1.0;
        }
        x[IN_HAND] = self.in_hand;
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let f = Features::of(Board::START, Inputs::Pieces);
        assert_eq!(f.len, 4);
        assert!((f.in_hand - 1.0).abs() < f32::EPSILON);
        let x = f.dense();
        assert_eq!(x.iter().filter(|&&v| v > 0.5).count(), 5);
        assert!(x[TIGER_TO_MOVE].abs() < f32::EPSILON);
        // With threats: no dead (input 52), nothing to jump, no tiger trapped (input 82).
        let t = Features::of(Board::START, Inputs::Threats);
        assert_eq!(&t.ones[..t.len], &[0, 4, 20, 24, 52, 82]);
    }

    #[test]
    fn at_most_twenty_five_ones() {
        // 4 tigers and 20 sheep, tigers to move: 25 ones.
        let b: Board = "TSSST/SSSSS/SS1SS/SSSSS/TSSST t 0".parse().unwrap();
        let f = Features::of(b, Inputs::Pieces);
        assert_eq!(f.len, 25);
        assert!(f.dense()[TIGER_TO_MOVE] > 0.5);
    }

    #[test]
    fn threats_mark_the_dead_the_open_sheep_and_the_trapped_tigers() {
        // Two dead; the tiger on a5 can jump b5 to c5; the tiger on e1 is walled in.
        let b: Board = "TS1ST/SSSS1/SSSSS/T1SSS/SSSST s 0".parse().unwrap();
        assert_eq!(b.dead(), 2);
        let f = Features::of(b, Inputs::Threats);
        let on = &f.ones[..f.len];
        assert!(on.contains(&(52 + 2)), "{on:?}");
        let b5 = "b5".parse::<tns_board::Point>().unwrap().index();
        let open = u8::try_from(57 + b5).unwrap();
        assert!(on.contains(&open), "{on:?}");
        assert_eq!(b.mobile_tigers().len(), 3);
        assert!(on.contains(&(82 + 1)), "{on:?}");
        assert_eq!(on.iter().filter(|&&i| (52..57).contains(&i)).count(), 1);
        assert_eq!(on.iter().filter(|&&i| i >= 82).count(), 1);
        assert!(on.iter().all(|&i| usize::from(i) < Inputs::Threats.count()));
    }

    #[test]
    fn mobility_counts_the_tigers_moves() {
        // The start: the threats' inputs, then 12 tiger moves.
        let f = Features::of(Board::START, Inputs::Mobility);
        assert_eq!(&f.ones[..f.len], &[0, 4, 20, 24, 52, 82, 87 + 12]);
        // Walled in but for one step: one move, whoever is to move.
        let b: Board = "TSSST/SSSSS/SS1SS/SSSSS/TSSST s 0".parse().unwrap();
        for board in [b, b.with_side_flipped()] {
            let f = Features::of(board, Inputs::Mobility);
            let last = f.ones[f.len - 1];
            assert_eq!(usize::from(last), 87 + board.tiger_moves() as usize);
            assert!(usize::from(last) < Inputs::Mobility.count());
        }
    }

    #[test]
    fn ids_names_and_counts_round_trip() {
        for i in Inputs::ALL {
            assert_eq!(Inputs::from_id(i.id()), Some(i));
            assert_eq!(Inputs::from_count(i.count()), Some(i));
            assert_eq!(i.name().parse::<Inputs>(), Ok(i));
        }
        assert_eq!(Inputs::from_id(0), None);
        assert!("raw".parse::<Inputs>().is_err());
    }
}
