#![doc = include_str!("../README.md")]

mod draw;

pub use draw::{Picture, animated, position, status, strip};
