//! Prints where pieces can go from a few points, as 5×5 diagrams, from tns-board's typed
//! helpers: `cargo run -p tns-board --example masks`.

use tns_board::{Bitboard, Point};

fn diagram(set: Bitboard) -> [String; 5] {
    std::array::from_fn(|y| {
        (0..5)
            .map(|x| match u8::try_from(y).ok().and_then(|y| Point::new(x, y)) {
                Some(p) if set.contains(p) => "x",
                _ => ".",
            })
            .collect::<Vec<_>>()
            .join(" ")
    })
}

fn print_row(title: &str, sets: &[(String, Bitboard)]) {
    println!("{title}");
    let pictures: Vec<_> = sets.iter().map(|(_, s)| diagram(*s)).collect();
    for (name, _) in sets {
        print!("{name:<11}");
    }
    println!();
    for y in 0..5 {
        for p in &pictures {
            print!("{:<11}", p[y]);
        }
        println!();
    }
    println!();
}

fn main() {
    let points = [Point::A5, Point::B5, Point::C5, Point::B4, Point::C3];
    let row = |f: fn(Point) -> Bitboard| -> Vec<(String, Bitboard)> {
        points.iter().map(|&p| (p.to_string(), f(p))).collect()
    };
    print_row("Point::neighbours (steps)", &row(Point::neighbours));
    print_row("Point::jump_targets (jumps)", &row(Point::jump_targets));
    print_row("Bitboard::EDGE", &[("edge".into(), Bitboard::EDGE)]);
}
