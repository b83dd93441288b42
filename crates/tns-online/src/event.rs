//! What happens to a game: its events, numbered from 1 without gaps.

use serde::{Deserialize, Serialize};
use tns_board::Side;

use crate::finish::Finish;
use crate::seat::Seat;
use crate::side_name;
use crate::token::GameId;

/// One thing that happened to a game, with its number and the server's time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// Its number: 1 for the game's creation, one more for each event after.
    pub version: u64,
    /// When the server committed it, in milliseconds since 1970.
    pub at: u64,
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKind,
}

/// Time left on each side's clock, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockTimes {
    /// The sheep's.
    pub sheep: u64,
    /// The tigers'.
    pub tigers: u64,
}

impl ClockTimes {
    /// The time of `side`.
    pub fn of(&self, side: Side) -> u64 {
        match side {
            Side::Sheep => self.sheep,
            Side::Tiger => self.tigers,
        }
    }

    /// The time of `side` set to `ms`.
    pub fn of_mut(&mut self, side: Side) -> &mut u64 {
        match side {
            Side::Sheep => &mut self.sheep,
            Side::Tiger => &mut self.tigers,
        }
    }
}

/// What an event says happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// The game was created: who sits on each side, and its clock.
    Created {
        /// The sheep's seat.
        sheep: Seat,
        /// The tigers' seat.
        tigers: Seat,
        /// The time control (`5+3`), or none.
        clock: Option<String>,
    },
    /// A side moved.
    Move {
        /// The side that moved.
        #[serde(with = "side_name")]
        side: Side,
        /// The move, in the project's notation.
        #[serde(rename = "move")]
        mv: String,
        /// Each side's time left after it (its increment added), in a game with a clock.
        clock: Option<ClockTimes>,
    },
    /// A side offers a draw.
    DrawOffer {
        /// The side offering.
        #[serde(with = "side_name")]
        side: Side,
    },
    /// The game ended.
    End {
        /// Who won and why.
        result: Finish,
        /// Each side's time left when it ended, in a game with a clock.
        clock: Option<ClockTimes>,
    },
    /// The server started again: each side's time left, as charged up to the server's last
    /// heartbeat; the running clock restarts at this event's time.
    Resumed {
        /// Each side's time left.
        clock: ClockTimes,
    },
    /// A side asks for a rematch.
    RematchOffer {
        /// The side asking.
        #[serde(with = "side_name")]
        side: Side,
    },
    /// The rematch was made: the new game's id (the seats' tokens play the other sides there).
    Rematch {
        /// The new game.
        game: GameId,
    },
}

impl EventKind {
    /// Whether a game that had this event may have no event after it but a rematch's.
    pub fn ends(&self) -> bool {
        matches!(self, EventKind::End { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finish::Reason;

    #[test]
    fn events_are_written_as_the_documented_json_lines() {
        let moved = Event {
            version: 2,
            at: 1_796_688_004_210,
            kind: EventKind::Move {
                side: Side::Sheep,
                mv: "c3".into(),
                clock: Some(ClockTimes { sheep: 300_000, tigers: 300_000 }),
            },
        };
        let text = serde_json::to_string(&moved).unwrap();
        assert_eq!(
            text,
            r#"{"version":2,"at":1796688004210,"type":"move","side":"sheep","move":"c3","clock":{"sheep":300000,"tigers":300000}}"#
        );
        assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), moved);
        let ended = Event {
            version: 5,
            at: 9,
            kind: EventKind::End {
                result: Finish { winner: Some(Side::Tiger), reason: Reason::Resignation },
                clock: None,
            },
        };
        let text = serde_json::to_string(&ended).unwrap();
        assert_eq!(
            text,
            r#"{"version":5,"at":9,"type":"end","result":{"winner":"tigers","reason":"resignation"},"clock":null}"#
        );
        assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), ended);
    }

    #[test]
    fn an_unknown_event_type_is_refused() {
        assert!(
            serde_json::from_str::<Event>(r#"{"version":1,"at":0,"type":"teleport"}"#).is_err()
        );
    }
}
