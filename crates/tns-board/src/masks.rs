//! Compile-time masks for move generation.
//!
//! A mask is a `u32` whose bit `x + 5 * y` stands for point `(x, y)`. Moving every point of a
//! mask one step in a direction is a single shift by that direction's index delta; the source
//! masks below leave out the points for which the shift would leave the board, wrap around a row
//! end, or follow a diagonal that is not drawn.

/// The 25 bits that are points.
pub const BOARD: u32 = (1 << 25) - 1;

/// Number of directions.
pub const DIRECTIONS: usize = 8;

/// The eight directions as `(dx, dy)`: the four orthogonal ones first, then the diagonals.
pub const DIRS: [(i8, i8); DIRECTIONS] =
    [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)];

/// The change of point index for one step in each direction, `dx + 5 * dy`.
pub const DELTAS: [i8; DIRECTIONS] = {
    let mut out = [0; DIRECTIONS];
    let mut d = 0;
    while d < DIRECTIONS {
        out[d] = DIRS[d].0 + 5 * DIRS[d].1;
        d += 1;
    }
    out
};

/// Points from which `distance` steps in direction `d` stay on the board along a drawn line.
const fn sources(d: usize, distance: i8) -> u32 {
    let (dx, dy) = DIRS[d];
    let diagonal = dx != 0 && dy != 0;
    let mut mask = 0;
    let mut i = 0;
    while i < 25 {
        #[expect(clippy::cast_possible_truncation, reason = "a point's column and row, 0 to 4")]
        let (x, y) = ((i % 5) as i8, (i / 5) as i8);
        let (tx, ty) = (x + dx * distance, y + dy * distance);
        let on_board = tx >= 0 && tx < 5 && ty >= 0 && ty < 5;
        if on_board && (!diagonal || (x + y) % 2 == 0) {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask
}

const fn all_sources(distance: i8) -> [u32; DIRECTIONS] {
    let mut out = [0; DIRECTIONS];
    let mut d = 0;
    while d < DIRECTIONS {
        out[d] = sources(d, distance);
        d += 1;
    }
    out
}

/// `STEP_SOURCES[d]`: points from which one step in direction `d` follows a line on the board.
pub const STEP_SOURCES: [u32; DIRECTIONS] = all_sources(1);

/// `JUMP_SOURCES[d]`: points from which two steps in direction `d` follow a line on the board.
pub const JUMP_SOURCES: [u32; DIRECTIONS] = all_sources(2);

/// Moves every point of `mask` by `delta` indices (`delta` is a direction delta or twice one).
///
/// Callers first restrict `mask` to the matching source mask, so no point leaves the board.
#[inline(always)]
pub const fn shift(mask: u32, delta: i8) -> u32 {
    if delta >= 0 { mask << delta } else { mask >> -delta }
}

const fn targets(distance: i8) -> [u32; 25] {
    let mut out = [0; 25];
    let mut i = 0;
    while i < 25 {
        let mut d = 0;
        while d < DIRECTIONS {
            if sources(d, distance) & (1 << i) != 0 {
                out[i] |= shift(1 << i, DELTAS[d] * distance);
            }
            d += 1;
        }
        i += 1;
    }
    out
}

/// `NEIGHBOURS[p]`: the points one step from `p` along a line.
pub const NEIGHBOURS: [u32; 25] = targets(1);

/// `JUMP_TARGETS[p]`: the points two steps from `p` along a straight line.
pub const JUMP_TARGETS: [u32; 25] = targets(2);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbour_counts() {
        // A corner has 3 lines (two edges and a diagonal), the centre 8, an edge midpoint with
        // diagonals 5, and an odd point 4 orthogonal lines at most.
        assert_eq!(NEIGHBOURS[0].count_ones(), 3);
        assert_eq!(NEIGHBOURS[12].count_ones(), 8);
        assert_eq!(NEIGHBOURS[2].count_ones(), 5);
        assert_eq!(NEIGHBOURS[1].count_ones(), 3);
        assert_eq!(NEIGHBOURS[7].count_ones(), 4);
        assert_eq!(JUMP_TARGETS[0], (1 << 2) | (1 << 10) | (1 << 12));
    }

    #[test]
    fn lines_are_symmetric() {
        for a in 0..25 {
            for b in 0..25 {
                assert_eq!(NEIGHBOURS[a] >> b & 1, NEIGHBOURS[b] >> a & 1);
                assert_eq!(JUMP_TARGETS[a] >> b & 1, JUMP_TARGETS[b] >> a & 1);
            }
        }
    }

    #[test]
    #[expect(clippy::cast_possible_truncation, reason = "a point's index, under 25")]
    fn no_wraps() {
        for d in 0..DIRECTIONS {
            for dist in [1, 2] {
                let src = if dist == 1 { STEP_SOURCES[d] } else { JUMP_SOURCES[d] };
                for i in 0..25 {
                    if src >> i & 1 == 1 {
                        let t = i as i8 + DELTAS[d] * dist;
                        let (x, y) = (i as i8 % 5, i as i8 / 5);
                        assert_eq!(t % 5, x + DIRS[d].0 * dist, "x of {i} dir {d}");
                        assert_eq!(t / 5, y + DIRS[d].1 * dist, "y of {i} dir {d}");
                    }
                }
            }
        }
    }
}
