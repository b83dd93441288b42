//! `audit` on records with planted errors, judged by a small table built here: the 1-kill
//! variant's movement table and its last three placement layers.

use tns_bench::audit;
use tns_board::{Board, Game, GameRecord, Move, Side, TOTAL_SHEEP};
use tns_tablebase::Tablebase;

/// Walks randomly from the start to 17 placed without a kill (a kill ends the 1-kill game).
fn opening(seed: u64) -> Option<Board> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut board = Board::START;
    while TOTAL_SHEEP - board.in_hand() < 17 || board.side_to_move() == Side::Tiger {
        let moves: Vec<Move> =
            board.legal_moves().iter().copied().filter(|&m| !m.is_jump()).collect();
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let pick = usize::try_from(state % moves.len().max(1) as u64).expect("a move's index");
        board = board.after_unchecked(*moves.get(pick)?);
    }
    Some(board)
}

/// Plays from `start`, planting an error (a move worse than the best, where there is one) at
/// every ply in `plant`, and the best move elsewhere. Returns the record and the errors planted:
/// (ply, side, phase: 0 placement, 1 movement).
fn planted_game(
    table: &Tablebase,
    start: Board,
    plant: &[usize],
) -> (GameRecord, Vec<(usize, usize, usize)>) {
    let mut game = Game::from_position(start);
    let mut planted = Vec::new();
    for ply in 1..=16 {
        let board = game.board();
        if board.dead() >= table.kills() || game.outcome().is_some() {
            break;
        }
        let Ok(verdicts) = table.verdicts(board) else { break };
        let Some(&(best_move, best)) = verdicts.first() else { break };
        let worse = verdicts.iter().find(|(_, v)| v.wdl < best.wdl);
        let m = match worse {
            Some(&(m, _)) if plant.contains(&ply) => {
                planted.push((
                    ply,
                    board.side_to_move() as usize,
                    usize::from(board.in_hand() == 0),
                ));
                m
            }
            _ => best_move,
        };
        game.play(m).unwrap();
    }
    (GameRecord::from_game(&game, "sheep player", "tiger player"), planted)
}

#[test]
fn audit_counts_exactly_the_planted_errors() {
    let dir = std::env::temp_dir().join(format!("tns-audit-{}", std::process::id()));
    let mut table = Tablebase::build(1, Some(&dir), |_| {}).unwrap();
    table.build_placement(&dir, 17, &|_| {}).unwrap();

    let mut text = String::new();
    let mut want = [[0u64; 2]; 2];
    let mut firsts = Vec::new();
    let plans: [&[usize]; 6] = [&[], &[1, 2], &[3, 4], &[5, 6], &[1, 7, 8], &[2, 9, 10]];
    let mut games = 0;
    for seed in 0..200 {
        let Some(start) = opening(seed) else { continue };
        let plan = plans[games % plans.len()];
        let (mut record, planted) = planted_game(&table, start, plan);
        // Every other game opens with two plies that are nobody's: their errors do not count.
        let opening = if games % 2 == 1 { 2 } else { 0 };
        record.set_tag("Opening", &opening.to_string()).expect("a valid tag name");
        let mut first = [None; 2];
        for &(ply, side, phase) in planted.iter().filter(|p| p.0 > opening) {
            want[side][phase] += 1;
            first[side].get_or_insert(ply);
        }
        for (side, ply) in first.iter().enumerate() {
            if let Some(&ply) = ply.as_ref() {
                firsts.push((games + 1, side, ply));
            }
        }
        text.push_str(&record.to_string());
        text.push('\n');
        games += 1;
        if games == 48 {
            break;
        }
    }
    assert_eq!(games, 48);
    assert!(want.iter().flatten().sum::<u64>() >= 12, "too few errors planted: {want:?}");

    let records = GameRecord::parse_all(&text).unwrap();
    let report = audit(&records, &table).unwrap();
    assert_eq!(report.games, 48);
    for (side, name) in [(0, "sheep player"), (1, "tiger player")] {
        let p = &report.players[name];
        assert_eq!([p.placement_errors, p.movement_errors], want[side], "{name}");
        assert_eq!(p.unchecked, 0);
        assert_eq!(p.games, 48);
    }
    let found: Vec<(usize, usize, usize)> =
        report.first_errors.iter().map(|e| (e.game, e.side as usize, e.ply)).collect();
    firsts.sort_unstable();
    let mut found_sorted = found.clone();
    found_sorted.sort_unstable();
    assert_eq!(found_sorted, firsts);
    assert!(report.to_string().contains("sheep player"));
    std::fs::remove_dir_all(&dir).unwrap();
}
