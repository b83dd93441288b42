//! What a person watching a run sees while a generation goes on: progress bars, and times in
//! their units.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `len` steps labelled `what`; hidden unless `show` (a terminal to draw it on).
pub fn bar(len: u64, what: &str, show: bool) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) =
        ProgressStyle::with_template(&format!("{{bar:30}} {{pos}}/{{len}} {what} {{msg}}"))
    {
        bar.set_style(style);
    }
    bar
}

/// A time for people: `45 s`, `12 min`, `2.5 h`.
pub fn duration(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{seconds:.0} s")
    } else if seconds < 5400.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}
