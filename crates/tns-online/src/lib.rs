#![doc = include_str!("../README.md")]

mod client;
mod error;
mod event;
mod finish;
mod refusal;
mod seat;
pub mod side_name;
mod store;
mod table;
mod token;
mod view;

pub use client::{
    AnswerError, Client, ClientError, Events, Link, LinkError, MAX_ANSWER, MAX_LINE, MAX_LINK,
};
pub use error::OnlineError;
pub use event::{ClockTimes, Event, EventKind};
pub use finish::{Finish, Reason};
pub use refusal::{Refusal, RefusalKind};
pub use seat::{MAX_PLAYER_NAME, ParseSeatError, Seat};
pub use store::{Store, StoredGame, Tokens};
pub use table::{RematchStep, Table, online_control};
pub use token::{GameId, ID_LEN, ParseGameIdError, ParseTokenError, Token};
pub use view::{ClockView, CreatedGame, GameView, NewGame, SeatLink, SeatLinks};

/// The version of the online API's answers.
pub const API_VERSION: u32 = 1;
