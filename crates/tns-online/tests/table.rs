//! The rules of an online game: turns, moves, clocks, offers, claims and rematches.

use std::time::Duration;

use tns_board::Side;
use tns_online::{
    ClockTimes, Event, EventKind, Finish, GameId, Reason, Refusal, RefusalKind, RematchStep, Seat,
    Table,
};

const MINUTE: Duration = Duration::from_secs(60);

fn id() -> GameId {
    "abcdefghij".parse().unwrap()
}

fn table(sheep: Seat, tigers: Seat, clock: Option<&str>) -> Table {
    let created = Table::created(sheep, tigers, clock).unwrap();
    Table::replay(id(), vec![Event { version: 1, at: 0, kind: created }]).unwrap()
}

/// Commits `kinds` at `at`, as the server does once the store has them.
fn commit(table: &mut Table, kinds: Vec<EventKind>, at: u64) {
    for kind in kinds {
        let version = table.version() + 1;
        table.apply(Event { version, at, kind }).unwrap();
    }
}

fn play(table: &mut Table, side: Side, mv: &str, at: u64) {
    let events = table.play(side, mv, at).unwrap();
    commit(table, events, at);
}

#[test]
fn each_side_moves_in_turn_and_only_legal_moves() {
    let mut t = table(Seat::Friend, Seat::Friend, None);
    assert_eq!(t.play(Side::Tiger, "a5b4", 1), Err(Refusal::NotYourTurn { turn: Side::Sheep }));
    let bad = t.play(Side::Sheep, "zz", 1).unwrap_err();
    assert!(matches!(bad, Refusal::NotAMove { .. }), "{bad:?}");
    assert_eq!(bad.kind(), RefusalKind::Invalid);
    let illegal = t.play(Side::Sheep, "a5", 1).unwrap_err();
    assert!(matches!(illegal, Refusal::Illegal { .. }), "{illegal:?}");
    play(&mut t, Side::Sheep, "c3", 1);
    play(&mut t, Side::Tiger, "a5b4", 2);
    let view = t.view(3);
    assert_eq!(view.moves, ["c3", "a5b4"]);
    assert_eq!(view.turn, Side::Sheep);
    assert_eq!(view.version, 3);
    assert_eq!(view.result, None);
    assert_eq!(view.clock, None);
}

#[test]
fn resigning_ends_the_game_and_nothing_moves_after() {
    let mut t = table(Seat::Friend, Seat::Server("easy".into()), None);
    let end = t.resign(Side::Sheep, 5).unwrap();
    commit(&mut t, vec![end], 5);
    let result = Finish { winner: Some(Side::Tiger), reason: Reason::Resignation };
    assert_eq!(t.finish(), Some(result));
    let refused = t.play(Side::Sheep, "c3", 6).unwrap_err();
    assert_eq!(refused, Refusal::Over { result: "tigers win (resignation)".into() });
    assert_eq!(refused.kind(), RefusalKind::Conflict);
    assert!(t.resign(Side::Tiger, 6).is_err());
    assert!(!t.server_to_move());
}

#[test]
fn clocks_start_with_the_first_move_and_add_the_increment() {
    let mut t = table(Seat::Friend, Seat::Friend, Some("1+2"));
    // The sheep's first move costs nothing: no clock runs yet.
    play(&mut t, Side::Sheep, "c3", 50_000);
    assert_eq!(t.view(50_000).clock.unwrap().running, Some(Side::Tiger));
    // The tigers take 10 s: 60 - 10 + 2.
    play(&mut t, Side::Tiger, "a5b4", 60_000);
    let clock = t.view(60_000).clock.unwrap();
    assert_eq!((clock.sheep, clock.tigers, clock.running), (60_000, 52_000, Some(Side::Sheep)));
    // The sheep's clock runs down while they think, and the view says so.
    assert_eq!(t.view(70_000).clock.unwrap().sheep, 50_000);
    assert_eq!(t.due(119_999, MINUTE), None);
    let Some(EventKind::End { result, clock }) = t.due(120_000, MINUTE) else {
        panic!("the sheep's flag fell")
    };
    assert_eq!(result, Finish { winner: Some(Side::Tiger), reason: Reason::TimeForfeit });
    assert_eq!(clock, Some(ClockTimes { sheep: 0, tigers: 52_000 }));
}

#[test]
fn a_restart_charges_the_side_to_move_up_to_the_last_heartbeat() {
    let mut t = table(Seat::Friend, Seat::Friend, Some("1+0"));
    play(&mut t, Side::Sheep, "c3", 0);
    play(&mut t, Side::Tiger, "a5b4", 1_000);
    // The sheep's clock ran 5 s before the server's last heartbeat, then the server was down
    // for a minute and a half.
    let resumed = t.resume(6_000).unwrap();
    assert_eq!(resumed, EventKind::Resumed { clock: ClockTimes { sheep: 55_000, tigers: 59_000 } });
    commit(&mut t, vec![resumed], 96_000);
    assert_eq!(t.view(96_000).clock.unwrap().sheep, 55_000);
    assert_eq!(t.view(100_000).clock.unwrap().sheep, 51_000);
    assert_eq!(t.due(96_000, MINUTE), None);
    // No clock, no event.
    let untimed = table(Seat::Friend, Seat::Friend, None);
    assert_eq!(untimed.resume(6_000), None);
}

#[test]
fn a_draw_is_offered_declined_by_a_move_and_agreed() {
    let mut t = table(Seat::Friend, Seat::Friend, None);
    let offer = t.draw(Side::Sheep, 1).unwrap();
    assert_eq!(offer, EventKind::DrawOffer { side: Side::Sheep });
    commit(&mut t, vec![offer], 1);
    assert_eq!(t.draw(Side::Sheep, 2), Err(Refusal::AlreadyOffered));
    assert_eq!(t.view(2).draw_offer, Some(Side::Sheep));
    play(&mut t, Side::Sheep, "c3", 3);
    // The sheep's own move keeps their offer; the tigers' move declines it.
    assert_eq!(t.view(3).draw_offer, Some(Side::Sheep));
    play(&mut t, Side::Tiger, "a5b4", 4);
    assert_eq!(t.view(4).draw_offer, None);
    let event = t.draw(Side::Tiger, 5).unwrap();
    commit(&mut t, vec![event], 5);
    let event = t.draw(Side::Sheep, 6).unwrap();
    commit(&mut t, vec![event], 6);
    assert_eq!(t.finish(), Some(Finish { winner: None, reason: Reason::Agreement }));
}

#[test]
fn the_win_is_claimed_only_against_a_person_gone_long_enough() {
    let t = table(Seat::Friend, Seat::Friend, None);
    assert_eq!(t.claim(Side::Sheep, None, MINUTE, 0), Err(Refusal::NotGone { seconds: 60 }));
    let early = t.claim(Side::Sheep, Some(Duration::from_millis(59_001)), MINUTE, 0);
    assert_eq!(early, Err(Refusal::NotGone { seconds: 1 }));
    let Ok(EventKind::End { result, .. }) = t.claim(Side::Sheep, Some(MINUTE), MINUTE, 0) else {
        panic!("a claim after a minute")
    };
    assert_eq!(result, Finish { winner: Some(Side::Sheep), reason: Reason::Abandoned });
    let against_server = table(Seat::Friend, Seat::Server("easy".into()), None);
    assert_eq!(
        against_server.claim(Side::Sheep, Some(MINUTE), MINUTE, 0),
        Err(Refusal::NotAPerson)
    );
}

#[test]
fn a_game_nobody_plays_expires() {
    let mut t = table(Seat::Friend, Seat::Friend, None);
    assert_eq!(t.due(59_999, MINUTE), None);
    let Some(EventKind::End { result, .. }) = t.due(60_000, MINUTE) else { panic!("expired") };
    assert_eq!(result, Finish { winner: None, reason: Reason::Expired });
    play(&mut t, Side::Sheep, "c3", 1);
    play(&mut t, Side::Tiger, "a5b4", 2);
    assert_eq!(t.due(10 * 60_000, MINUTE), None, "a game both sides played does not expire");
}

#[test]
fn a_rematch_needs_both_and_swaps_the_sides() {
    let mut t = table(Seat::Friend, Seat::Friend, Some("5+3"));
    assert_eq!(t.ask_rematch(Side::Sheep), Err(Refusal::NotOver));
    let event = t.resign(Side::Sheep, 1).unwrap();
    commit(&mut t, vec![event], 1);
    let Ok(RematchStep::Ask(ask)) = t.ask_rematch(Side::Sheep) else { panic!("asked") };
    commit(&mut t, vec![ask], 2);
    assert_eq!(t.ask_rematch(Side::Sheep), Err(Refusal::AlreadyOffered));
    assert_eq!(t.ask_rematch(Side::Tiger), Ok(RematchStep::Make));
    let created = t.rematch_created();
    assert_eq!(
        created,
        EventKind::Created { sheep: Seat::Friend, tigers: Seat::Friend, clock: Some("5+3".into()) }
    );
    let new: GameId = "ABCDEFGHIJ".parse().unwrap();
    commit(&mut t, vec![EventKind::Rematch { game: new }], 3);
    assert_eq!(t.ask_rematch(Side::Tiger), Err(Refusal::RematchMade { game: new }));
    // Against the server's player, the rematch is made at once, the seats swapped.
    let mut t = table(Seat::Friend, Seat::Server("easy".into()), None);
    let event = t.resign(Side::Sheep, 1).unwrap();
    commit(&mut t, vec![event], 1);
    assert_eq!(t.ask_rematch(Side::Sheep), Ok(RematchStep::Make));
    let EventKind::Created { sheep, tigers, .. } = t.rematch_created() else { panic!() };
    assert_eq!((sheep, tigers), (Seat::Server("easy".into()), Seat::Friend));
}

#[test]
fn new_games_need_a_friend_and_an_online_clock() {
    let easy = || Seat::Server("easy".into());
    assert_eq!(Table::created(easy(), easy(), None), Err(Refusal::NoFriend));
    for bad in ["fast", "40/5+3", "-1+0"] {
        let refused = Table::created(Seat::Friend, easy(), Some(bad)).unwrap_err();
        assert!(matches!(refused, Refusal::BadClock(_)), "{bad}: {refused:?}");
    }
    let created = Table::created(Seat::Friend, easy(), Some(" 5 + 3 ")).unwrap();
    assert!(matches!(created, EventKind::Created { clock: Some(c), .. } if c == "5+3"));
}

#[test]
fn events_that_do_not_follow_are_refused_on_replay() {
    let created = Table::created(Seat::Friend, Seat::Friend, None).unwrap();
    let first = Event { version: 1, at: 0, kind: created };
    let mv = |version, side, mv: &str| Event {
        version,
        at: 1,
        kind: EventKind::Move { side, mv: mv.into(), clock: None },
    };
    for events in [
        vec![],
        vec![mv(1, Side::Sheep, "c3")],
        vec![first.clone(), mv(3, Side::Sheep, "c3")],
        vec![first.clone(), mv(2, Side::Tiger, "a5b4")],
        vec![first.clone(), mv(2, Side::Sheep, "a5")],
        vec![first.clone(), first.clone()],
    ] {
        assert!(Table::replay(id(), events.clone()).is_err(), "{events:?}");
    }
    let t = Table::replay(id(), vec![first, mv(2, Side::Sheep, "c3")]).unwrap();
    assert_eq!(t.events_after(1).len(), 1);
    assert_eq!(t.events_after(5).len(), 0);
}
