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

/// `BINOMIAL[n][k]` = C(n, k) for n, k ≤ 25.
const BINOMIAL: [[u32; POINTS + 1]; POINTS + 1] = {
    let mut t = [[0u32; POINTS + 1]; POINTS + 1];
    let mut n = 0;
    while n <= POINTS {
        t[n][0] = 1;
        let mut k = 1;
        while k <= POINTS {
            t[n][k] = if n == 0 { 0 } else { t[n - 1][k - 1] + t[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    t
};

/// C(n, k) for n, k ≤ 25.
#[inline]
pub(crate) fn binomial(n: usize, k: usize) -> usize {
    BINOMIAL[n][k] as usize
}

/// The rank of a set of points among all sets of its size, in the combinatorial number system:
/// the sum of `C(c_i, i + 1)` over its members `c_0 < c_1 < ...`, each an index below 25.
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

/// `RANK7[chunk][below][pattern]`: what the members in the 7-bit `pattern` of bits
/// `7 * chunk ..` add to a rank (see [`rank_bits`]) when `below` members lie in lower bits.
static RANK7: [[[u32; 128]; 15]; 3] = {
    let mut t = [[[0u32; 128]; 15]; 3];
    let mut chunk = 0;
    while chunk < 3 {
        let mut below = 0;
        while below < 15 {
            let mut pattern = 0;
            while pattern < 128 {
                let mut sum = 0;
                let mut ordinal = below;
                let mut bit = 0;
                while bit < 7 {
                    if pattern >> bit & 1 != 0 {
                        ordinal += 1;
                        sum += BINOMIAL[7 * chunk + bit][ordinal];
                    }
                    bit += 1;
                }
                t[chunk][below][pattern] = sum;
                pattern += 1;
            }
            below += 1;
        }
        chunk += 1;
    }
    t
};

/// [`rank_bits`] for a set of the 21 free points, in three table look-ups.
#[inline]
pub(crate) fn rank21(bits: u32) -> usize {
    let (c0, c1, c2) = (bits & 127, bits >> 7 & 127, bits >> 14 & 127);
    let below1 = c0.count_ones() as usize;
    let below2 = below1 + c1.count_ones() as usize;
    (RANK7[0][0][c0 as usize] + RANK7[1][below1][c1 as usize] + RANK7[2][below2][c2 as usize])
        as usize
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

/// Deletes the bits at `points` (ascending, all below 25) from `value`, closing the gaps: the
/// free points of a tiger set numbered 0 to 20 (a portable `pext` for this one shape).
#[inline]
fn compress_points(mut value: u32, points: [u8; 4]) -> u32 {
    for &p in points.iter().rev() {
        let low = (1u32 << p) - 1;
        value = value & low | value >> 1 & !low;
    }
    value
}

/// The inverse of [`compress_points`]: opens a zero bit at each of `points`.
#[inline]
fn deposit_points(mut value: u32, points: [u8; 4]) -> u32 {
    for &p in &points {
        let low = (1u32 << p) - 1;
        value = value & low | (value & !low) << 1;
    }
    value
}

/// One tiger set's place among the classes.
#[derive(Clone, Copy, Debug, Default)]
struct TigerEntry {
    /// The class of the set.
    class: u16,
    /// Bit `s` is set when symmetry `s` maps the set to its class's representative.
    to_rep: u8,
}

/// A tiger-set class: its representative and what indexing needs of it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Class {
    /// The representative tiger set.
    pub(crate) rep: u32,
    /// Its four points, ascending.
    points: [u8; 4],
    /// Bit `s` is set when symmetry `s` maps the representative to itself.
    pub(crate) stabiliser: u8,
}

impl Class {
    /// The representative's 21 free points (as a board mask), numbered 0 to 20.
    #[inline]
    pub(crate) fn compress(&self, mask: u32) -> u32 {
        compress_points(mask, self.points)
    }

    /// A set of free points numbered 0 to 20, as a board mask.
    #[inline]
    pub(crate) fn deposit(&self, set: u32) -> u32 {
        deposit_points(set, self.points)
    }

    /// The smallest rank of `empty` (a board mask of the representative's free points) over
    /// the symmetries that fix the representative: the index of its position's class.
    #[inline]
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a symmetry's number: the lowest bit set of an 8-bit set"
    )]
    pub(crate) fn canonical_rank(&self, empty: u32) -> usize {
        let mut best = rank21(self.compress(empty));
        let mut syms = self.stabiliser & !1;
        while syms != 0 {
            let s = Symmetry::new(syms.trailing_zeros() as u8).unwrap_or(Symmetry::IDENTITY);
            syms &= syms - 1;
            let image = s.apply_bitboard(Bitboard::from_bits_truncate(empty)).bits();
            best = best.min(rank21(self.compress(image)));
        }
        best
    }
}

/// Ranks and unranks positions by tiger-set class and empty points. Built once (a few
/// milliseconds) and shared by every slice and layer.
#[derive(Debug)]
pub(crate) struct Indexer {
    /// By the rank of a tiger set.
    tiger: Vec<TigerEntry>,
    /// By class.
    classes: Vec<Class>,
}

impl Indexer {
    #[expect(
        clippy::cast_possible_truncation,
        reason = "point indices under 25 and tiger classes under 1,651"
    )]
    pub(crate) fn new() -> Indexer {
        let mut tiger = vec![TigerEntry::default(); TIGER_SETS];
        let mut classes: Vec<Class> = Vec::new();
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
                let mut points = [0u8; 4];
                for (slot, p) in points.iter_mut().zip(set) {
                    *slot = p.index() as u8;
                }
                // The representative itself: the symmetries to it are those that fix it.
                classes.push(Class { rep, points, stabiliser: to_rep });
                classes.len() - 1
            } else {
                // The representative has a smaller rank, so its class is already numbered.
                tiger[rep_rank].class as usize
            };
            tiger[rank] = TigerEntry { class: class as u16, to_rep };
        }
        Indexer { tiger, classes }
    }

    /// The number of tiger-set classes.
    pub(crate) fn classes(&self) -> usize {
        self.classes.len()
    }

    /// A class by number.
    #[inline]
    pub(crate) fn class(&self, class: usize) -> &Class {
        &self.classes[class]
    }

    /// The class of a tiger set (a board mask of four points) and a symmetry that maps the set
    /// to the class's representative.
    #[inline]
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a symmetry's number: the lowest bit set of an 8-bit set"
    )]
    pub(crate) fn classify(&self, tigers: u32) -> (usize, Symmetry) {
        let entry = self.tiger[rank_bits(tigers)];
        let sym = Symmetry::new(entry.to_rep.trailing_zeros() as u8).unwrap_or(Symmetry::IDENTITY);
        (entry.class as usize, sym)
    }

    /// Slots per side in the slice with `empties` empty points.
    pub(crate) fn slice_len(&self, empties: usize) -> usize {
        self.classes() * binomial(FREE, empties)
    }

    /// The index of `board` among the positions with its number of empty points, and so its
    /// slot in any table of them: `class * C(21, empties) + rank`, with the smallest rank over
    /// the symmetries that take its tiger set to the representative.
    #[inline]
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a symmetry's number: the lowest bit set of an 8-bit set"
    )]
    pub(crate) fn index(&self, board: Board) -> usize {
        let entry = self.tiger[rank_bits(board.tigers().bits())];
        let class = &self.classes[entry.class as usize];
        let empties = board.empty();
        let per_class = binomial(FREE, empties.len() as usize);
        let mut best = usize::MAX;
        let mut syms = entry.to_rep;
        while syms != 0 {
            let s = Symmetry::new(syms.trailing_zeros() as u8).unwrap_or(Symmetry::IDENTITY);
            syms &= syms - 1;
            let image = s.apply_bitboard(empties).bits();
            best = best.min(rank21(class.compress(image)));
        }
        entry.class as usize * per_class + best
    }

    /// The position at `index` of the slice with `empties` empty points, with `side` to move
    /// and no sheep in hand, or `None` for an unused slot (one whose position has a smaller
    /// index).
    pub(crate) fn position(&self, index: usize, empties: usize, side: Side) -> Option<Board> {
        self.position_in_hand(index, empties, side, 0)
    }

    /// [`position`](Indexer::position) with `in_hand` sheep in hand.
    pub(crate) fn position_in_hand(
        &self,
        index: usize,
        empties: usize,
        side: Side,
        in_hand: u8,
    ) -> Option<Board> {
        let per_class = binomial(FREE, empties);
        let (class, rank) = (index / per_class, index % per_class);
        let class = self.classes.get(class)?;
        let empty = class.deposit(unrank_bits(rank, empties, FREE));
        let sheep = !class.rep & !empty & Bitboard::ALL.bits();
        let board = Board::from_parts(
            Bitboard::from_bits_truncate(class.rep),
            Bitboard::from_bits_truncate(sheep),
            in_hand,
            side,
        )
        .ok()?;
        (self.index(board) == index).then_some(board)
    }

    /// The number of the 8 symmetries that leave `board` unchanged (1, 2, 4 or 8); the board's
    /// class has `8 / stabiliser` members.
    #[inline]
    #[expect(clippy::cast_possible_truncation, reason = "at most the 8 symmetries")]
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
        assert_eq!(binomial(21, 10), 352_716);
    }

    #[test]
    fn ranking_is_a_bijection() {
        for k in 1..=21 {
            let n = binomial(21, k);
            for rank in (0..n).step_by(1 + n / 5000) {
                let bits = unrank_bits(rank, k, 21);
                assert_eq!(bits.count_ones() as usize, k);
                assert!(bits < 1 << 21);
                assert_eq!(rank_bits(bits), rank);
            }
        }
    }

    #[test]
    fn compress_and_deposit_invert() {
        let points = [0, 7, 12, 24];
        let tigers: u32 = points.iter().map(|&p| 1 << p).sum();
        let free = !tigers & Bitboard::ALL.bits();
        for v in (0..1 << 21).step_by(97) {
            let spread = deposit_points(v, points);
            assert_eq!(spread & tigers, 0);
            assert_eq!(spread & !free, 0);
            assert_eq!(compress_points(spread, points), v);
        }
    }

    #[test]
    fn table_rank_matches_the_sum() {
        for bits in (0..1u32 << 21).step_by(13) {
            assert_eq!(rank21(bits), rank_bits(bits), "{bits:b}");
        }
        assert_eq!(rank21((1 << 21) - 1), 0);
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
