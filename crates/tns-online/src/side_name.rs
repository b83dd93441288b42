//! A side's name in the online API: `sheep` or `tigers` (the side of the pieces, as the API's
//! fields `sheep` and `tigers` name them), through serde.

use serde::{Deserialize, Deserializer, Serializer};
use tns_board::Side;

/// `sheep` or `tigers`.
pub fn of(side: Side) -> &'static str {
    match side {
        Side::Sheep => "sheep",
        Side::Tiger => "tigers",
    }
}

/// The side named `sheep` or `tigers` (or any spelling [`Side`] reads).
///
/// # Errors
/// Another text.
pub fn parse(text: &str) -> Result<Side, tns_board::ParseSideError> {
    text.parse()
}

/// Writes a side as its name.
///
/// # Errors
/// The serializer's.
pub fn serialize<S: Serializer>(side: &Side, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(of(*side))
}

/// Reads a side from its name.
///
/// # Errors
/// Not a side's name.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Side, D::Error> {
    let text = String::deserialize(d)?;
    parse(&text).map_err(serde::de::Error::custom)
}

/// The same for a side that may be none (`null`).
pub mod option {
    use super::{Deserialize, Deserializer, Serializer, Side, of, parse};

    /// Writes a side as its name, or `null`.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<S: Serializer>(side: &Option<Side>, s: S) -> Result<S::Ok, S::Error> {
        match side {
            Some(side) => s.serialize_some(of(*side)),
            None => s.serialize_none(),
        }
    }

    /// Reads a side's name, or `null`.
    ///
    /// # Errors
    /// Not a side's name.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Side>, D::Error> {
        let text = Option::<String>::deserialize(d)?;
        text.map(|t| parse(&t).map_err(serde::de::Error::custom)).transpose()
    }
}
