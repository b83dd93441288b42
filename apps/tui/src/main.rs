//! `tigers-and-sheep`: the game in the terminal.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context as _, anyhow, bail};
use clap::Parser;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use tigers_and_sheep::online::OnlineScreen;
use tigers_and_sheep::{App, Controller, Folders, Leave, Mode};
use tigers_and_sheep::{DEFAULT_TIME, limits_of_tag};
use tigers_and_sheep::{find_tablebase, offer_table_build, partial_table_note};
use tns_board::{Board, Game, GameRecord, Side};
use tns_search::Limits;

/// Tigers and Sheep (Bagh-Chal): four tigers against twenty sheep.
///
/// Without --sheep or --tiger the game asks who plays each side. Keys: ? in the game lists
/// them all.
#[derive(Parser, Debug)]
#[command(name = "tigers-and-sheep", version, after_help = players_help())]
struct Cli {
    /// Who plays the sheep: human, or a computer player (see the list below) [default: asked
    /// on the start screen; the strongest with --tiger, or the saved game's player with
    /// --load].
    #[arg(short = 'S', long, value_name = "PLAYER")]
    sheep: Option<String>,
    /// Who plays the tigers, likewise.
    #[arg(short = 'T', long, value_name = "PLAYER")]
    tiger: Option<String>,
    /// Seconds a computer player may think per move [default: 2, or the saved game's limit
    /// with --load].
    #[arg(short, long, conflicts_with = "depth", allow_negative_numbers = true, value_parser = tns_match::limit::seconds)]
    time: Option<f64>,
    /// Play on clocks: MINUTES+SECONDS, each side's minutes and the seconds each move adds
    /// (5+3, 0+1, 10), counted for computers too (their time comes off their clock); a fallen
    /// flag loses [default: a saved game's clocks with --load, else none].
    #[arg(long, value_name = "M+S", conflicts_with_all = ["time", "depth"], allow_negative_numbers = true, value_parser = tigers_and_sheep::clock::parse_clock)]
    clock: Option<tns_match::TimeControl>,
    /// Search depth (plies) for computer players, instead of a time limit.
    #[arg(short, long, allow_negative_numbers = true, value_parser = tns_match::limit::depth)]
    depth: Option<u32>,
    /// Start from this position (position notation, e.g. "T3T/5/5/5/T3T s 20").
    #[arg(long, conflicts_with = "load")]
    position: Option<String>,
    /// Resume a saved game record, with its players and limits (options given here override
    /// them).
    #[arg(long, conflicts_with = "resume")]
    load: Option<PathBuf>,
    /// Take up the last game where it was left (Ctrl+C, a closed terminal, a crash): the game
    /// writes it after every move to autosave.txt in the games folder.
    #[arg(long, conflicts_with = "position")]
    resume: bool,
    /// Where `s` saves games [default: a games folder in the user's data directory, such as
    /// ~/.local/share/tigers-and-sheep/games on Linux].
    #[arg(long, value_name = "DIR")]
    save_dir: Option<PathBuf>,
    /// The tablebase's directory (built with `tns-tablebase build`, and `build --placement` for
    /// the whole game) [default: `TNS_TABLEBASE_DIR`, else ./tablebase, else a tablebase folder
    /// in the user's data directory, the first that holds a table]. The perfect player needs
    /// it, the default players search with its movement phase (`strongest:table=on`), and the
    /// status line shows its verdict. Where there is none, `B` in the game builds the movement
    /// phase into this folder [default: `TNS_TABLEBASE_DIR`, else the data directory's].
    #[arg(long, value_name = "DIR")]
    tablebase: Option<PathBuf>,
    /// Solve puzzles instead of playing a game: positions from games where few moves keep the
    /// result, with exact answers from the solved game, one at a time near your rating (kept,
    /// with your streak, in puzzles.txt in the user's data directory, or in --save-dir).
    #[arg(long, conflicts_with_all = ["sheep", "tiger", "load", "resume", "position", "clock"])]
    puzzles: bool,
    /// Play an online game from its link (`http://HOST/play/ID#TOKEN`, as the page or
    /// `--online` gives it to send), against a friend in a browser or another terminal; a link
    /// without `#TOKEN` watches (docs/online.md).
    #[arg(long, value_name = "LINK", conflicts_with_all = ["sheep", "tiger", "load", "resume", "position", "clock", "puzzles", "online"])]
    join: Option<String>,
    /// Create an online game on the server at URL (`http://HOST:PORT`, a tns-web), with
    /// --clock if given, and play it: the screen shows the link to send your friend.
    #[arg(long, value_name = "URL", conflicts_with_all = ["sheep", "tiger", "load", "resume", "position", "puzzles"])]
    online: Option<String>,
    /// The server the start screen's "a friend online" makes its games on.
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:8080")]
    server: String,
    /// The side you play in a game made with --online.
    #[arg(long, value_name = "SIDE", requires = "online", value_parser = side, default_value = "sheep")]
    side: Side,
}

fn side(text: &str) -> anyhow::Result<Side> {
    text.parse::<Side>().map_err(|_| anyhow::anyhow!("sheep or tigers, not {text:?}"))
}

/// The players, listed after the options in `--help`: a person, the levels (the same names in
/// every program here), and how to name any other player.
fn players_help() -> String {
    use std::fmt::Write as _;
    let mut help = String::from(
        "Players (for --sheep and --tiger; the same names in tns-bench match and on the web \
         page):\n  human       you, with the keyboard or the mouse\n",
    );
    for level in tns_match::Level::ALL {
        let _ = writeln!(help, "  {:<11} {} [{}]", level.name(), level.about(), level.spec());
    }
    help.push_str(
        "Any player spec will do as well: hard:time=0.5, hard:depth=6,dead=350, \
         strongest:table=on (searching with the table's movement phase, the default once a \
         table is found), a trained network's weights FILE. docs/players.md lists them all; \
         docs/results.md says how strong each level is.",
    );
    help
}

fn player(text: &str) -> anyhow::Result<Controller> {
    Controller::parse(text)
}

/// The file the game in progress is written to after every move, in the games folder.
const AUTOSAVE: &str = "autosave.txt";

/// The saved game `--load` or `--resume` names, if either does.
fn saved_game(cli: &Cli, save_dir: &std::path::Path) -> anyhow::Result<Option<GameRecord>> {
    let resume = save_dir.join(AUTOSAVE);
    if cli.resume && !resume.exists() {
        bail!(
            "--resume: no game to resume in {} (the game writes {AUTOSAVE} there after every move)",
            save_dir.display()
        );
    }
    let load = if cli.resume { Some(&resume) } else { cli.load.as_ref() };
    let option = if cli.resume { "--resume" } else { "--load" };
    let Some(path) = load else { return Ok(None) };
    // A saved game is a few kilobytes: 64 MiB is far more than any.
    let text = tns_file::read_text(path, 64 << 20)
        .with_context(|| format!("{option} {}", path.display()))?;
    if text.trim().is_empty() {
        bail!("{option} {}: the file is empty, no saved game", path.display());
    }
    let record =
        text.parse::<GameRecord>().with_context(|| format!("{option} {}", path.display()))?;
    Ok(Some(record))
}

/// The game the options ask for, or, after `g` in the puzzles, the puzzle's position played
/// by the person on its side to move against the strongest player.
fn setup(cli: &Cli, folders: &Folders, puzzle: Option<Board>) -> anyhow::Result<App> {
    let option = if cli.resume { "--resume" } else { "--load" };
    let record = if puzzle.is_some() { None } else { saved_game(cli, &folders.games())? };
    let (given_sheep, given_tiger) = match puzzle {
        Some(board) => {
            let (me, other) = (Some("human".to_string()), Some("strongest".to_string()));
            if board.side_to_move() == Side::Sheep { (me, other) } else { (other, me) }
        }
        None => (cli.sheep.clone(), cli.tiger.clone()),
    };
    let position = puzzle.map(|b| b.to_string()).or_else(|| cli.position.clone());
    // A side's player: the option if given, else the saved game's, else the shipped network.
    let seat = |given: &Option<String>, tag: &str, option: &str| match given {
        Some(text) => player(text).with_context(|| option.to_owned()),
        None => match record.as_ref().and_then(|r| r.tag(tag)) {
            // The advice follows the cause, so the cause is written into the message.
            Some(saved) => player(saved).map_err(|e| {
                let why = tns_file::one_line(e.as_ref());
                anyhow!(
                    "the saved game's {tag} player {saved:?} cannot play: {why} (choose with \
                     {option})"
                )
            }),
            None => Ok(Controller::network()),
        },
    };
    let mut sheep = seat(&given_sheep, "Sheep", "--sheep")?;
    let mut tiger = seat(&given_tiger, "Tiger", "--tiger")?;
    let time = cli.time.map_or(DEFAULT_TIME, Duration::from_secs_f64);
    let saved_limits = record.as_ref().and_then(|r| {
        ["SheepLimits", "TigerLimits"].iter().find_map(|t| r.tag(t).and_then(limits_of_tag))
    });
    let limits = match (cli.depth, cli.time, saved_limits) {
        (Some(d), _, _) => Limits::depth(d),
        (None, None, Some(saved)) => saved,
        _ => Limits::time(time),
    };
    let game = if let Some(record) = &record {
        record.replay().context(option)?
    } else if let Some(text) = &position {
        let board: Board = text.parse().with_context(|| format!("--position {text:?}"))?;
        Game::from_position(board)
    } else {
        Game::new()
    };
    // A side not named on the command line, the default or a saved game's `table=on` player,
    // searches with the table's movement phase where there is a table (the default then plays
    // `strongest:table=on`) and plays on without it where there is none.
    let table_optional = |seat: &Controller, given: &Option<String>, tag: &str| {
        let saved = record.as_ref().and_then(|r| r.tag(tag)).is_some();
        given.is_none()
            && (!saved
                || matches!(seat, Controller::Computer(s)
                    if s.table || s.level() == Some(tns_match::Level::Strongest)))
    };
    let optional = [
        table_optional(&sheep, &given_sheep, "Sheep"),
        table_optional(&tiger, &given_tiger, "Tiger"),
    ];
    for (seat, optional) in [&mut sheep, &mut tiger].into_iter().zip(optional) {
        if optional {
            *seat = seat.clone().without_table();
        }
    }
    let wants_table = sheep.needs_tablebase() || tiger.needs_tablebase();
    let (tablebase, warning) = find_tablebase(folders, wants_table)?;
    if tablebase.is_some() {
        for (seat, optional) in [&mut sheep, &mut tiger].into_iter().zip(optional) {
            if optional {
                *seat = seat.clone().using_table();
            }
        }
    }
    let partial = partial_table_note(&[&sheep, &tiger], tablebase.as_deref());
    let mut app = App::new(game, sheep, tiger, limits, tablebase);
    offer_table_build(&mut app, optional, folders.table_home(), warning);
    if let Some(note) = partial {
        app.set_message(note);
    }
    // A saved game's clocks, unless --time or --depth replaces them.
    let saved_clock = match &record {
        Some(r) if cli.time.is_none() && cli.depth.is_none() => {
            tigers_and_sheep::clock_of(r).context(option)?
        }
        _ => None,
    };
    match (cli.clock, saved_clock) {
        (Some(control), _) | (None, Some((control, None))) => app.set_clock(control),
        (None, Some((control, Some((sheep, tiger))))) => app.set_clock_left(control, sheep, tiger),
        (None, None) => {}
    }
    if let Some(ending) = record.as_ref().and_then(tigers_and_sheep::ending_of) {
        app.end_as(ending);
    }
    // Nobody said who plays: the game asks first.
    if given_sheep.is_none() && given_tiger.is_none() && record.is_none() {
        app.open_start_screen();
    }
    Ok(app)
}

/// The puzzle screen, set up: the shipped set, the player's record, a table if there is one
/// (to say what a wrong move gives up, to the ply).
fn puzzle_screen(folders: &Folders) -> anyhow::Result<tigers_and_sheep::puzzles::PuzzleScreen> {
    let set = tns_puzzles::shipped().context("the puzzle set")?;
    let path = folders.puzzle_record();
    let progress = tigers_and_sheep::puzzles::load_progress(&path)?;
    let (table, _) = find_tablebase(folders, false)?;
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_secs());
    tigers_and_sheep::puzzles::PuzzleScreen::new(set, progress, Some(path), table, seed)
        .context("the puzzle set is empty")
}

/// The folders the options and the environment give, worked out once for every session.
fn folders(cli: &Cli) -> Folders {
    Folders::new(cli.save_dir.clone(), cli.tablebase.clone())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match play(&cli, &folders(&cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tigers-and-sheep: {}", tns_file::one_line(e.as_ref()));
            ExitCode::FAILURE
        }
    }
}

/// The mode a mode left for asks for: the puzzles, or a puzzle's position as a game.
fn open(cli: &Cli, folders: &Folders, leave: Leave) -> anyhow::Result<Mode> {
    Ok(match leave {
        Leave::Puzzles => Mode::Puzzles(Box::new(puzzle_screen(folders)?)),
        Leave::Game(board) => {
            let mut app = setup(cli, folders, Some(board))?;
            app.set_autosave(Some(folders.games().join(AUTOSAVE)));
            Mode::Game(Box::new(app))
        }
        Leave::Online { side, clock } => {
            let url = cli.online.as_deref().unwrap_or(cli.server.as_str());
            let screen = OnlineScreen::create(url, side, clock.map(|c| c.to_string()))
                .with_context(|| {
                    format!(
                        "a game with a friend online on {url} (a tns-web there, or --server URL)"
                    )
                })?;
            Mode::Online(Box::new(screen))
        }
        Leave::Quit => bail!("nothing to open once the program ends"),
    })
}

/// Sets up the first mode, then runs the program on one terminal until it ends; then says what
/// the modes left behind have to say.
fn play(cli: &Cli, folders: &Folders) -> anyhow::Result<()> {
    let save_dir = folders.games();
    let mut mode = if let Some(text) = &cli.join {
        let link = tns_online::Link::parse(text).context("--join")?;
        let screen = OnlineScreen::join(&link).context("--join")?;
        Mode::Online(Box::new(screen))
    } else if let Some(url) = &cli.online {
        let clock = cli.clock.map(|c| c.to_string());
        let screen = OnlineScreen::create(url, cli.side, clock)
            .with_context(|| format!("--online {url}"))?;
        Mode::Online(Box::new(screen))
    } else if cli.puzzles {
        open(cli, folders, Leave::Puzzles)?
    } else {
        let mut app = setup(cli, folders, None)?;
        app.set_autosave(Some(save_dir.join(AUTOSAVE)));
        Mode::Game(Box::new(app))
    };
    // Without a terminal (run from a script, say) there is nothing to draw on: say so.
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        let what = if cli.puzzles { "the puzzles need" } else { "the game needs" };
        bail!(
            "{what} a terminal, and standard input or output is not one (for scripts, use \
             tns-bench or tns-tablebase)"
        );
    }
    // https://no-color.org: a set, non-empty NO_COLOR means no colours.
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    // ratatui::try_init installs a panic hook that restores the terminal before the message.
    let mut terminal = ratatui::try_init().context("cannot open the terminal")?;
    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    let mut said = Vec::new();
    let mut open = |leave| open(cli, folders, leave);
    let result =
        tigers_and_sheep::run(&mut terminal, &mut mode, &save_dir, no_color, &mut open, &mut said);
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
    for line in said {
        println!("{line}");
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_screen_opens_unless_a_side_or_a_saved_game_is_named() {
        let dir = std::env::temp_dir().join(format!("tns-tui-start-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let table = dir.display().to_string();
        let app = |args: &[&str]| {
            let mut all = vec!["tigers-and-sheep", "--tablebase", &table];
            all.extend(args);
            let cli = Cli::try_parse_from(all).unwrap();
            setup(&cli, &folders(&cli), None).unwrap()
        };
        let asked = app(&[]);
        assert!(asked.new_game_form().is_some_and(|f| f.opening), "no side named: asked");
        let position = app(&["--position", "T3T/5/2S2/5/T3T t 19"]);
        assert!(position.new_game_form().is_some(), "a position alone still asks who plays");
        for named in
            [&["--sheep", "human"][..], &["--tiger", "easy"], &["-S", "hard", "-T", "human"]]
        {
            assert!(app(named).new_game_form().is_none(), "{named:?}: skipped");
        }
        std::fs::write(dir.join("saved.txt"), "[Sheep \"human\"]\n[Tiger \"easy\"]\n\n1. c3 *\n")
            .unwrap();
        let saved = dir.join("saved.txt").display().to_string();
        let loaded = app(&["--load", &saved]);
        assert!(
            loaded.new_game_form().is_none(),
            "a saved game names its players: {}",
            loaded.message()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_resumed_game_against_the_strongest_is_told_of_b() {
        let dir = std::env::temp_dir().join(format!("tns-tui-resume-b-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let record = "[Sheep \"human\"]\n[Tiger \"network\"]\n\n1. c3 *\n";
        std::fs::write(dir.join(AUTOSAVE), record).unwrap();
        let dir_arg = dir.to_str().unwrap();
        let args = ["tigers-and-sheep", "--resume", "--save-dir", dir_arg, "--tablebase", dir_arg];
        let cli = Cli::try_parse_from(args).unwrap();
        let app = setup(&cli, &folders(&cli), None).unwrap();
        assert!(app.message().contains("B to build"), "{}", app.message());
        assert_eq!(app.takes_table(), [false, true], "the tigers take a table B builds");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_help_lists_every_level_and_each_parses() {
        use clap::CommandFactory as _;
        let help = Cli::command().render_long_help().to_string();
        for level in tns_match::Level::ALL {
            let line = help
                .lines()
                .find(|l| l.split_whitespace().next() == Some(level.name()))
                .unwrap_or_else(|| panic!("{level} is not in the help:\n{help}"));
            assert!(line.contains(level.spec()) && line.contains(level.about()), "{line:?}");
            assert!(player(level.name()).is_ok(), "{level}");
        }
        assert_eq!(player("human").unwrap(), Controller::Human);
        let err = player("heuristic:speed=2").unwrap_err().to_string();
        assert!(err.contains("speed=2"), "{err}");
    }
}
