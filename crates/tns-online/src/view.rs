//! What the API says: a game as `GET /api/v1/games/{id}` answers it, a new game asked for and
//! the answer to it. Both ways through serde, for the server that writes them and the clients
//! that read them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tns_board::Side;

use crate::finish::Finish;
use crate::seat::Seat;
use crate::side_name;
use crate::token::GameId;

/// A game, as the API answers it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameView {
    /// The API's version.
    pub api: u32,
    /// The game's id.
    pub id: GameId,
    /// Who plays the sheep.
    pub sheep: Seat,
    /// Who plays the tigers.
    pub tigers: Seat,
    /// The moves, in the project's notation.
    pub moves: Vec<String>,
    /// The position after them.
    pub position: String,
    /// The side to move.
    #[serde(with = "side_name")]
    pub turn: Side,
    /// How it ended; `None` while it goes on.
    pub result: Option<Finish>,
    /// The number of the game's last event.
    pub version: u64,
    /// The clocks, in a game with one.
    pub clock: Option<ClockView>,
    /// The side offering a draw.
    #[serde(with = "side_name::option")]
    pub draw_offer: Option<Side>,
    /// The side asking for a rematch.
    #[serde(with = "side_name::option")]
    pub rematch_offer: Option<Side>,
    /// The rematch, once made.
    pub rematch: Option<GameId>,
    /// The side of the seat whose token came with the request (`GET` with `Authorization:
    /// Bearer TOKEN`): how a client that holds only a link learns which side it plays.
    #[serde(with = "side_name::option", default, skip_serializing_if = "Option::is_none")]
    pub you: Option<Side>,
}

/// The clocks at the moment of an answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    /// The time control (`5+3`).
    pub control: String,
    /// The sheep's time left, in milliseconds.
    pub sheep: u64,
    /// The tigers' time left, in milliseconds.
    pub tigers: u64,
    /// The side whose clock runs: `None` before the first move and after the end.
    #[serde(with = "side_name::option")]
    pub running: Option<Side>,
}

/// A new game asked for: `{"sheep": "friend", "tigers": "easy", "clock": "5+3"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Who plays the sheep.
    pub sheep: Seat,
    /// Who plays the tigers.
    pub tigers: Seat,
    /// The time control, if any.
    #[serde(default)]
    pub clock: Option<String>,
}

/// The answer to a new game: its id, each friend's seat, and the watch link.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreatedGame {
    /// The game's id.
    pub id: GameId,
    /// The seats of the sides that are `friend`.
    pub seats: SeatLinks,
    /// The address that shows the game to anyone.
    pub watch: String,
}

/// A seat for each `friend` side.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatLinks {
    /// The sheep's, when a friend plays them.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub sheep: Option<SeatLink>,
    /// The tigers', when a friend plays them.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub tigers: Option<SeatLink>,
}

/// A friend's seat: its secret and its link.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatLink {
    /// The seat's token (32 hexadecimal digits).
    pub token: String,
    /// The link that plays the seat: the game's address, `#`, the token.
    pub url: String,
}

impl fmt::Debug for SeatLink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatLink(…)")
    }
}

impl Serialize for GameId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for GameId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GameId, D::Error> {
        let text = String::deserialize(d)?;
        GameId::from_str(&text).map_err(serde::de::Error::custom)
    }
}
