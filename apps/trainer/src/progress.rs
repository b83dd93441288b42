//! The training log: `progress.csv`, and a picture of the learning curve (`progress.svg`).

use std::fmt::Write as _;
use std::path::Path;

/// One generation's line of the log.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The generation number.
    pub generation: u32,
    /// Self-play games played.
    pub games: usize,
    /// Training positions.
    pub positions: usize,
    /// Mean training loss over the last epoch.
    pub loss: f32,
    /// Score against the heuristic player, 0 to 1, when a match was played.
    pub vs_heuristic: Option<f64>,
    /// Score against the generation last tested, when a match was played.
    pub vs_previous: Option<f64>,
    /// Seconds the generation took.
    pub seconds: f64,
}

/// The header line of `progress.csv`.
pub const HEADER: &str = "generation,games,positions,loss,vs_heuristic,vs_previous,seconds";

impl Row {
    /// The row as a CSV line (an empty field for a match not played).
    pub fn csv(&self) -> String {
        let opt = |v: Option<f64>| v.map(|v| format!("{v:.4}")).unwrap_or_default();
        format!(
            "{},{},{},{:.6},{},{},{:.1}",
            self.generation,
            self.games,
            self.positions,
            self.loss,
            opt(self.vs_heuristic),
            opt(self.vs_previous),
            self.seconds
        )
    }

    /// Parses a CSV line written by [`Row::csv`].
    pub fn parse(line: &str) -> Option<Row> {
        let f: Vec<&str> = line.split(',').collect();
        let opt = |s: &str| if s.is_empty() { Some(None) } else { s.parse().ok().map(Some) };
        if f.len() != 7 {
            return None;
        }
        Some(Row {
            generation: f[0].parse().ok()?,
            games: f[1].parse().ok()?,
            positions: f[2].parse().ok()?,
            loss: f[3].parse().ok()?,
            vs_heuristic: opt(f[4])?,
            vs_previous: opt(f[5])?,
            seconds: f[6].parse().ok()?,
        })
    }
}

/// Reads the rows of an existing `progress.csv` (none if there is no such file; lines that do
/// not parse are skipped).
pub fn read(path: &Path) -> Vec<Row> {
    std::fs::read_to_string(path)
        .map(|text| text.lines().skip(1).filter_map(Row::parse).collect())
        .unwrap_or_default()
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
    let _ = writeln!(
        out,
        r#"<text x="{left}" y="18">Score against the heuristic player (blue), training loss (grey), by generation</text>"#
    );
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
    let scored: Vec<(u32, f64)> =
        rows.iter().filter_map(|r| r.vs_heuristic.map(|s| (r.generation, s))).collect();
    let score_points: Vec<String> =
        scored.iter().map(|&(g, s)| format!("{:.1},{:.1}", x(g), y(s))).collect();
    let _ = writeln!(
        out,
        r##"<polyline fill="none" stroke="#1f5fbf" stroke-width="2" points="{}"/>"##,
        score_points.join(" ")
    );
    for &(g, s) in &scored {
        let _ = writeln!(
            out,
            r##"<circle cx="{:.1}" cy="{:.1}" r="3" fill="#1f5fbf"><title>generation {g}: {:.1}%</title></circle>"##,
            x(g),
            y(s),
            s * 100.0
        );
    }
    out.push_str("</svg>\n");
    out
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
                vs_heuristic: None,
                vs_previous: None,
                seconds: 3.0,
            },
            Row {
                generation: 2,
                games: 10,
                positions: 950,
                loss: 0.2,
                vs_heuristic: Some(0.4),
                vs_previous: Some(0.6),
                seconds: 3.5,
            },
        ];
        let text = csv(&rows);
        let back: Vec<Row> = text.lines().skip(1).filter_map(Row::parse).collect();
        assert_eq!(back.len(), 2);
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
    }
}
