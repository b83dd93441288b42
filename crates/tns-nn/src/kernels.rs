//! The forward pass's layers: exact sums, no allocation, and the work where the values are.
//!
//! Each function gives the same bits as adding, in order, the products of only the inputs that
//! are on (a test in `network.rs` holds them to a plain reference on random networks).

/// The widest layer a network may have, so the forward pass can keep its activations on the
/// stack.
pub const MAX_WIDTH: usize = 256;

/// Outputs a layer computes at once, its sums kept in registers.
const CHUNK: usize = 32;

/// Outputs the first layer computes at once where it has that many.
const WIDE_CHUNK: usize = 64;

/// The first layer, on sparse inputs: `out = bias + Σ weights[i] + x · weights[j]` over the
/// inputs `i` of `ones` (those equal to 1) and then the one other input `(j, x)`, in this order.
/// `weights` holds the layer's rows, input by input, each `out.len()` long.
///
/// Adding a row for an input of 1 is the same, to the bit, as adding 1 times it (a product by
/// 1 is exact). The outputs are taken `WIDE_CHUNK`, then `CHUNK`, at a time, so that their
/// sums stay in registers while the rows stream past instead of being loaded and stored for
/// every input; the few left over are summed one at a time.
#[inline]
pub(crate) fn sparse_layer(
    out: &mut [f32],
    bias: &[f32],
    weights: &[f32],
    ones: &[u8],
    other: (usize, f32),
) {
    let outputs = out.len();
    let mut j = 0;
    while j + WIDE_CHUNK <= outputs {
        sparse_chunk::<WIDE_CHUNK>(out, bias, weights, ones, other, j);
        j += WIDE_CHUNK;
    }
    while j + CHUNK <= outputs {
        sparse_chunk::<CHUNK>(out, bias, weights, ones, other, j);
        j += CHUNK;
    }
    // The last outputs one at a time, each sum in a register.
    let (j_row, x) = (other.0 * outputs, other.1);
    for k in j..outputs {
        let mut sum = bias[k];
        for &i in ones {
            sum += weights[usize::from(i) * outputs + k];
        }
        out[k] = sum + x * weights[j_row + k];
    }
}

/// Outputs `j` to `j + C` of [`sparse_layer`], their sums in registers.
#[inline]
fn sparse_chunk<const C: usize>(
    out: &mut [f32],
    bias: &[f32],
    weights: &[f32],
    ones: &[u8],
    other: (usize, f32),
    j: usize,
) {
    let outputs = out.len();
    let (j_row, x) = (other.0 * outputs, other.1);
    let mut sums = [0.0f32; C];
    sums.copy_from_slice(&bias[j..j + C]);
    for &i in ones {
        let at = usize::from(i) * outputs + j;
        for (s, &w) in sums.iter_mut().zip(&weights[at..at + C]) {
            *s += w;
        }
    }
    for (s, &w) in sums.iter_mut().zip(&weights[j_row + j..j_row + j + C]) {
        *s += x * w;
    }
    out[j..j + C].copy_from_slice(&sums);
}

/// Bits set in each byte, lowest first: the positions [`Nonzero::find`] writes for eight
/// values at once.
static SET_BITS: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut n, mut bit) = (0, 0u8);
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte][n] = bit;
                n += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The positions of a ReLU's outputs above zero, found eight at a time: the eight values'
/// signs make a byte, and the byte's row of a table gives the positions, written whole and
/// kept as far as the byte has bits set. No branch depends on the values, so none mispredicts
/// (the ReLU of a wide layer leaves about seven outputs in ten at zero, in no pattern).
pub(crate) struct Nonzero {
    /// The positions, then up to eight written past them.
    at: [u16; MAX_WIDTH + 8],
    len: usize,
}

impl Nonzero {
    pub(crate) fn new() -> Nonzero {
        Nonzero { at: [0; MAX_WIDTH + 8], len: 0 }
    }

    /// Finds the positions of the values above zero (at most [`MAX_WIDTH`] values).
    #[inline]
    pub(crate) fn find(&mut self, values: &[f32]) {
        // A flag a value, 0 or 1, in a loop of its own: one the compiler makes vector compares
        // of (building each byte's bits value by value, it did not).
        let mut flags = [0u8; MAX_WIDTH];
        let flags = &mut flags[..values.len()];
        for (flag, &v) in flags.iter_mut().zip(values) {
            *flag = u8::from(v > 0.0);
        }
        let mut n = 0;
        let mut base = 0u16;
        let mut eights = flags.chunks_exact(8);
        for eight in &mut eights {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(eight);
            // Flag i (bit 8i of the word) times bit 7j + 7 of the factor lands on bit 56 + i
            // where i + j = 7, and no two products share a bit, so nothing carries: the top
            // byte holds flag i at bit i.
            let byte = usize::from(
                (u64::from_le_bytes(bytes).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8,
            );
            for (slot, &bit) in self.at[n..n + 8].iter_mut().zip(&SET_BITS[byte]) {
                *slot = base + u16::from(bit);
            }
            n += byte.count_ones() as usize;
            base += 8;
        }
        for &flag in eights.remainder() {
            self.at[n] = base;
            n += usize::from(flag);
            base += 1;
        }
        self.len = n;
    }

    /// The positions found, in order.
    pub(crate) fn indices(&self) -> &[u16] {
        &self.at[..self.len]
    }
}

/// A layer after the first, on a ReLU's outputs: `out = bias + Σ inputs[i] · weights[i]` over
/// the inputs `i` of `on` (those above zero), in order, `CHUNK` outputs at a time as
/// [`sparse_layer`] does.
///
/// A ReLU leaves most of a wide layer at zero, and a product of zero leaves a sum as it was
/// (only a sum of exactly zero may change its sign, which no later step can see), so skipping
/// them gives the bits of taking every input. For the shipped network (256 wide) this reads
/// about 70 rows of the 256 (docs/benchmarking.md).
#[inline]
pub(crate) fn gathered_layer(
    out: &mut [f32],
    bias: &[f32],
    weights: &[f32],
    on: &[u16],
    inputs: &[f32],
) {
    let outputs = out.len();
    let mut j = 0;
    while j + CHUNK <= outputs {
        let mut sums = [0.0f32; CHUNK];
        sums.copy_from_slice(&bias[j..j + CHUNK]);
        for &i in on {
            let x = inputs[usize::from(i)];
            let row = usize::from(i) * outputs + j;
            for (s, &w) in sums.iter_mut().zip(&weights[row..row + CHUNK]) {
                *s += x * w;
            }
        }
        out[j..j + CHUNK].copy_from_slice(&sums);
        j += CHUNK;
    }
    // The last outputs (the network's one output among them) one at a time, each sum in a
    // register rather than stored and loaded again for every input.
    for k in j..outputs {
        let mut sum = bias[k];
        for &i in on {
            sum += inputs[usize::from(i)] * weights[usize::from(i) * outputs + k];
        }
        out[k] = sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The widest layer a network may have, so the forward pass can keep its activations on the
    /// stack.
    pub const MAX_WIDTH: usize = 256;

    /// Every pattern of eight signs, in the first, the second and the last group of the widest
    /// layer: the byte gathered by the multiplication is the flags' own.
    #[test]
    fn every_byte_of_flags_gives_its_positions() {
        for byte in 0..=255u8 {
            for offset in [0, 8, 248] {
                let mut values = vec![-1.0f32; offset + 8];
                for bit in 0..8 {
                    if byte & (1 << bit) != 0 {
                        values[offset + bit] = 0.5;
                    }
                }
                let mut on = Nonzero::new();
                on.find(&values);
                let expected: Vec<u16> = (0..8u16)
                    .filter(|&bit| byte & (1 << bit) != 0)
                    .map(|bit| bit + u16::try_from(offset).unwrap())
                    .collect();
                assert_eq!(on.indices(), &expected[..], "byte {byte:#010b} at {offset}");
            }
        }
    }

    proptest! {
        /// The positions found eight at a time are those of the values above zero, in order,
        /// whatever the length (the remainder past the last eight included).
        #[test]
        fn nonzero_finds_the_values_above_zero(
            values in proptest::collection::vec(
                prop_oneof![Just(0.0f32), Just(-0.0f32), -2.0f32..2.0, Just(f32::MIN_POSITIVE)],
                0..=MAX_WIDTH,
            ),
        ) {
            let mut on = Nonzero::new();
            on.find(&values);
            let expected: Vec<u16> = (0u16..)
                .zip(&values)
                .filter(|&(_, &v)| v > 0.0)
                .map(|(i, _)| i)
                .collect();
            prop_assert_eq!(on.indices(), &expected[..]);
        }
    }
}
