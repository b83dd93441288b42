//! SVG pictures of Tigers and Sheep: a position ([`position`]), a whole game as a strip of
//! positions ([`strip`]) or as one animated picture ([`animated`]), in the style of the game's
//! board: its lines and diagonals, tigers and sheep, the point names, and optionally the last
//! move and arrows for moves worth showing.
//!
//! ```
//! use tns_board::Board;
//! use tns_svg::{Picture, position};
//!
//! let board: Board = "T3T/5/2S2/5/T3T t 19".parse()?;
//! let picture = Picture { arrows: vec!["a5b4".parse()?], ..Picture::default() };
//! let svg = position(board, &picture);
//! assert!(svg.starts_with("<svg") && svg.contains("class=\"tiger\""));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod draw;

pub use draw::{Picture, animated, position, strip};
