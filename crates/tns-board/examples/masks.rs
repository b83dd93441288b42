//! Prints the move-generation masks as 5×5 diagrams: `cargo run -p tns-board --example masks`.

use tns_board::masks::{DIRECTIONS, DIRS, JUMP_SOURCES, NEIGHBOURS, STEP_SOURCES};

fn diagram(mask: u32) -> [String; 5] {
    std::array::from_fn(|y| {
        (0..5)
            .map(|x| if mask >> (x + 5 * y) & 1 == 1 { "x" } else { "." })
            .collect::<Vec<_>>()
            .join(" ")
    })
}

fn print_row(title: &str, masks: &[(String, u32)]) {
    println!("{title}");
    let pictures: Vec<_> = masks.iter().map(|(_, m)| diagram(*m)).collect();
    for (name, _) in masks {
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
    let name = |d: usize| format!("({:+},{:+})", DIRS[d].0, DIRS[d].1);
    for (title, table) in [("STEP_SOURCES", STEP_SOURCES), ("JUMP_SOURCES", JUMP_SOURCES)] {
        for half in [0..4, 4..DIRECTIONS] {
            let row: Vec<_> = half.map(|d| (name(d), table[d])).collect();
            print_row(title, &row);
        }
    }
    let samples = [("a5", 0), ("b5", 1), ("c5", 2), ("b4", 6), ("c3", 12)];
    print_row("NEIGHBOURS", &samples.map(|(n, i)| (n.to_string(), NEIGHBOURS[i])));
}
