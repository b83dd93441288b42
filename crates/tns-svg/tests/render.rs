//! The pictures rendered to pixels by a real SVG renderer (resvg), and the pixels checked: a
//! tiger's colour where a tiger stands, a sheep's where a sheep does, neither on empty points.

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{Options, Tree};
use tns_board::{Board, Game, Point};
use tns_svg::{Picture, animated, position, strip};

fn render(svg: &str) -> Pixmap {
    let tree = Tree::from_str(svg, &Options::default()).expect("the SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    pixmap
}

/// The colour at the centre of point `p` of the board drawn at (`dx`, `dy`).
fn colour_at(pixmap: &Pixmap, p: Point, dx: u32, dy: u32) -> (u8, u8, u8) {
    let x = dx + M + 80 * u32::from(p.x());
    let y = dy + M + 80 * u32::from(p.y());
    // Sample a little off the centre, clear of the lines through it (along the rows, the
    // columns and the diagonals) and of an empty point's dot, but inside a piece.
    let c = pixmap.pixel(x + 9, y + 4).unwrap();
    (c.red(), c.green(), c.blue())
}

/// The margin round the points.
const M: u32 = 64;
/// The side of one board.
const SIZE: u32 = 2 * M + 4 * 80;

const TIGER: (u8, u8, u8) = (0xe0, 0x7b, 0x00);
const SHEEP: (u8, u8, u8) = (0xff, 0xff, 0xff);
const BACKGROUND: (u8, u8, u8) = (0xf3, 0xe6, 0xc8);

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

#[test]
fn pieces_are_where_the_position_says() {
    let board: Board = "T3T/1S3/2S2/5/T3T t 18".parse().unwrap();
    let pixmap = render(&position(board, &Picture::default()));
    for point in Point::all() {
        let expected = match board.piece_at(point) {
            Some(tns_board::Side::Tiger) => TIGER,
            Some(tns_board::Side::Sheep) => SHEEP,
            None => BACKGROUND,
        };
        assert_eq!(colour_at(&pixmap, point, 0, 0), expected, "{point}");
    }
}

#[test]
fn arrows_and_the_last_move_are_drawn() {
    let board: Board = "T3T/5/2S2/5/T3T t 19".parse().unwrap();
    let plain = render(&position(board, &Picture::default()));
    let marked = Picture {
        last_move: Some("c3".parse().unwrap()),
        arrows: vec!["e1d2".parse().unwrap()],
        ..Picture::default()
    };
    let drawn = render(&position(board, &marked));
    // Halfway along e1-d2 the arrow's blue covers the board.
    let (x, y) = ((M + 80 * 4 + M + 80 * 3) / 2, (M + 80 * 4 + M + 80 * 3) / 2);
    let (before, after) = (plain.pixel(x, y).unwrap(), drawn.pixel(x, y).unwrap());
    assert!(after.blue() > after.red() && before.blue() < before.red(), "{after:?} {before:?}");
    // The ring of the last move, 31 px from c3's centre.
    let ring = drawn.pixel(M + 160 + 31, M + 160).unwrap();
    assert!(ring.green() > ring.red(), "{ring:?}");
}

#[test]
fn a_strip_shows_every_position_and_an_animation_ends_on_the_last() {
    let mut game = Game::new();
    for m in ["c3", "a5b4", "b5"] {
        game.play(m.parse().unwrap()).unwrap();
    }
    let svg = strip(&game, 2);
    let pixmap = render(&svg);
    // Four positions, two a row: the start has c3 empty; the second picture has a sheep there
    // and a tiger on b4; the fourth has a sheep on b5.
    let caption = 24;
    let (w, h) = (SIZE, SIZE + caption);
    assert_eq!((pixmap.width(), pixmap.height()), (2 * w, 2 * h));
    assert_eq!(colour_at(&pixmap, p("c3"), 0, caption), BACKGROUND);
    assert_eq!(colour_at(&pixmap, p("c3"), w, caption), SHEEP);
    assert_eq!(colour_at(&pixmap, p("b4"), 0, h + caption), TIGER);
    assert_eq!(colour_at(&pixmap, p("b5"), w, h + caption), SHEEP);
    assert_eq!(colour_at(&pixmap, p("b5"), 0, h + caption), BACKGROUND);

    let svg = animated(&game, 0.5);
    assert_eq!(svg.matches("<animate ").count(), 4);
    assert!(svg.contains(r#"dur="2s""#));
    let still = render(&svg);
    assert_eq!(colour_at(&still, p("b5"), 0, 0), SHEEP);
    assert_eq!(colour_at(&still, p("a5"), 0, 0), BACKGROUND, "the tiger left a5");
}

#[test]
fn a_position_has_a_status_band_under_the_board() {
    // The status line is a band below the board, in the board's colour: the picture is taller
    // by it (its words are checked in the SVG itself: the renderer here has no fonts).
    let board: Board = "T3T/1S3/2S2/5/T3T t 18".parse().unwrap();
    let with = render(&position(board, &Picture::default()));
    let without = render(&position(board, &Picture { status: false, ..Picture::default() }));
    assert_eq!((without.width(), without.height()), (SIZE, SIZE));
    assert_eq!((with.width(), with.height()), (SIZE, SIZE + 36));
    let c = with.pixel(5, SIZE + 30).unwrap();
    assert_eq!((c.red(), c.green(), c.blue()), BACKGROUND);
}

proptest::proptest! {
    /// Whatever time a ply is given, the animation's durations are plain numbers a viewer
    /// reads: no infinity, no NaN, no hundreds of digits.
    #[test]
    fn an_animations_durations_are_always_readable(seconds in proptest::num::f64::ANY) {
        let mut game = tns_board::Game::new();
        for m in ["c3", "a5b5", "c2"] {
            game.play(m.parse().unwrap()).unwrap();
        }
        let svg = tns_svg::animated(&game, seconds);
        for dur in svg.split("dur=\"").skip(1) {
            let value = &dur[..dur.find('"').unwrap()];
            let number: f64 = value.strip_suffix('s').unwrap().parse().unwrap();
            proptest::prop_assert!(number.is_finite() && number > 0.0 && value.len() < 16, "{value}");
        }
    }
}
