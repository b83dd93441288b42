//! The training log: `progress.csv`, and a picture of the learning curve (`progress.svg`).

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context as _, anyhow, bail};

/// One generation's line of the log.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The generation number.
    pub generation: u32,
    /// Games played (self-play, or the distillation's sampled games).
    pub games: usize,
    /// Training positions.
    pub positions: usize,
    /// Mean training loss over the last epoch.
    pub loss: f32,
    /// Distillation: mean squared error on the held-out set.
    pub validation_loss: Option<f64>,
    /// Distillation: the share of held-out positions valued in the table's class.
    pub value_accuracy: Option<f64>,
    /// Distillation: the share of held-out critical positions where the one-ply choice keeps
    /// the value.
    pub move_accuracy: Option<f64>,
    /// Score against the heuristic player, 0 to 1, when a match was played.
    pub vs_heuristic: Option<f64>,
    /// Score against the generation last tested, when a match was played.
    pub vs_previous: Option<f64>,
    /// Seconds the generation took.
    pub seconds: f64,
}

/// The header line of `progress.csv`.
pub const HEADER: &str = "generation,games,positions,loss,validation_loss,value_accuracy,move_accuracy,vs_heuristic,vs_previous,seconds";

/// The header of logs written before distillation (read still, never written).
const OLD_HEADER: &str = "generation,games,positions,loss,vs_heuristic,vs_previous,seconds";

impl Row {
    /// The row as a CSV line (an empty field for a measure not taken).
    pub fn csv(&self) -> String {
        let opt = |v: Option<f64>| v.map(|v| format!("{v:.4}")).unwrap_or_default();
        format!(
            "{},{},{},{:.6},{},{},{},{},{},{:.1}",
            self.generation,
            self.games,
            self.positions,
            self.loss,
            opt(self.validation_loss),
            opt(self.value_accuracy),
            opt(self.move_accuracy),
            opt(self.vs_heuristic),
            opt(self.vs_previous),
            self.seconds
        )
    }

    /// Parses a CSV line written by [`Row::csv`], or by a trainer from before distillation (7
    /// fields, no exact measures).
    pub fn parse(line: &str) -> Option<Row> {
        let f: Vec<&str> = line.split(',').collect();
        let opt = |s: &str| if s.is_empty() { Some(None) } else { s.parse().ok().map(Some) };
        let (exact, rest) = match f.len() {
            10 => ([opt(f[4])?, opt(f[5])?, opt(f[6])?], &f[7..]),
            7 => ([None, None, None], &f[4..]),
            _ => return None,
        };
        Some(Row {
            generation: f[0].parse().ok()?,
            games: f[1].parse().ok()?,
            positions: f[2].parse().ok()?,
            loss: f[3].parse().ok()?,
            validation_loss: exact[0],
            value_accuracy: exact[1],
            move_accuracy: exact[2],
            vs_heuristic: opt(rest[0])?,
            vs_previous: opt(rest[1])?,
            seconds: rest[2].parse().ok()?,
        })
    }
}

/// Reads the rows of an existing `progress.csv` (none if there is no such file).
///
/// # Errors
/// A message naming the file and the first line that is not a row (a log the run did not
/// write, or one damaged): the run stops rather than drop the rows it cannot read.
pub fn read(path: &Path) -> anyhow::Result<Vec<Row>> {
    // Only a regular file is read (a FIFO would wait for a writer); a log is a few hundred
    // bytes a generation.
    let text = match tns_file::read_text(path, 256 << 20) {
        Err(tns_file::FileError::Missing) => return Ok(Vec::new()),
        read => read.with_context(|| path.display().to_string())?,
    };
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, header)) if header == HEADER || header == OLD_HEADER => {}
        _ => bail!("{}: line 1 is not the log's header", path.display()),
    }
    lines
        .filter(|(_, line)| !line.is_empty())
        .map(|(i, line)| {
            Row::parse(line).ok_or_else(|| {
                anyhow!(
                    "{}: line {} is not a row of the log ({line:?}); mend or remove the file",
                    path.display(),
                    i + 1
                )
            })
        })
        .collect()
}

/// The whole CSV text.
pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from(HEADER);
    out.push('\n');
    for r in rows {
        out.push_str(&r.csv());
        out.push('\n');
    }
    out
}

/// A round step for about `ticks` marks up to `max`: 1, 2 or 5 times a power of ten.
fn nice_step(max: f64, ticks: f64) -> f64 {
    let raw = (max / ticks).max(f64::MIN_POSITIVE);
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * power).find(|&s| s >= raw).unwrap_or(raw)
}

/// An SVG chart of the learning curve: the score against the heuristic player (dots joined by a
/// line, left axis 0-100%, with the 50% and 55% marks) and the training loss (grey, right axis
/// with its own scale), by generation (numbered along the bottom).
pub fn svg(rows: &[Row]) -> String {
    let (w, h, left, right, top, bottom) = (720.0, 400.0, 60.0, 70.0, 30.0, 50.0);
    let plot_w = w - left - right;
    let plot_h = h - top - bottom;
    let max_gen = f64::from(rows.iter().map(|r| r.generation).max().unwrap_or(1).max(1));
    let x = |g: u32| left + plot_w * f64::from(g) / max_gen;
    let y = |fraction: f64| top + plot_h * (1.0 - fraction.clamp(0.0, 1.0));
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let distilled = rows.iter().any(|r| r.move_accuracy.is_some());
    let title = if distilled {
        "Held-out set: moves that keep the value (green), values in the table's class (orange); training loss (grey)"
    } else {
        "Score against the heuristic player (blue), training loss (grey), by generation"
    };
    let _ = writeln!(out, r#"<text x="{left}" y="18">{title}</text>"#);
    for (pct, dash) in [(0.0, ""), (0.5, "4 4"), (0.55, "2 2"), (1.0, "")] {
        let yy = y(pct);
        let _ = writeln!(
            out,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#bbb" stroke-dasharray="{dash}"/><text x="8" y="{:.1}">{:.0}%</text>"##,
            w - right,
            yy + 4.0,
            pct * 100.0
        );
    }
    // The generation axis, numbered at round steps.
    let step = nice_step(max_gen, 8.0).max(1.0);
    let mut tick = 0.0;
    while tick <= max_gen + 1e-9 {
        let xx = left + plot_w * tick / max_gen;
        let _ = writeln!(
            out,
            r##"<line x1="{xx:.1}" y1="{:.1}" x2="{xx:.1}" y2="{:.1}" stroke="#333"/><text class="x-tick" x="{xx:.1}" y="{:.1}" text-anchor="middle">{tick}</text>"##,
            top + plot_h,
            top + plot_h + 5.0,
            top + plot_h + 18.0
        );
        tick += step;
    }
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">generation</text>"#,
        left + plot_w / 2.0,
        h - 10.0
    );
    // The loss axis on the right, from 0 to a round value at or above the largest loss.
    let top_loss = rows.iter().map(|r| f64::from(r.loss)).fold(0.0, f64::max).max(1e-9);
    let loss_step = nice_step(top_loss, 4.0);
    let max_loss = (top_loss / loss_step).ceil() * loss_step;
    let mut mark = 0.0;
    while mark <= max_loss + loss_step * 1e-6 {
        let yy = y(mark / max_loss);
        let _ = writeln!(
            out,
            r##"<line x1="{:.1}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#999"/><text class="loss-tick" x="{:.1}" y="{:.1}" fill="#777">{}</text>"##,
            w - right,
            w - right + 5.0,
            w - right + 8.0,
            yy + 4.0,
            format_loss(mark)
        );
        mark += loss_step;
    }
    let _ = writeln!(
        out,
        r##"<text x="{:.1}" y="{:.1}" fill="#777" text-anchor="end">loss</text>"##,
        w - 4.0,
        top - 8.0
    );
    let loss_points: Vec<String> = rows
        .iter()
        .map(|r| format!("{:.1},{:.1}", x(r.generation), y(f64::from(r.loss) / max_loss)))
        .collect();
    let _ = writeln!(
        out,
        r##"<polyline fill="none" stroke="#999" stroke-width="1.5" points="{}"/>"##,
        loss_points.join(" ")
    );
    score_line(&mut out, rows, &x, &y);
    accuracy_lines(&mut out, rows, &x, &y);
    out.push_str("</svg>\n");
    out
}

/// The score against the heuristic player on the left axis (blue, a dot a match).
fn score_line(out: &mut String, rows: &[Row], x: &impl Fn(u32) -> f64, y: &impl Fn(f64) -> f64) {
    let scored: Vec<(u32, f64)> =
        rows.iter().filter_map(|r| r.vs_heuristic.map(|s| (r.generation, s))).collect();
    let score_points: Vec<String> =
        scored.iter().map(|&(g, s)| format!("{:.1},{:.1}", x(g), y(s))).collect();
    if !scored.is_empty() {
        let _ = writeln!(
            out,
            r##"<polyline fill="none" stroke="#1f5fbf" stroke-width="2" points="{}"/>"##,
            score_points.join(" ")
        );
    }
    for &(g, s) in &scored {
        let _ = writeln!(
            out,
            r##"<circle cx="{:.1}" cy="{:.1}" r="3" fill="#1f5fbf"><title>generation {g}: {:.1}%</title></circle>"##,
            x(g),
            y(s),
            s * 100.0
        );
    }
}

/// Distillation's exact measures on the chart's left axis: values (orange) and moves (green)
/// kept on the held-out set, when the log has them.
fn accuracy_lines(
    out: &mut String,
    rows: &[Row],
    x: &impl Fn(u32) -> f64,
    y: &impl Fn(f64) -> f64,
) {
    type Share = fn(&Row) -> Option<f64>;
    let shares: [(&str, &str, Share); 2] = [
        ("#d9822b", "value-accuracy", |r| r.value_accuracy),
        ("#2a9d4b", "move-accuracy", |r| r.move_accuracy),
    ];
    for (colour, class, share) in shares {
        let points: Vec<String> = rows
            .iter()
            .filter_map(|r| share(r).map(|v| format!("{:.1},{:.1}", x(r.generation), y(v))))
            .collect();
        if !points.is_empty() {
            let _ = writeln!(
                out,
                r#"<polyline class="{class}" fill="none" stroke="{colour}" stroke-width="2" points="{}"/>"#,
                points.join(" ")
            );
        }
    }
}

/// A loss value for an axis label: as few digits as tell the ticks apart.
fn format_loss(value: f64) -> String {
    let text = format!("{value:.4}");
    let text = text.trim_end_matches('0');
    text.strip_suffix('.').unwrap_or(text).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_and_chart_has_a_point_per_match() {
        let rows = vec![
            Row {
                generation: 1,
                games: 10,
                positions: 900,
                loss: 0.25,
                validation_loss: None,
                value_accuracy: None,
                move_accuracy: None,
                vs_heuristic: None,
                vs_previous: None,
                seconds: 3.0,
            },
            Row {
                generation: 2,
                games: 10,
                positions: 950,
                loss: 0.2,
                validation_loss: Some(0.3),
                value_accuracy: Some(0.8),
                move_accuracy: Some(0.9),
                vs_heuristic: Some(0.4),
                vs_previous: Some(0.6),
                seconds: 3.5,
            },
        ];
        let text = csv(&rows);
        let back: Vec<Row> = text.lines().skip(1).filter_map(Row::parse).collect();
        assert_eq!(back.len(), 2);
        assert_eq!(back, rows);
        assert_eq!(back[1].vs_heuristic, Some(0.4));
        assert_eq!(back[0].vs_previous, None);
        let chart = svg(&rows);
        assert!(chart.starts_with("<svg") && chart.trim_end().ends_with("</svg>"));
        // Numbered axes: generations along the bottom, the loss's scale on the right.
        assert!(chart.contains(r#"class="x-tick""#) && chart.contains(">0</text>"));
        assert!(chart.matches(r#"class="loss-tick""#).count() >= 3, "{chart}");
        assert!((nice_step(47.0, 8.0) - 10.0).abs() < 1e-9);
        assert!((nice_step(0.23, 4.0) - 0.1).abs() < 1e-9);
        assert_eq!(format_loss(0.25), "0.25");
        assert_eq!(format_loss(2.0), "2");
        assert_eq!(chart.matches("<circle").count(), 1);
        assert_eq!(chart.matches(r#"class="move-accuracy""#).count(), 1);
    }

    fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("tns-progress-{name}-{}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_log_from_before_distillation_still_reads() {
        let path = temp_file("old", &format!("{OLD_HEADER}\n3,300,17978,0.025100,0.7000,,10.6\n"));
        let rows = read(&path).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(
            (rows[0].generation, rows[0].vs_heuristic, rows[0].move_accuracy),
            (3, Some(0.7), None)
        );
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn a_garbled_log_is_an_error_that_names_the_line() {
        let good = Row::parse("1,4,90,0.250000,,,,,,3.0").unwrap().csv();
        let path = temp_file("garbled", &format!("{HEADER}\n{good}\n1,4,9x,0.25\n"));
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("line 3 is not a row"), "{e}");
        std::fs::write(&path, "what is this\n").unwrap();
        assert!(read(&path).unwrap_err().to_string().contains("line 1 is not the log's header"));
        std::fs::remove_file(path).unwrap();
    }
}
