//! Distillation on a table small enough to build here: the 2-kill variant, movement phase and
//! the last two placement layers. Targets are the table's values, the held-out set is never
//! trained on, the measures count what they say, a short run learns, a stopped run resumes to
//! the bit, and each fault the trainer must survive gives an error or is cleaned up.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use tns_board::{Board, Game, Move, Side};
use tns_nn::Network;
use tns_tablebase::{Tablebase, Wdl};
use tns_trainer::measures::{self, Held, Validation};
use tns_trainer::sampling::{self, Seat, class_key};
use tns_trainer::state::RunState;
use tns_trainer::teacher::{Teacher, target};
use tns_trainer::{Settings, generation_path, progress, train, validation_set};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tns-distil-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The 2-kill variant's table with its placement layers 18 and 19, built once per test run.
fn table() -> Arc<Tablebase> {
    static TABLE: OnceLock<Arc<Tablebase>> = OnceLock::new();
    Arc::clone(TABLE.get_or_init(|| {
        let dir = temp("table");
        let mut table = Tablebase::build(2, Some(&dir), |_| {}).unwrap();
        table.build_placement(&dir, 18, &|_| {}).unwrap();
        Arc::new(table)
    }))
}

fn settings(out: PathBuf, generations: u32) -> Settings {
    Settings {
        generations,
        games: 40,
        out,
        from: None,
        hidden: vec![16],
        inputs: tns_nn::Inputs::Threats,
        buckets: tns_nn::Buckets::One,
        objective: tns_nn::Objective::Squared,
        depth: 1,
        epsilon: 0.1,
        lambda: 0.7,
        epochs: 3,
        learning_rate: 0.01,
        // Falling over the run: a resumed run must train at the rates an unbroken one does.
        final_learning_rate: 0.002,
        batch: 64,
        window: 2,
        seed: 5,
        match_every: 0,
        match_games: 2,
        match_depth: 1,
        max_plies: 120,
        bars: false,
        teacher: Some(table()),
        uniform: 300,
        children: 2,
        draw_margin: 0.0,
        draw_margin_tigers: 0.0,
        draw_margin_movement: None,
        traps: false,
        validation_games: 40,
        final_positions: 20,
        new_settings: false,
    }
}

/// Runs `f` on a pool of one thread, so a run is exactly reproducible.
fn one_thread<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(f)
}

#[test]
fn targets_are_the_tables_values_and_the_held_out_set_is_never_trained_on() {
    let out = temp("targets");
    let s = settings(out.clone(), 2);
    let mut lines = Vec::new();
    one_thread(|| train(&s, &AtomicBool::new(false), |l| lines.push(l.to_owned()))).unwrap();
    let teacher = Teacher::new(table());
    let validation = validation_set(&s, &teacher);
    assert!(validation.held.len() > 50, "{} held out", validation.held.len());
    assert!(validation.critical().count() > 0);
    let state = RunState::load(&out.join("state.bin"), 0.01).unwrap().unwrap();
    assert_eq!(state.window.len(), 2);
    let samples: Vec<_> = state.window.iter().flatten().collect();
    assert!(samples.len() > 500, "{} samples", samples.len());
    for sample in &samples {
        let value = teacher.value(sample.board).expect("a trained position the table holds");
        assert_eq!(sample.target.to_bits(), target(value).to_bits(), "{}", sample.board);
        assert!(!validation.keys.contains(&class_key(sample.board)), "{}", sample.board);
    }
    // Both phases are taught: placement positions and movement positions.
    assert!(samples.iter().any(|s| s.board.in_hand() > 0));
    assert!(samples.iter().any(|s| s.board.in_hand() == 0));
    // The held-out set's values are the table's too.
    for h in &validation.held {
        assert_eq!(teacher.value(h.board), Some(h.value));
    }
    // Every generation's line carries the exact measures, and the run ends with the searches'.
    assert!(lines.iter().any(|l| l.starts_with("held-out set: ")), "{lines:?}");
    let generation = lines.iter().find(|l| l.starts_with("generation 2:")).unwrap();
    assert!(
        generation.contains("validation loss") && generation.contains("critical"),
        "{generation}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("search at depth 4: keeps the value in")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("search at 0.05 s a move:")), "{lines:?}");
    let rows = progress::read(&out.join("progress.csv")).unwrap();
    assert!(rows.iter().all(|r| r.move_accuracy.is_some() && r.validation_loss.is_some()));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn each_side_to_move_is_trained_with_its_own_draw_margin() {
    let out = temp("margins");
    let mut s = settings(out.clone(), 1);
    s.draw_margin_tigers = 0.5;
    one_thread(|| train(&s, &AtomicBool::new(false), |_| {})).unwrap();
    let teacher = Teacher::new(table());
    let state = RunState::load(&out.join("state.bin"), 0.01).unwrap().unwrap();
    let (mut tigers_off_zero, mut sheep_draws) = (0, 0);
    for sample in state.window.iter().flatten() {
        let board = sample.board;
        let value = teacher.value(board).unwrap();
        let margin = if board.side_to_move() == Side::Tiger { 0.5 } else { 0.0 };
        let expected = teacher.target_with_margin(board, value, margin);
        assert_eq!(sample.target.to_bits(), expected.to_bits(), "{board}");
        if value == Wdl::Draw {
            match board.side_to_move() {
                Side::Tiger => tigers_off_zero += usize::from(sample.target != 0.0),
                Side::Sheep => sheep_draws += 1,
            }
        }
    }
    // The case can fail: tigers' draws moved off 0 while the sheep's stayed there.
    assert!(tigers_off_zero > 0 && sheep_draws > 0, "{tigers_off_zero} and {sheep_draws}");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn the_movement_phase_is_trained_with_its_own_draw_margin() {
    let out = temp("movement-margin");
    let mut s = settings(out.clone(), 1);
    s.draw_margin_tigers = 0.2;
    s.draw_margin_movement = Some(0.5);
    one_thread(|| train(&s, &AtomicBool::new(false), |_| {})).unwrap();
    let teacher = Teacher::new(table());
    let state = RunState::load(&out.join("state.bin"), 0.01).unwrap().unwrap();
    let (mut movement_off_zero, mut placement_draws) = (0, 0);
    for sample in state.window.iter().flatten() {
        let board = sample.board;
        let value = teacher.value(board).unwrap();
        let margin = match (board.in_hand(), board.side_to_move()) {
            (0, _) => 0.5,
            (_, Side::Tiger) => 0.2,
            (_, Side::Sheep) => 0.0,
        };
        let expected = teacher.target_with_margin(board, value, margin);
        assert_eq!(sample.target.to_bits(), expected.to_bits(), "{board}");
        if value == Wdl::Draw {
            if board.in_hand() == 0 {
                movement_off_zero += usize::from(sample.target != 0.0);
            } else {
                placement_draws += 1;
            }
        }
    }
    // The case can fail: the movement's draws moved off 0, and the placement's were met.
    assert!(movement_off_zero > 0 && placement_draws > 0, "{movement_off_zero}, {placement_draws}");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn trapping_seats_play_the_drawing_moves_that_leave_the_fewest_safe_replies() {
    let teacher = Teacher::new(table());
    // Of a drawn position's moves, those that keep the draw, and how many there are.
    let safe = |b: Board| {
        let replies = teacher.move_values(b)?;
        Some((replies.iter().filter(|&&(_, v)| v == Wdl::Draw).count(), replies.len().max(1)))
    };
    // k1 / n1 against k2 / n2, in whole numbers.
    let below = |(k1, n1): (usize, usize), (k2, n2): (usize, usize)| k1 * n2 < k2 * n1;
    let (mut checked, mut narrowed) = (0, 0);
    let mut seat = sampling::player(Seat::Trapping, &teacher, None, 3);
    for board in sampling::uniform_positions(&teacher, 3000, 4) {
        let Some(values) = teacher.move_values(board) else { continue };
        if teacher.value(board) != Some(Wdl::Draw) {
            continue;
        }
        let drawing: Vec<Move> =
            values.iter().filter(|&&(_, v)| v == Wdl::Draw).map(|&(m, _)| m).collect();
        let shares: Option<Vec<_>> =
            drawing.iter().map(|&m| safe(board.after_unchecked(m))).collect();
        let Some(shares) = shares else { continue };
        let fewest = shares.iter().copied().reduce(|f, s| if below(s, f) { s } else { f }).unwrap();
        let m = seat.choose(&Game::from_position(board), &AtomicBool::new(false)).unwrap();
        assert!(drawing.contains(&m), "{board}: {m} does not keep the draw");
        assert!(!below(fewest, safe(board.after_unchecked(m)).unwrap()), "{board}: {m}");
        checked += 1;
        narrowed += usize::from(shares.iter().any(|&s| below(fewest, s)));
    }
    // The check can fail: some drawn positions have drawing moves with more safe replies.
    assert!(checked >= 20 && narrowed >= 5, "{checked} checked, {narrowed} with a choice");
}

#[test]
fn uniform_samples_cover_the_parts_the_table_holds_and_nothing_else() {
    let teacher = Teacher::new(table());
    let boards = sampling::uniform_positions(&teacher, 2000, 9);
    assert_eq!(boards.len(), 2000);
    for b in &boards {
        assert!(teacher.value(*b).is_some(), "{b}");
        // Layers 18 and 19 answer for the tigers with up to 2 in hand, and for the sheep with
        // up to 3 (a placement leads into layer 18).
        let most = if b.side_to_move() == tns_board::Side::Sheep { 3 } else { 2 };
        assert!(b.in_hand() <= most, "{b}: layers 18 and 19 and the movement only");
    }
    for in_hand in 0..=3 {
        assert!(boards.iter().any(|b| b.in_hand() == in_hand), "{in_hand} in hand");
    }
}

#[test]
fn move_accuracy_counts_exactly_the_critical_positions_whose_choice_keeps_the_value() {
    let teacher = Teacher::new(table());
    // A network whose every output is 0 (a draw): its one-ply choice is the first move.
    let sizes = vec![52, 4, 1];
    let zero = Network::from_params(sizes.clone(), vec![0.0; 52 * 4 + 4 + 4 + 1]).unwrap();
    let start = Board::START;
    let moves = start.legal_moves();
    let (first, second) = (moves[0], moves[1]);
    assert_eq!(measures::one_ply_choice(&zero, &teacher, start), Some(first));
    let held = |value, moves: Vec<(Move, Wdl)>| Held { board: start, value, moves };
    let validation = Validation {
        held: vec![
            // Critical, and the first move keeps the draw: counted as kept.
            held(Wdl::Draw, vec![(first, Wdl::Draw), (second, Wdl::Loss)]),
            // Critical, and the first move drops the win: counted as dropped.
            held(Wdl::Win, vec![(first, Wdl::Draw), (second, Wdl::Win)]),
            // Not critical: not counted among the moves.
            held(Wdl::Loss, Vec::new()),
        ],
        keys: std::collections::HashSet::default(),
    };
    let f = measures::figures(&zero, &teacher, &validation);
    assert_eq!(f.critical, 2);
    assert!((f.moves - 0.5).abs() < 1e-12, "{f:?}");
    // Output 0 is the draw class: one of three right; errors 0, 1 and 1.
    assert!((f.values - 1.0 / 3.0).abs() < 1e-12, "{f:?}");
    assert!((f.loss - 2.0 / 3.0).abs() < 1e-9, "{f:?}");
    // A move that wins at once is chosen whatever the network says: the tigers' jump here is
    // the second kill, which ends the 2-kill game.
    let jump: Board = "TS1ST/SSSSS/SSSSS/SSSS1/TSSST t 0".parse().unwrap();
    let m = measures::one_ply_choice(&zero, &teacher, jump).unwrap();
    assert!(teacher.is_over(jump.after_unchecked(m)), "{m}");
}

#[test]
fn a_short_run_lowers_the_validation_loss() {
    let out = temp("learns");
    let s = settings(out.clone(), 4);
    let teacher = Teacher::new(table());
    let validation = validation_set(&s, &teacher);
    let before = measures::figures(
        &Network::with_inputs(s.inputs, &s.hidden, s.seed).unwrap(),
        &teacher,
        &validation,
    );
    let net = train(&s, &AtomicBool::new(false), |_| {}).unwrap();
    let after = measures::figures(&net, &teacher, &validation);
    assert!(after.loss < before.loss * 0.8, "{before:?} -> {after:?}");
    std::fs::remove_dir_all(&out).unwrap();
}

/// `--final-positions 0` asks for no search at the end: the run says so instead of printing
/// "0.0% of 0 critical positions" as if a measure had been taken.
#[test]
fn no_final_positions_measures_no_search_and_says_so() {
    let out = temp("no-final");
    let mut s = settings(out.clone(), 1);
    s.final_positions = 0;
    let mut lines = Vec::new();
    train(&s, &AtomicBool::new(false), |l| lines.push(l.to_owned())).unwrap();
    assert!(!lines.iter().any(|l| l.starts_with("search at")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("--final-positions 0")), "{lines:?}");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_stopped_distillation_resumes_to_the_same_bits() {
    let whole = temp("whole");
    one_thread(|| train(&settings(whole.clone(), 3), &AtomicBool::new(false), |_| {})).unwrap();
    let parts = temp("parts");
    let stop = AtomicBool::new(false);
    one_thread(|| {
        train(&settings(parts.clone(), 3), &stop, |l| {
            if l.starts_with("generation 1:") {
                stop.store(true, Ordering::Relaxed);
            }
        })
    })
    .unwrap();
    assert!(!generation_path(&parts, 2).exists());
    let mut lines = Vec::new();
    one_thread(|| {
        train(&settings(parts.clone(), 3), &AtomicBool::new(false), |l| lines.push(l.to_owned()))
    })
    .unwrap();
    assert!(lines.iter().any(|l| l == "resuming from generation 1 of 3"), "{lines:?}");
    for g in 1..=3 {
        let a = std::fs::read(generation_path(&whole, g)).unwrap();
        let b = std::fs::read(generation_path(&parts, g)).unwrap();
        assert!(a == b, "generation {g} differs");
    }
    for dir in [whole, parts] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// The real game's table (CI builds the movement phase and layers 18 and 19): a short
/// distillation teaches only what the table holds, with its values, and learns.
#[test]
#[ignore = "needs the real table: cargo run --release -p tns-tablebase-cli -- build --from-placed 18"]
fn distils_the_real_tables_last_layers() {
    let dir = std::env::var_os("TNS_TABLEBASE_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tablebase"),
        PathBuf::from,
    );
    let table = Arc::new(Tablebase::load(tns_board::KILLS_TO_WIN, &dir).unwrap());
    let from = table.placement_from().expect("layers 18 and 19 are built");
    assert!(from <= 18, "layers 18 and 19 are built");
    let out = temp("real");
    let mut s = settings(out.clone(), 3);
    s.teacher = Some(Arc::clone(&table));
    s.games = 60;
    s.validation_games = 60;
    let teacher = Teacher::new(table);
    let validation = validation_set(&s, &teacher);
    assert!(validation.critical().count() > 20, "{} critical", validation.critical().count());
    let start = Network::with_inputs(s.inputs, &s.hidden, s.seed).unwrap();
    let before = measures::figures(&start, &teacher, &validation);
    let net = train(&s, &AtomicBool::new(false), |_| {}).unwrap();
    let after = measures::figures(&net, &teacher, &validation);
    assert!(after.loss < before.loss, "{before:?} -> {after:?}");
    let state = RunState::load(&out.join("state.bin"), 0.01).unwrap().unwrap();
    for sample in state.window.iter().flatten() {
        let value = teacher.value(sample.board).unwrap();
        assert_eq!(sample.target.to_bits(), target(value).to_bits());
        // Only what the table answers for: a sheep placement leads into the first layer built.
        assert!(sample.board.in_hand() <= 21 - from, "{}", sample.board);
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn chances_fitted_on_the_small_table_are_calibrated_on_its_held_out_positions() {
    use tns_search::{Calibrated, Evaluator, Heuristic, Limits, Wdl as Result};
    use tns_trainer::calibration;
    let teacher = Teacher::new(table());
    let fit_set = Validation::build(&teacher, 300, 0.05, 300, 11);
    let held_out = Validation::build(&teacher, 100, 0.05, 300, 12);
    assert!(fit_set.held.len() > 500 && held_out.held.len() > 100, "{}", fit_set.held.len());
    let heuristic = Heuristic::default();
    let model = calibration::fit(
        &calibration::samples(&heuristic, &fit_set),
        tns_search::Reading::linear(400.0),
    );
    let fitted = calibration::reliability(&held_out, |b| model.chances(heuristic.evaluate(b), b));
    // A model that knows nothing: the same chances for every position, a win likeliest.
    let blind = calibration::reliability(&held_out, |_| {
        tns_search::Chances::from_probabilities(0.34, 0.33)
    });
    for (f, b) in fitted.iter().zip(&blind).filter(|(f, _)| f.positions > 50) {
        assert_eq!(f.positions, b.positions);
        assert!(f.accuracy() > b.accuracy(), "{} {}", f.accuracy(), b.accuracy());
        assert!(Result::ALL.iter().all(|&w| f.error(w) < 0.5), "{}", f.line("fitted"));
    }
    // The search reads its chances through the same model; they sum to 1,000.
    let calibrated = Calibrated::new(heuristic, Arc::new(model));
    let search = calibration::search_reliability(&calibrated, &held_out, &Limits::depth(2));
    assert_eq!(search.iter().map(|r| r.positions).sum::<usize>(), held_out.held.len());
}
