//! Property tests over random reachable positions and random strings.

use std::collections::HashSet;

use proptest::prelude::*;
use tns_board::{
    Board, Game, GameRecord, KILLS_TO_WIN, Move, Point, RecordResult, Symmetry, TOTAL_SHEEP,
};

/// A position reached by playing random legal moves from the start: each byte picks a move.
fn play_random(choices: &[u8]) -> Vec<Board> {
    let mut boards = vec![Board::START];
    let mut board = Board::START;
    for &c in choices {
        let moves = board.legal_moves();
        if moves.is_empty() {
            break;
        }
        board = board.after_unchecked(moves[c as usize % moves.len()]);
        boards.push(board);
    }
    boards
}

fn reachable() -> impl Strategy<Value = Board> {
    prop::collection::vec(any::<u8>(), 0..120).prop_map(|c| *play_random(&c).last().unwrap())
}

/// Every move that can be written down: all placements, steps and jumps between any points.
fn candidates() -> Vec<Move> {
    let mut out: Vec<Move> = Point::all().map(Move::Place).collect();
    for from in Point::all() {
        for to in Point::all() {
            out.push(Move::Step { from, to });
            out.push(Move::Jump { from, to });
        }
    }
    out
}

fn move_set(board: Board) -> HashSet<Move> {
    board.legal_moves().iter().copied().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn check_move_agrees_with_generation(board in reachable()) {
        let legal = move_set(board);
        prop_assert_eq!(legal.len(), board.legal_moves().len(), "duplicate moves");
        for m in candidates() {
            prop_assert_eq!(board.check_move(m).is_ok(), legal.contains(&m), "{} in {}", m, board);
        }
        prop_assert_eq!(board.count_moves() as usize, legal.len());
        prop_assert_eq!(board.has_moves(), !legal.is_empty());
    }

    #[test]
    fn tiger_moves_counts_the_tigers_move_list(board in reachable()) {
        // Whoever is to move, the count is the length of the tigers' list in the same place
        // (while the game goes on: a won game has no moves to list).
        prop_assume!(board.dead() < tns_board::KILLS_TO_WIN);
        let tigers = if board.side_to_move() == tns_board::Side::Tiger {
            board
        } else {
            board.with_side_flipped()
        };
        prop_assert_eq!(board.tiger_moves() as usize, tigers.legal_moves().len());
    }

    #[test]
    fn jumps_come_first(board in reachable()) {
        let moves = board.legal_moves();
        let first_step = moves.iter().position(|m| !m.is_jump()).unwrap_or(moves.len());
        prop_assert!(moves[first_step..].iter().all(|m| !m.is_jump()));
    }

    #[test]
    fn generation_commutes_with_symmetry(board in reachable()) {
        let moves = move_set(board);
        for s in Symmetry::ALL {
            let image: HashSet<Move> = moves.iter().map(|&m| s.apply_move(m)).collect();
            prop_assert_eq!(move_set(board.transformed(s)), image, "{}", s);
            prop_assert_eq!(board.transformed(s).transformed(s.inverse()), board);
        }
    }

    #[test]
    fn canonical_is_shared(board in reachable()) {
        let (canon, sym) = board.canonical();
        prop_assert_eq!(board.transformed(sym), canon);
        for s in Symmetry::ALL {
            let image = board.transformed(s);
            prop_assert_eq!(image.canonical().0, canon);
            prop_assert!(canon.key() <= image.key());
        }
    }

    #[test]
    fn invariants_along_games(choices in prop::collection::vec(any::<u8>(), 0..200)) {
        let boards = play_random(&choices);
        for pair in boards.windows(2) {
            let (before, after) = (pair[0], pair[1]);
            prop_assert_eq!(after.side_to_move(), before.side_to_move().other());
            prop_assert!(after.dead() >= before.dead());
            prop_assert!(after.in_hand() <= before.in_hand());
        }
        for b in boards {
            prop_assert_eq!(b.tigers().len(), 4);
            prop_assert!((b.tigers() & b.sheep()).is_empty());
            prop_assert_eq!(
                u32::from(b.sheep_on_board()) + u32::from(b.in_hand()) + u32::from(b.dead()),
                u32::from(TOTAL_SHEEP)
            );
            prop_assert!(b.dead() <= KILLS_TO_WIN);
            prop_assert_eq!(Board::from_key(b.key()), Ok(b));
        }
    }

    #[test]
    fn position_notation_round_trips(board in reachable()) {
        prop_assert_eq!(board.to_string().parse::<Board>(), Ok(board));
    }

    #[test]
    fn move_notation_round_trips(board in reachable()) {
        for &m in &board.legal_moves() {
            prop_assert_eq!(m.to_string().parse::<Move>(), Ok(m));
        }
    }

    #[test]
    fn record_round_trips(
        choices in prop::collection::vec(any::<u8>(), 0..150),
        sheep in ".{0,12}",
        tiger in "[a-z \"\\\\]{0,12}",
        tags in prop::collection::vec(("(Event|Site|Date|Round|Termination|[A-Za-z_][A-Za-z0-9_]{0,8})", "\\PC{0,10}"), 0..6),
    ) {
        let mut game = Game::new();
        for c in choices {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[c as usize % moves.len()]).unwrap();
        }
        let mut record = GameRecord::from_game(&game, &sheep, &tiger);
        prop_assert_eq!(record.result == RecordResult::Unfinished, game.outcome().is_none());
        for (name, value) in &tags {
            // Names the record writes itself are refused; every other is kept, in order.
            let reserved = ["Position", "Result", "White", "Black"].contains(&name.as_str());
            prop_assert_eq!(record.set_tag(name, value).is_err(), reserved);
        }
        let parsed: GameRecord = record.to_string().parse().unwrap();
        prop_assert_eq!(&parsed, &record);
        prop_assert_eq!(parsed.replay().unwrap(), game);
    }

    #[test]
    fn parsing_never_panics(s in "\\PC{0,40}") {
        let _ = s.parse::<Point>();
        let _ = s.parse::<Move>();
        let _ = s.parse::<Board>();
        let _ = s.parse::<GameRecord>();
    }

    #[test]
    fn parsing_near_misses_never_panics(
        s in "[TSts0-9/ ]{0,30}( [st] [0-9]{1,3})?",
        r in "(\\[[A-Za-z]{1,6} \"[^\"\n]{0,10}\"\\]\n){0,3}\n?([0-9]{1,2}\\.{1,3} )?([a-f][0-6]){1,2}( [a-f][0-6]{1,4}){0,6}",
    ) {
        let _ = s.parse::<Board>();
        let _ = r.parse::<GameRecord>();
    }
}
