//! With the `serde` feature: the notation types as their notation strings (`"c3"`, `"a5b4"`,
//! `"T3T/5/5/5/T3T s 20"`, `"sheep"`, `"1-0"`), so JSON and other formats hold what people read.

use std::fmt::Display;
use std::str::FromStr;

use serde::de::{Deserialize, Deserializer, Error as _};
use serde::ser::{Serialize, Serializer};

use crate::{Board, Move, Point, RecordResult, Side};

fn to_text<T: Display, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

fn from_text<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: FromStr,
    T::Err: Display,
    D: Deserializer<'de>,
{
    let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
    text.parse().map_err(D::Error::custom)
}

macro_rules! as_notation {
    ($($type:ty),*) => {$(
        impl Serialize for $type {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                to_text(self, serializer)
            }
        }

        impl<'de> Deserialize<'de> for $type {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$type, D::Error> {
                from_text(deserializer)
            }
        }
    )*};
}

as_notation!(Point, Move, Board, Side, RecordResult);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_types_round_trip_through_json() {
        let board: Board = "T3T/5/2S2/5/T3T t 19".parse().unwrap();
        let m: Move = "a5b4".parse().unwrap();
        let json =
            serde_json::to_string(&(board, m, Point::C3, Side::Tiger, RecordResult::Draw)).unwrap();
        assert_eq!(json, r#"["T3T/5/2S2/5/T3T t 19","a5b4","c3","tiger","1/2-1/2"]"#);
        let back: (Board, Move, Point, Side, RecordResult) = serde_json::from_str(&json).unwrap();
        assert_eq!(back, (board, m, Point::C3, Side::Tiger, RecordResult::Draw));
        // A bad string is the parser's error.
        let bad = serde_json::from_str::<Move>(r#""a5a5""#).unwrap_err().to_string();
        assert!(bad.contains("same point"), "{bad}");
        for m in board.legal_moves() {
            let json = serde_json::to_string(&m).unwrap();
            assert_eq!(serde_json::from_str::<Move>(&json).unwrap(), m);
        }
    }
}
