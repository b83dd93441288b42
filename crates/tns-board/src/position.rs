//! Position notation: `<ranks> <side> <in-hand>`, such as `T3T/5/5/5/T3T s 20`.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use crate::error::ParsePositionError;
use crate::{Bitboard, Board, Point, Side};

impl fmt::Display for Board {
    /// Writes the position notation: ranks 5 down to 1 separated by `/`, each from file `a` to
    /// `e` with `T`, `S` or a digit counting empty points; then `s` or `t`; then the sheep in hand.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..5 {
            if y > 0 {
                f.write_char('/')?;
            }
            let mut run = 0;
            for x in 0..5 {
                let p = Point::from_index_unchecked(x + 5 * y);
                let c = match self.piece_at(p) {
                    None => {
                        run += 1;
                        continue;
                    }
                    Some(Side::Tiger) => 'T',
                    Some(Side::Sheep) => 'S',
                };
                if run > 0 {
                    write!(f, "{run}")?;
                    run = 0;
                }
                f.write_char(c)?;
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
        }
        write!(f, " {} {}", self.side_to_move().letter(), self.in_hand())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}

impl FromStr for Board {
    type Err = ParsePositionError;

    /// Parses position notation; see [`Board`]'s `Display`. Fields are separated by spaces.
    fn from_str(s: &str) -> Result<Board, ParsePositionError> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        let [ranks, side, in_hand] = fields[..] else {
            return Err(ParsePositionError::FieldCount(fields.len()));
        };
        let ranks: Vec<&str> = ranks.split('/').collect();
        if ranks.len() != 5 {
            return Err(ParsePositionError::RankCount(ranks.len()));
        }
        let (mut tigers, mut sheep) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for (y, text) in ranks.iter().enumerate() {
            #[expect(clippy::cast_possible_truncation, reason = "one of the five ranks, 0 to 4")]
            let rank = (b'5' - y as u8) as char;
            let mut x = 0u32;
            for ch in text.chars() {
                // Points past the fifth are counted but not stored, so the error can say how
                // long the rank was.
                // A rank far too long gives no point (x saturates, Point::new refuses it).
                let here = Point::new(
                    u8::try_from(x).unwrap_or(u8::MAX),
                    u8::try_from(y).unwrap_or(u8::MAX),
                );
                match ch {
                    'T' | 't' => tigers = here.map_or(tigers, |p| tigers.with(p)),
                    'S' | 's' => sheep = here.map_or(sheep, |p| sheep.with(p)),
                    '1'..='5' => {
                        x = x.saturating_add(ch as u32 - '1' as u32);
                    }
                    _ => return Err(ParsePositionError::BadChar { rank, ch }),
                }
                x = x.saturating_add(1);
            }
            if x != 5 {
                return Err(ParsePositionError::RankLength { rank, points: x });
            }
        }
        let side = match side {
            "s" | "S" => Side::Sheep,
            "t" | "T" => Side::Tiger,
            _ => return Err(ParsePositionError::BadSide(side.to_owned())),
        };
        let count = in_hand
            .parse::<u8>()
            .ok()
            .filter(|&n| n <= 20)
            .ok_or_else(|| ParsePositionError::BadInHand(in_hand.to_owned()))?;
        Ok(Board::from_parts(tigers, sheep, count, side)?)
    }
}

impl Board {
    /// A picture of the board, rank 5 at the top, with `T`, `S` and `.` for empty points, and a
    /// line saying whose turn it is and how many sheep are in hand and dead.
    ///
    /// ```
    /// use tns_board::Board;
    ///
    /// assert_eq!(
    ///     Board::START.diagram(),
    ///     "5 T . . . T\n4 . . . . .\n3 . . . . .\n2 . . . . .\n1 T . . . T\n  a b c d e\n\
    ///      sheep to move, 20 in hand, 0 dead\n"
    /// );
    /// ```
    pub fn diagram(self) -> String {
        let mut out = String::new();
        for y in 0..5u8 {
            out.push((b'5' - y) as char);
            for x in 0..5 {
                let p = Point::from_index_unchecked(x + 5 * y);
                out.push(' ');
                out.push(match self.piece_at(p) {
                    Some(Side::Tiger) => 'T',
                    Some(Side::Sheep) => 'S',
                    None => '.',
                });
            }
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "  a b c d e\n{} to move, {} in hand, {} dead",
            self.side_to_move(),
            self.in_hand(),
            self.dead()
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::PositionError;

    #[test]
    fn start_round_trip() {
        let b: Board = "T3T/5/5/5/T3T s 20".parse().unwrap();
        assert_eq!(b, Board::START);
        assert_eq!(b.to_string(), "T3T/5/5/5/T3T s 20");
    }

    #[test]
    fn runs_are_merged_on_output() {
        let b: Board = "T111T/14/23/5/T3T s 20".parse().unwrap();
        assert_eq!(b.to_string(), "T3T/5/5/5/T3T s 20");
    }

    #[test]
    fn errors() {
        use ParsePositionError as E;
        let err = |s: &str| s.parse::<Board>().unwrap_err();
        assert_eq!(err(""), E::FieldCount(0));
        assert_eq!(err("T3T/5/5/5/T3T s 20 x"), E::FieldCount(4));
        assert_eq!(err("T3T/5/5/5 s 20"), E::RankCount(4));
        assert_eq!(err("T3T/6/5/5/T3T s 20"), E::BadChar { rank: '4', ch: '6' });
        assert_eq!(err("T3T/4/5/5/T3T s 20"), E::RankLength { rank: '4', points: 4 });
        assert_eq!(err("T3T/5/5/5/T4T s 20"), E::RankLength { rank: '1', points: 6 });
        assert_eq!(err("T3T/5/5/5/T3X s 20"), E::BadChar { rank: '1', ch: 'X' });
        assert_eq!(err("T3T/5/5/5/T3T x 20"), E::BadSide("x".into()));
        assert_eq!(err("T3T/5/5/5/T3T s 21"), E::BadInHand("21".into()));
        assert_eq!(err("T3T/5/5/5/T3T s -1"), E::BadInHand("-1".into()));
        assert_eq!(err("T3T/5/5/5/T4 s 20"), E::Invalid(PositionError::TigerCount(3)));
        assert_eq!(
            err("T3T/S4/5/5/T3T s 20"),
            E::Invalid(PositionError::TooManySheep { on_board: 1, in_hand: 20 })
        );
        assert_eq!(err("T3T/5/5/5/T3T s 14"), E::Invalid(PositionError::TooManyDead(6)));
    }
}
