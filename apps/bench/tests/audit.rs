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
        board =
            board.after_move_unchecked(*moves.get((state % moves.len().max(1) as u64) as usize)?);
    }
    Some(board)
}

/// Plays from `start`, planting an error (a move worse than the best, where there is one) at
/// every ply in `plant`, and the best move elsewhere. Returns the record and, by side and phase
/// (placement, movement), the errors planted, with each side's first error ply.
fn planted_game(
    table: &Tablebase,
    start: Board,
    plant: &[usize],
) -> (GameRecord, [[u64; 2]; 2], [Option<usize>; 2]) {
    let mut game = Game::from_position(start);
    let mut planted = [[0u64; 2]; 2];
    let mut first = [None; 2];
    for ply in 1..=16 {
        let board = game.board();
        if board.dead() >= table.kills() || game.outcome().is_some() {
            break;
        }
        let Some(verdicts) = table.verdicts(board) else { break };
        let Some(&(best_move, best)) = verdicts.first() else { break };
        let worse = verdicts.iter().find(|(_, v)| v.wdl < best.wdl);
        let m = match worse {
            Some(&(m, _)) if plant.contains(&ply) => {
                let seat = board.side_to_move() as usize;
                planted[seat][usize::from(board.in_hand() == 0)] += 1;
                first[seat].get_or_insert(ply);
                m
            }
            _ => best_move,
        };
        game.play(m).unwrap();
    }
    (GameRecord::from_game(&game, "sheep player", "tiger player"), planted, first)
}

#[test]
fn audit_counts_exactly_the_planted_errors() {
    let dir = std::env::temp_dir().join(format!("tns-audit-{}", std::process::id()));
    let mut table = Tablebase::build(1, Some(&dir), |_| {}).unwrap();
    table.build_placement(&dir, 17, &|_| {}).unwrap();

    let mut text = String::new();
    let mut want = [[0u64; 2]; 2];
    let mut firsts = Vec::new();
    let plans: [&[usize]; 4] = [&[], &[1, 2, 5], &[3, 4, 7, 8], &[2, 9, 10, 11, 12]];
    let mut games = 0;
    for seed in 0..40 {
        let Some(start) = opening(seed) else { continue };
        let plan = plans[games % plans.len()];
        let (record, planted, first) = planted_game(&table, start, plan);
        for side in 0..2 {
            for phase in 0..2 {
                want[side][phase] += planted[side][phase];
            }
            if let Some(ply) = first[side] {
                firsts.push((games + 1, side, ply));
            }
        }
        text.push_str(&record.to_string());
        text.push('\n');
        games += 1;
        if games == 12 {
            break;
        }
    }
    assert_eq!(games, 12);
    assert!(want.iter().flatten().sum::<u64>() >= 10, "too few errors planted: {want:?}");

    let records = GameRecord::parse_all(&text).unwrap();
    let report = audit(&records, &table);
    assert_eq!(report.games, 12);
    for (side, name) in [(0, "sheep player"), (1, "tiger player")] {
        let p = &report.players[name];
        assert_eq!([p.placement_errors, p.movement_errors], want[side], "{name}");
        assert_eq!(p.unchecked, 0);
        assert_eq!(p.games, 12);
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
