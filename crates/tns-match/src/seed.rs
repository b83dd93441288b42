//! Seeds for reproducible runs: one seed mixed with the numbers of a game, a generation or a
//! player, so that nearby numbers give unrelated seeds.

/// `seed` mixed with `a` and `b` by `SplitMix64`'s finaliser: the seeds of a match's openings
/// and players, and of a training run's games and generations, all derived from the one seed a
/// user gives, so a run repeats to the bit.
///
/// ```
/// use tns_match::mix_seed;
///
/// assert_eq!(mix_seed(1, 2, 3), mix_seed(1, 2, 3));
/// assert_ne!(mix_seed(1, 2, 3), mix_seed(1, 3, 3));
/// assert_ne!(mix_seed(1, 2, 3), mix_seed(1, 2, 4));
/// ```
pub fn mix_seed(seed: u64, a: u64, b: u64) -> u64 {
    let mut z =
        seed ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
