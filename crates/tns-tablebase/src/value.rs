//! The value of a position, and how it is packed into 16 bits.

use std::fmt;

use tns_board::Side;

/// The value of a position with best play, from the side to move's view. Distances count plies:
/// a side to move with no legal move has lost in 0, and a move that ends the game wins in 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies, however the other side defends.
    Win(u16),
    /// The side to move loses in this many plies, however it defends.
    Loss(u16),
    /// Neither side can force a win.
    Draw,
}

impl Value {
    /// The value one ply earlier, for the side that moved into this position.
    #[must_use]
    pub fn before(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// The side to move's preference as one number: any win above a draw above any loss, a
    /// faster win above a slower one, a slower loss above a faster one.
    fn rank(self) -> i32 {
        match self {
            Value::Win(n) => i32::from(u16::MAX) - i32::from(n),
            Value::Draw => 0,
            Value::Loss(n) => -i32::from(u16::MAX) + i32::from(n),
        }
    }
}

/// Values are ordered by the side to move's preference: the greatest is the best to have, so
/// `max` picks the best move's value and sorting in reverse puts the best first.
impl Ord for Value {
    fn cmp(&self, other: &Value) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Loss(n) => write!(f, "loss in {n}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

pub use tns_search::Wdl;

/// A value class from its 2-bit code (0, 1, 2); 3 is never stored and reads as a draw.
#[inline]
pub(crate) const fn wdl_from_code(code: u8) -> Wdl {
    match code {
        0 => Wdl::Loss,
        2 => Wdl::Win,
        _ => Wdl::Draw,
    }
}

impl Value {
    /// Win, draw or loss, without the distance.
    pub const fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }
}

/// What the table knows of a position for its side to move: always win, draw or loss, and the
/// distance as well where the movement table holds the position (no sheep in hand).
///
/// Verdicts are ordered from the side to move's view: any win above any draw above any loss,
/// and within a result known to the ply, the faster win and the slower loss above.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Verdict {
    /// Win, draw or loss.
    pub wdl: Wdl,
    /// The exact value with its distance, where known.
    pub value: Option<Value>,
}

impl Verdict {
    /// The verdict one ply earlier, for the side that moved into this position.
    #[must_use]
    pub fn before(self) -> Verdict {
        Verdict { wdl: self.wdl.before(), value: self.value.map(Value::before) }
    }

    /// The verdict in words, given the side it is for: "Tigers win in 20", "Sheep win" (no
    /// distance known) or "Draw".
    ///
    /// ```
    /// use tns_board::Side;
    /// use tns_tablebase::{Value, Verdict, Wdl};
    ///
    /// assert_eq!(Verdict::from(Value::Loss(20)).describe(Side::Sheep), "Tigers win in 20");
    /// assert_eq!(Verdict::from(Wdl::Win).describe(Side::Sheep), "Sheep win");
    /// assert_eq!(Verdict::from(Wdl::Draw).describe(Side::Tiger), "Draw");
    /// ```
    pub fn describe(self, side: Side) -> String {
        let (winner, loser) = match side {
            Side::Sheep => ("Sheep", "Tigers"),
            Side::Tiger => ("Tigers", "Sheep"),
        };
        match (self.wdl, self.value) {
            (Wdl::Draw, _) => "Draw".into(),
            (Wdl::Win, Some(Value::Win(n))) => format!("{winner} win in {n}"),
            (Wdl::Loss, Some(Value::Loss(n))) => format!("{loser} win in {n}"),
            (Wdl::Win, _) => format!("{winner} win"),
            (Wdl::Loss, _) => format!("{loser} win"),
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            Some(value) => value.fmt(f),
            None => self.wdl.fmt(f),
        }
    }
}

impl From<Value> for Verdict {
    fn from(value: Value) -> Verdict {
        Verdict { wdl: value.wdl(), value: Some(value) }
    }
}

impl From<Wdl> for Verdict {
    fn from(wdl: Wdl) -> Verdict {
        Verdict { wdl, value: None }
    }
}

impl PartialOrd for Verdict {
    fn partial_cmp(&self, other: &Verdict) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Verdict {
    fn cmp(&self, other: &Verdict) -> std::cmp::Ordering {
        self.wdl.cmp(&other.wdl).then_with(|| match (self.value, other.value) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => std::cmp::Ordering::Equal,
        })
    }
}

/// A slot's packed value: 0 undecided (a draw once the build is done), [`UNUSED`] for a slot no
/// position uses, otherwise `2 + 2 * distance + win`.
pub(crate) type Packed = u16;

/// Not yet decided; a draw in a finished table.
pub(crate) const UNDECIDED: Packed = 0;
/// A slot whose position is stored at another index.
pub(crate) const UNUSED: Packed = u16::MAX;
/// The longest distance the packing holds.
pub(crate) const MAX_DISTANCE: u16 = (u16::MAX - 5) / 2;

#[inline]
pub(crate) const fn pack_win(n: u16) -> Packed {
    3 + 2 * n
}

#[inline]
pub(crate) const fn pack_loss(n: u16) -> Packed {
    2 + 2 * n
}

/// The value in a packed slot; `None` for an unused slot.
#[inline]
pub(crate) const fn unpack(p: Packed) -> Option<Value> {
    match p {
        UNDECIDED => Some(Value::Draw),
        UNUSED | 1 => None,
        _ if p % 2 == 1 => Some(Value::Win((p - 3) / 2)),
        _ => Some(Value::Loss((p - 2) / 2)),
    }
}

/// The distance of a decided packed value.
#[inline]
pub(crate) const fn distance(p: Packed) -> u16 {
    (p - 2) / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        for n in [0, 1, 2, 77, MAX_DISTANCE] {
            assert_eq!(unpack(pack_loss(n)), Some(Value::Loss(n)));
            assert_eq!(distance(pack_loss(n)), n);
            if n > 0 {
                assert_eq!(unpack(pack_win(n)), Some(Value::Win(n)));
                assert_eq!(distance(pack_win(n)), n);
            }
        }
        assert_eq!(unpack(UNDECIDED), Some(Value::Draw));
        assert_eq!(unpack(UNUSED), None);
    }

    #[test]
    fn preferences() {
        assert!(Value::Win(9) > Value::Draw);
        assert!(Value::Win(3) > Value::Win(5));
        assert!(Value::Loss(8) > Value::Loss(2));
        assert!(Value::Draw > Value::Loss(100));
        let mut values =
            [Value::Loss(2), Value::Win(5), Value::Draw, Value::Win(3), Value::Loss(8)];
        values.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(
            values,
            [Value::Win(3), Value::Win(5), Value::Draw, Value::Loss(8), Value::Loss(2)]
        );
        assert_eq!(values.iter().max(), Some(&Value::Win(3)));
        assert_eq!(Value::Loss(0).before(), Value::Win(1));
    }

    #[test]
    fn wdl_and_verdicts() {
        assert!(Wdl::Win > Wdl::Draw && Wdl::Draw > Wdl::Loss);
        for w in [Wdl::Loss, Wdl::Draw, Wdl::Win] {
            assert_eq!(w.before().before(), w);
            assert_eq!(wdl_from_code(w as u8), w);
        }
        assert_eq!(Value::Win(4).wdl(), Wdl::Win);
        let fast = Verdict::from(Value::Win(3));
        let slow = Verdict::from(Value::Win(9));
        assert!(fast > slow && slow > Verdict::from(Wdl::Draw));
        assert!(Verdict::from(Value::Loss(8)) > Verdict::from(Value::Loss(2)));
        assert_eq!(Verdict::from(Wdl::Win).cmp(&fast), std::cmp::Ordering::Equal);
        assert_eq!(fast.before(), Verdict::from(Value::Loss(4)));
    }
}
