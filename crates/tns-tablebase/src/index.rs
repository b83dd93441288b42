//! Indexing: every movement-phase position, up to symmetry, as a dense number.
//!
//! A position with no sheep in hand is its tiger set `T` (4 points) and its empty set `E` (the
//! points of the other 21 that hold no sheep: one more than the dead sheep). The 12,650 tiger sets
//! fall into classes under the 8 symmetries; each class has a representative, the image with the
//! smallest bits. A position is indexed in its class's frame: `class * C(21, e) + rank(E')`,
//! where `E'` is the empty set moved by a symmetry that takes `T` to the representative, ranked
//! among the representative's 21 free points in the combinatorial number system. When several
//! symmetries take `T` to the representative (a symmetric tiger set), the smallest rank wins, so
//! each symmetry class of positions has exactly one index. Slots that no class uses are marked
//! unused.

use tns_board::{Bitboard, Board, Side, Symmetry};

/// Points on the board.
const POINTS: usize = 25;
/// Points not holding a tiger.
pub(crate) const FREE: usize = 21;
/// Tiger sets: C(25, 4).
const TIGER_SETS: usize = 12_650;

/// `BINOMIAL[n][k]` = C(n, k) for n ≤ 25 and k ≤ 5.
const BINOMIAL: [[u32; 6]; POINTS + 1] = {
    let mut t = [[0u32; 6]; POINTS + 1];
    let mut n = 0;
    while n <= POINTS {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 5 {
            t[n][k] = if n == 0 { 0 } else { t[n - 1][k - 1] + t[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    t
};

/// C(n, k) for n ≤ 25, k ≤ 5.
#[inline]
pub(crate) fn binomial(n: usize, k: usize) -> usize {
    BINOMIAL[n][k] as usize
}

/// The rank of a set of points among all sets of its size, in the combinatorial number system:
/// the sum of `C(c_i, i + 1)` over its members `c_0 < c_1 < ...`, each an index below 32.
#[inline]
fn rank_bits(mut bits: u32) -> usize {
    let mut rank = 0;
    let mut i = 1;
    while bits != 0 {
        rank += BINOMIAL[bits.trailing_zeros() as usize][i] as usize;
        bits &= bits - 1;
        i += 1;
    }
    rank
}

/// The set of `k` indices whose rank is `rank` (the inverse of [`rank_bits`]).
fn unrank_bits(mut rank: usize, k: usize, n: usize) -> u32 {
    let mut bits = 0;
    let mut top = n;
    for i in (1..=k).rev() {
        // The largest c below `top` with C(c, i) <= rank.
        let mut c = top - 1;
        while binomial(c, i) > rank {
            c -= 1;
        }
        rank -= binomial(c, i);
        bits |= 1 << c;
        top = c;
    }
    bits
}

/// Gathers the bits of `value` at the positions set in `mask` into the low bits, in order
/// (a portable `pext`).
#[inline]
fn gather(value: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if value & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    out
}

/// The inverse of [`gather`]: spreads the low bits of `value` over the positions of `mask`.
#[inline]
fn scatter(mut value: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if value & 1 != 0 {
            out |= low;
        }
        value >>= 1;
        mask &= mask - 1;
    }
    out
}

/// One tiger set's place among the classes.
#[derive(Clone, Copy, Debug, Default)]
struct TigerEntry {
    /// The class of the set.
    class: u16,
    /// Bit `s` is set when symmetry `s` maps the set to its class's representative.
    to_rep: u8,
}

/// Ranks and unranks positions with no sheep in hand. Built once (a few milliseconds) and
/// shared by every slice.
#[derive(Debug)]
pub(crate) struct Indexer {
    /// By the rank of a tiger set.
    tiger: Vec<TigerEntry>,
    /// By class: the representative tiger set.
    reps: Vec<u32>,
}

impl Indexer {
    pub(crate) fn new() -> Indexer {
        let mut tiger = vec![TigerEntry::default(); TIGER_SETS];
        let mut reps = Vec::new();
        for rank in 0..TIGER_SETS {
            let set = Bitboard::from_bits_truncate(unrank_bits(rank, 4, POINTS));
            let images = Symmetry::ALL.map(|s| s.apply_bitboard(set).bits());
            let rep = *images.iter().min().unwrap_or(&set.bits());
            let mut to_rep = 0u8;
            for (s, &image) in images.iter().enumerate() {
                if image == rep {
                    to_rep |= 1 << s;
                }
            }
            let rep_rank = rank_bits(rep);
            let class = if rep_rank == rank {
                reps.push(rep);
                reps.len() - 1
            } else {
                // The representative has a smaller rank, so its class is already numbered.
                tiger[rep_rank].class as usize
            };
            tiger[rank] = TigerEntry { class: class as u16, to_rep };
        }
        Indexer { tiger, reps }
    }

    /// The number of tiger-set classes.
    pub(crate) fn classes(&self) -> usize {
        self.reps.len()
    }

    /// Slots per side in the slice with `empties` empty points.
    pub(crate) fn slice_len(&self, empties: usize) -> usize {
        self.classes() * binomial(FREE, empties)
    }

    /// The index of `board` (no sheep in hand) in its slice, and how many symmetries fix it.
    #[inline]
    pub(crate) fn index(&self, board: Board) -> usize {
        let tigers = board.tigers();
        let entry = self.tiger[rank_bits(tigers.bits())];
        let rep = self.reps[entry.class as usize];
        let empties = board.empty();
        let per_class = binomial(FREE, empties.len() as usize);
        let mut best = usize::MAX;
        let mut syms = entry.to_rep;
        while syms != 0 {
            let s = Symmetry::new(syms.trailing_zeros() as u8).unwrap_or(Symmetry::IDENTITY);
            syms &= syms - 1;
            let image = s.apply_bitboard(empties).bits();
            best = best.min(rank_bits(gather(image, !rep & tns_board::masks::BOARD)));
        }
        entry.class as usize * per_class + best
    }

    /// The position at `index` of the slice with `empties` empty points, with `side` to move,
    /// or `None` for an unused slot (one whose position has a smaller index).
    pub(crate) fn position(&self, index: usize, empties: usize, side: Side) -> Option<Board> {
        let per_class = binomial(FREE, empties);
        let (class, rank) = (index / per_class, index % per_class);
        let rep = *self.reps.get(class)?;
        let free = !rep & tns_board::masks::BOARD;
        let empty = scatter(unrank_bits(rank, empties, FREE), free);
        let sheep = free & !empty;
        let board = Board::from_parts(
            Bitboard::from_bits_truncate(rep),
            Bitboard::from_bits_truncate(sheep),
            0,
            side,
        )
        .ok()?;
        (self.index(board) == index).then_some(board)
    }

    /// The number of the 8 symmetries that leave `board` unchanged (1, 2, 4 or 8); the board's
    /// class has `8 / stabiliser` members.
    #[inline]
    pub(crate) fn stabiliser(board: Board) -> u32 {
        Symmetry::ALL.iter().filter(|&&s| board.transformed(s) == board).count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(25, 4), TIGER_SETS);
        assert_eq!(binomial(21, 5), 20_349);
        assert_eq!(binomial(21, 1), 21);
        assert_eq!(binomial(3, 5), 0);
    }

    #[test]
    fn ranking_is_a_bijection() {
        for k in 1..=5 {
            let n = binomial(21, k);
            for rank in 0..n {
                let bits = unrank_bits(rank, k, 21);
                assert_eq!(bits.count_ones() as usize, k);
                assert!(bits < 1 << 21);
                assert_eq!(rank_bits(bits), rank);
            }
        }
    }

    #[test]
    fn gather_scatter_invert() {
        let mask = 0b1011_0110_1001;
        for v in 0..64 {
            assert_eq!(gather(scatter(v, mask), mask), v);
        }
    }

    #[test]
    fn tiger_classes_match_burnside() {
        // Burnside: the number of classes is the mean number of sets each symmetry fixes.
        let mut fixed = 0;
        for rank in 0..TIGER_SETS {
            let set = Bitboard::from_bits_truncate(unrank_bits(rank, 4, POINTS));
            fixed += Symmetry::ALL.iter().filter(|s| s.apply_bitboard(set) == set).count();
        }
        assert_eq!(fixed % 8, 0);
        assert_eq!(Indexer::new().classes(), fixed / 8);
    }
}
