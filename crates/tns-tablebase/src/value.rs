//! The value of a position, and how it is packed into 16 bits.

use std::fmt;

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

    /// Whether the side to move prefers `self` to `other`: any win to a draw to any loss, a
    /// faster win, and a slower loss.
    pub fn better_than(self, other: Value) -> bool {
        let order = |v: Value| match v {
            Value::Win(n) => i32::from(u16::MAX) - i32::from(n),
            Value::Draw => 0,
            Value::Loss(n) => -i32::from(u16::MAX) + i32::from(n),
        };
        order(self) > order(other)
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
        assert!(Value::Win(9).better_than(Value::Draw));
        assert!(Value::Win(3).better_than(Value::Win(5)));
        assert!(Value::Loss(8).better_than(Value::Loss(2)));
        assert!(Value::Draw.better_than(Value::Loss(100)));
        assert_eq!(Value::Loss(0).before(), Value::Win(1));
    }
}
