//! `tns-bench draw`: SVG pictures of a position or of a recorded game.

use std::path::PathBuf;

use anyhow::{Context as _, bail};
use tns_board::{Board, GameRecord, Move, Side};
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
    /// With --record: one animated picture, SECONDS a move (0.01 to 3600), instead of a strip
    /// of positions.
    #[arg(long, value_name = "SECONDS", requires = "record")]
    animate: Option<f64>,
    /// With --record: positions a row in the strip.
    #[arg(long, default_value_t = 6, requires = "record")]
    columns: usize,
    /// Moves to draw as arrows on the position.
    #[arg(long, num_args = 1.., value_name = "MOVE", requires = "position")]
    moves: Vec<Move>,
    /// The move that led to the position, ringed (checked against the position).
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
        if let Some(last) = args.last {
            check_last(board, last).with_context(|| format!("--last {last}"))?;
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
            Some(s) if !tns_svg::SECONDS_PER_PLY.contains(&s) => {
                let (low, high) =
                    (tns_svg::SECONDS_PER_PLY.start(), tns_svg::SECONDS_PER_PLY.end());
                let s = crate::short_number(s);
                bail!("--animate takes {low} to {high} seconds a move, not {s}");
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

/// Whether `last` can be the move that led to `board`: the position before it is worked out
/// (the piece put back where it came from, a placed sheep back in hand, a killed sheep back on
/// the point it was jumped on) and must be one the game can have, in which `last` is legal and
/// leads to `board`.
fn check_last(board: Board, last: Move) -> anyhow::Result<()> {
    let mover = board.side_to_move().other();
    let (mut tigers, mut sheep, mut in_hand) = (board.tigers(), board.sheep(), board.in_hand());
    let mut put_back = |from: Option<tns_board::Point>, to: tns_board::Point| {
        let set = if mover == Side::Tiger { &mut tigers } else { &mut sheep };
        *set = set.without(to);
        match from {
            Some(from) => *set = set.with(from),
            None => in_hand += 1,
        }
    };
    match last {
        Move::Place(to) => put_back(None, to),
        Move::Step { from, to } => put_back(Some(from), to),
        Move::Jump { from, to } => {
            put_back(Some(from), to);
            if let Some(over) = from.jumped_over(to) {
                sheep = sheep.with(over);
            }
        }
    }
    let who = match mover {
        Side::Sheep => "the sheep",
        Side::Tiger => "the tigers",
    };
    if board.piece_at(last.to()) != Some(mover) {
        let piece = if mover == Side::Tiger { "tiger" } else { "sheep" };
        bail!("it cannot have led to this position: no {piece} stands on {}", last.to());
    }
    let before = Board::from_parts(tigers, sheep, in_hand, mover)
        .with_context(|| format!("it cannot have led to this position, {who} moving"))?;
    match before.after(last) {
        Ok(after) if after == board => Ok(()),
        Ok(_) => bail!("it cannot have led to this position: it leads elsewhere"),
        Err(e) => bail!("it cannot have led to this position, {who} moving: {e}"),
    }
}
