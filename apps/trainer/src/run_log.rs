//! The run's log: a line per generation for the user, and `progress.csv` and `progress.svg`
//! rewritten whole after each generation.

use std::path::Path;

use anyhow::Context as _;

use crate::measures::Figures;
use crate::progress::{self, Row};

/// Writes `progress.csv` and `progress.svg` whole.
pub fn write_log(out: &Path, rows: &[Row]) -> anyhow::Result<()> {
    for (name, text) in
        [("progress.csv", progress::csv(rows)), ("progress.svg", progress::svg(rows))]
    {
        let path = out.join(name);
        tns_file::write_atomically(&path, text.as_bytes())
            .with_context(|| path.display().to_string())?;
    }
    Ok(())
}

/// The log line of a generation.
pub fn generation_line(row: &Row, figures: Option<Figures>) -> String {
    let pct = |v: Option<f64>| v.map_or("-".into(), |v| format!("{:.1}%", 100.0 * v));
    let exact = figures.map_or(String::new(), |f| {
        format!(
            ", validation loss {:.4}, values {:.1}%, moves {:.1}% of {} critical",
            f.loss,
            100.0 * f.values,
            100.0 * f.moves,
            f.critical
        )
    });
    format!(
        "generation {}: {} games, {} positions, loss {:.4}{exact}, vs heuristic {}, vs previous {}, {:.1} s",
        row.generation,
        row.games,
        row.positions,
        row.loss,
        pct(row.vs_heuristic),
        pct(row.vs_previous),
        row.seconds
    )
}
