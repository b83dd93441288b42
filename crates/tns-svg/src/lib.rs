#![doc = include_str!("../README.md")]

mod draw;

pub use draw::{Picture, SECONDS_PER_PLY, animated, position, status, strip};
