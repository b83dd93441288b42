//! The program: one terminal, one loop, and the mode it is in, a game (with its start screen
//! and everything opened over it), the puzzles, or a game on a server. Each mode keeps its own state, takes the
//! actions the keymap gives it and draws itself; the loop only draws, waits and hands on.

use std::io::Write as _;
use std::path::Path;
use std::time::Duration;

use ratatui::crossterm::event;

use crate::input::{Hitmap, map_event, map_keys};
use crate::keymap::Keys;
use crate::leave::Leave;
use crate::online::OnlineScreen;
use crate::puzzles::PuzzleScreen;
use crate::{App, Palette, apply, base64, draw, online_view, puzzle_view};

/// What the program is doing.
#[derive(Debug)]
pub enum Mode {
    /// A game, its start screen, and whatever is open over it.
    Game(Box<App>),
    /// The puzzles.
    Puzzles(Box<PuzzleScreen>),
    /// A game on a server.
    Online(Box<OnlineScreen>),
}

impl Mode {
    /// How the mode is being left, once it is.
    pub fn leaving(&self) -> Option<Leave> {
        match self {
            Mode::Game(app) => app.leaving(),
            Mode::Puzzles(screen) => screen.leaving(),
            Mode::Online(screen) => screen.leaving(),
        }
    }

    /// What to print once the screen is gone: a game's result, where it was saved and how to
    /// take it up; the puzzles' record.
    pub fn farewell(&self) -> Vec<String> {
        match self {
            Mode::Game(app) => {
                let mut lines = Vec::new();
                if let Some(outcome) = app.outcome() {
                    lines.push(outcome.to_string());
                }
                // The whole path, once the screen is gone (the status line may have had to
                // wrap it).
                if let Some(path) = app.saved_to() {
                    lines.push(format!("saved {}", path.display()));
                }
                lines.extend(app.resume_note());
                lines
            }
            Mode::Online(screen) => {
                let mut lines = vec![format!("online game {}", screen.id())];
                match screen.finish() {
                    Some(finish) => lines.push(finish.to_string()),
                    None => lines.push(format!("it goes on: {}", screen.watch_link())),
                }
                lines
            }
            Mode::Puzzles(screen) => {
                let p = screen.progress();
                vec![format!(
                    "puzzles: rating {:.0}, {} solved of {} tried, best streak {}",
                    p.rating.rating, p.solved, p.tried, p.best_streak
                )]
            }
        }
    }

    fn draw(&self, frame: &mut ratatui::Frame, palette: &Palette) -> Hitmap {
        match self {
            Mode::Game(app) => draw(frame, app),
            Mode::Puzzles(screen) => {
                Hitmap { board: puzzle_view::draw(frame, screen, *palette), ..Hitmap::default() }
            }
            Mode::Online(screen) => {
                Hitmap { board: online_view::draw(frame, screen, *palette), ..Hitmap::default() }
            }
        }
    }
}

/// Runs the program until it ends: draws the mode, hands it the actions of the keys and clicks,
/// and opens the mode the one left asks for. `open` builds it (a game from a puzzle's position,
/// the puzzles); `said` gathers what each mode left behind has to say once the screen is gone.
///
/// # Errors
/// A terminal I/O error, or a mode that cannot be opened.
pub fn run(
    terminal: &mut ratatui::DefaultTerminal,
    mode: &mut Mode,
    save_dir: &Path,
    no_color: bool,
    open: &mut dyn FnMut(Leave) -> anyhow::Result<Mode>,
    said: &mut Vec<String>,
) -> anyhow::Result<()> {
    let palette = Palette::new(no_color);
    let colours = |mode: &mut Mode| {
        if let Mode::Game(app) = mode {
            app.set_no_color(no_color);
        }
    };
    colours(mode);
    let mut hit = Hitmap::default();
    loop {
        if let Some(leave) = mode.leaving() {
            if let Mode::Game(app) = mode {
                app.close();
            }
            said.extend(mode.farewell());
            if leave == Leave::Quit {
                return Ok(());
            }
            *mode = open(leave)?;
            colours(mode);
            continue;
        }
        terminal.draw(|frame| hit = mode.draw(frame, &palette))?;
        let wait = match mode {
            Mode::Game(app) => {
                if let Some(text) = app.take_clipboard() {
                    // OSC 52: terminals that allow it put the text on the clipboard; others
                    // ignore it.
                    let mut out = std::io::stdout();
                    write!(out, "\x1b]52;c;{}\x07", base64(text.as_bytes()))?;
                    out.flush()?;
                }
                app.tick();
                app.autosave_now();
                // Short polls keep the screen live while a computer thinks, and quitting quick;
                // shorter still while it thinks, so that its move is played the moment it is
                // found (on a clock, every millisecond waited is the computer's).
                if app.thinking().is_some() { 2 } else { 50 }
            }
            Mode::Puzzles(_) => 50,
            Mode::Online(screen) => {
                screen.tick();
                50
            }
        };
        if event::poll(Duration::from_millis(wait))? {
            let ev = event::read()?;
            match mode {
                Mode::Game(app) => {
                    if let Some(action) = map_event(&ev, &hit, app.screen()) {
                        apply(app, action, save_dir);
                    }
                }
                Mode::Puzzles(screen) => {
                    if let Some(action) = map_keys(&ev, &hit, Keys::Puzzles, true) {
                        screen.apply(action);
                    }
                }
                Mode::Online(screen) => {
                    if let Some(action) = map_keys(&ev, &hit, Keys::Online, true) {
                        screen.apply(action);
                    }
                }
            }
        }
    }
}
