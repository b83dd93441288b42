//! `tns-bench draw`: SVG pictures of a position or of a recorded game.

use std::path::PathBuf;

use anyhow::{Context as _, bail};
use tns_board::{Board, GameRecord, Move};
use tns_svg::{Picture, animated, position, strip};

#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("what").required(true).args(["position", "record"]))]
pub struct Args {
    /// The position to draw, in position notation (e.g. "T3T/5/2S2/5/T3T t 19").
    position: Option<String>,
    /// Draw a game from this file of game records instead (the first, or --game N).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Which game of the records file, from 1.
    #[arg(long, default_value_t = 1, requires = "record", value_parser = clap::value_parser!(u32).range(1..))]
    game: u32,
    /// With --record: one animated picture, SECONDS a move, instead of a strip of positions.
    #[arg(long, value_name = "SECONDS", requires = "record")]
    animate: Option<f64>,
    /// With --record: positions a row in the strip.
    #[arg(long, default_value_t = 6, requires = "record")]
    columns: usize,
    /// Moves to draw as arrows on the position.
    #[arg(long, num_args = 1.., value_name = "MOVE", requires = "position")]
    moves: Vec<Move>,
    /// The move that led to the position, ringed.
    #[arg(long, value_name = "MOVE", requires = "position")]
    last: Option<Move>,
    /// The SVG file to write (whole or not at all).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let svg = if let Some(text) = &args.position {
        let board: Board = text.parse().with_context(|| format!("position {text:?}"))?;
        for &m in &args.moves {
            board.check_move(m).with_context(|| format!("--moves {m}"))?;
        }
        position(
            board,
            &Picture { last_move: args.last, arrows: args.moves.clone(), ..Picture::default() },
        )
    } else {
        let path = args.record.as_ref().context("name a position or a --record file")?;
        let text = tns_file::read_text(path, crate::RECORDS_LIMIT)
            .with_context(|| path.display().to_string())?;
        let records = GameRecord::parse_all(&text).with_context(|| path.display().to_string())?;
        let record = records.get(args.game as usize - 1).with_context(|| {
            format!("{} holds {} games, not {}", path.display(), records.len(), args.game)
        })?;
        let game = record.replay().with_context(|| path.display().to_string())?;
        match args.animate {
            Some(s) if !(s.is_finite() && s > 0.0) => {
                bail!("--animate needs a positive number of seconds, not {s}");
            }
            Some(seconds) => animated(&game, seconds),
            None => strip(&game, args.columns),
        }
    };
    tns_file::write_atomically(&args.output, svg.as_bytes())
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    say!("wrote {} ({} bytes)", args.output.display(), svg.len());
    Ok(())
}
