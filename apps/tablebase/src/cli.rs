//! The command line: the options every subcommand shares, the subcommands, the parsers of
//! their values, and loading the table the options name.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::bail;
use clap::{Parser, Subcommand};
use tns_board::Side;
use tns_tablebase::{Tablebase, TablebaseError, Wdl};

#[derive(Parser, Debug)]
#[command(
    name = "tns-tablebase",
    version,
    about = "Tigers and Sheep solved: the movement phase, and the placement phase on top"
)]
pub struct Cli {
    /// Kills that win the game (5 in the real game; fewer builds a small variant in seconds).
    #[arg(long, global = true, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=5))]
    pub kills: u8,
    /// The directory of the table's files.
    #[arg(long, global = true, default_value = "tablebase")]
    pub dir: PathBuf,
    /// Threads (all cores unless given).
    #[arg(long, global = true, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve every slice (and with --placement, every placement layer) not already in the
    /// directory, saving each as it is finished; a stopped build resumes where it was.
    Build {
        /// Also solve the placement phase, from 19 sheep placed down to the start.
        #[arg(long)]
        placement: bool,
        /// Solve the placement layers only down to this many sheep placed (implies
        /// --placement): a part of the table, for tests and quick looks.
        #[arg(long, value_name = "P", value_parser = clap::value_parser!(u8).range(0..=19))]
        from_placed: Option<u8>,
    },
    /// The value of a position, and of each of its moves, best first.
    Probe {
        /// The position, e.g. "SSSSS/S1TTS/STS2/S1S1S/TSSSS s 0".
        position: String,
    },
    /// A perfect game from a position (the start unless given): at each ply the verdict, how
    /// many legal moves keep it, and the move the perfect player chooses among them.
    Line {
        /// The position to start from.
        #[arg(default_value = "T3T/5/5/5/T3T s 20")]
        position: String,
        /// The depth of the perfect player's search among the moves that keep the value.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
        /// Plies to play at most.
        #[arg(long, default_value_t = 200)]
        plies: usize,
    },
    /// Plies 1 to PLIES from the start: for each, the positions it is played from (each
    /// symmetry class once), how many are won, drawn and lost for the side to move, and how
    /// many of its moves from the drawn ones lose.
    Reach {
        /// The deepest ply.
        #[arg(default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=12))]
        plies: u32,
    },
    /// Positions of a placement layer with a given value for the side to move, the first of
    /// their symmetry classes in index order.
    Examples {
        /// Sheep placed (0 to 19).
        #[arg(long, value_parser = clap::value_parser!(u8).range(0..=19))]
        placed: u8,
        /// Dead sheep.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=4))]
        dead: u8,
        /// The side to move: sheep or tigers.
        #[arg(long, value_parser = parse_side)]
        side: Side,
        /// The value for the side to move: win, draw or loss.
        #[arg(long, value_parser = parse_wdl)]
        result: Wdl,
        /// How many to show, from 1.
        #[arg(long, default_value_t = 5, value_parser = at_least_one)]
        count: usize,
    },
    /// Positions, wins, draws and losses for each dead count and side to move, and for each
    /// placement layer that is built.
    Stats,
    /// Make a puzzle set from the solved game: games between players of several strengths,
    /// the positions where few moves keep the result, rated by a ladder of players; the same
    /// seed makes the same file. With --check, check a set against the table instead.
    Puzzles {
        /// The file to write (or, with --check, to read).
        #[arg(long, short, default_value = "crates/tns-puzzles/puzzles.tsv")]
        out: PathBuf,
        /// Puzzles wanted.
        #[arg(long, default_value_t = 2400, value_parser = at_least_one)]
        count: usize,
        /// Games played for positions.
        #[arg(long, default_value_t = 3000, value_parser = at_least_one)]
        games: usize,
        /// The seed of the openings and of the choice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Check every puzzle of the file against the table, and write nothing.
        #[arg(long)]
        check: bool,
    },
    /// Check every stored value against the values of its moves (the placement layers too,
    /// when built).
    Verify {
        /// Only check every block of every file against its checksum (seconds a gigabyte),
        /// not the values against their moves.
        #[arg(long, conflicts_with_all = ["placement_only", "sample", "layers"])]
        checksums: bool,
        /// Only the placement layers.
        #[arg(long)]
        placement_only: bool,
        /// Instead of the complete check of the placement layers, check this many random
        /// positions of each (minutes for the whole game, where the complete check takes hours).
        #[arg(long, value_name = "N", conflicts_with = "layers")]
        sample: Option<usize>,
        /// Only the placement layers from A to B sheep placed (each is checked against the
        /// stored values of the next), so the whole game can be verified a part at a time.
        #[arg(long, value_name = "A-B", value_parser = parse_layers)]
        layers: Option<(u8, u8)>,
    },
}

/// A count of at least one: `--count 0` would ask for nothing.
pub fn at_least_one(text: &str) -> anyhow::Result<usize> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => bail!("expected a whole number from 1, not {text:?}"),
    }
}

pub fn parse_side(text: &str) -> anyhow::Result<Side> {
    match text {
        "sheep" | "s" => Ok(Side::Sheep),
        "tigers" | "tiger" | "t" => Ok(Side::Tiger),
        _ => bail!("expected sheep or tigers, not {text:?}"),
    }
}

pub fn parse_wdl(text: &str) -> anyhow::Result<Wdl> {
    match text {
        "win" => Ok(Wdl::Win),
        "draw" => Ok(Wdl::Draw),
        "loss" => Ok(Wdl::Loss),
        _ => bail!("expected win, draw or loss, not {text:?}"),
    }
}

pub fn parse_layers(text: &str) -> anyhow::Result<(u8, u8)> {
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let parse = |s: &str| s.trim().parse::<u8>().ok().filter(|&n| n <= 19);
    match (parse(a), parse(b)) {
        (Some(a), Some(b)) if a <= b => Ok((a, b)),
        _ => bail!("expected layers A-B with 0 <= A <= B <= 19, not {text:?}"),
    }
}

pub fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

/// Bytes in megabytes (10^6) for a message: exact in an f64 below 2^52 bytes (4 PB).
#[expect(clippy::cast_precision_loss, reason = "see the function's docs")]
pub fn megabytes(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

/// Bytes in gigabytes (10^9), as [`megabytes`].
pub fn gigabytes(bytes: u64) -> f64 {
    megabytes(bytes) / 1e3
}

/// The table in `--dir`; where there is none, the error says how to build one or name another.
/// The advice is the library's error's context, and quotes it (the sentence reads on from
/// the error's words), so `main` prints the error once, with the advice after it.
pub fn load(cli: &Cli) -> anyhow::Result<Tablebase> {
    Tablebase::load(cli.kills, &cli.dir).map_err(|e| {
        let dir = cli.dir.display();
        let advice = if e.is_missing() {
            format!(
                "{e}: no table in {dir} (build one with `tns-tablebase build --dir {dir}`, about a \
                 minute, or name another with --dir)"
            )
        } else if matches!(e, TablebaseError::OldFormat { .. }) {
            format!(
                "{e} with `tns-tablebase build --dir {dir}` (and `--placement` for the whole \
                 game)"
            )
        } else if matches!(e, TablebaseError::Block { .. }) {
            format!(
                "{e}; `tns-tablebase build --dir {dir}` (with the options that built the table) \
                 builds damaged files again"
            )
        } else {
            return e.into();
        };
        anyhow::Error::new(e).context(advice)
    })
}
