//! `tns-bench match --openings-file`: the openings a match's pairs of games start from.

use anyhow::{Context as _, bail};
use tns_board::{Board, Game, GameRecord};

/// The openings in a file: positions one a line (blank lines and `#` comments skipped), or else
/// game records, each cut to its `Opening` tag's number of moves when it has one. Anything but
/// a plain file (a FIFO, a directory, a device) is refused.
pub fn read_openings(path: &std::path::Path) -> anyhow::Result<Vec<Game>> {
    let at = || format!("--openings-file {}", path.display());
    let text = tns_file::read_text(path, crate::RECORDS_LIMIT).with_context(at)?;
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let looks_like_records = lines.iter().any(|(_, l)| l.starts_with('['));
    let games: Vec<Game> = if looks_like_records {
        let records = GameRecord::parse_all(&text).with_context(at)?;
        records
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let mut game = r.replay().with_context(|| format!("record {}", i + 1))?;
                if let Some(keep) = r.tag("Opening").and_then(|t| t.parse::<usize>().ok()) {
                    game.truncate(keep.min(game.len()));
                }
                Ok(game)
            })
            .collect::<anyhow::Result<_>>()
            .with_context(at)?
    } else {
        lines
            .iter()
            .map(|(n, l)| {
                l.parse::<Board>()
                    .map(Game::from_position)
                    .with_context(|| format!("line {n}: {l:?}"))
            })
            .collect::<anyhow::Result<_>>()
            .with_context(at)?
    };
    if games.is_empty() {
        bail!("{}: no openings in it", at());
    }
    if let Some(i) = games.iter().position(|g| g.outcome().is_some()) {
        bail!("{}: opening {} is a finished game: nothing left to play", at(), i + 1);
    }
    Ok(games)
}
