//! The checksum of every file the project writes.

/// A 64-bit checksum for the files the project writes (tablebases, networks). Each 8-byte word
/// is mixed in by an xor and a multiplication by an odd constant, both invertible, so a change to
/// any one word always changes the result; the length is mixed in last, so a truncated file
/// differs too. It guards against damage, not against tampering.
///
/// ```
/// let a = tns_file::checksum(b"twenty sheep");
/// assert_ne!(a, tns_file::checksum(b"twenty sheeq"));
/// assert_ne!(a, tns_file::checksum(b"twenty shee"));
/// ```
pub fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut words = bytes.chunks_exact(8);
    for w in words.by_ref() {
        let mut word = [0; 8];
        word.copy_from_slice(w);
        h = (h ^ u64::from_le_bytes(word)).wrapping_mul(PRIME).rotate_left(23);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(PRIME);
    }
    h ^ bytes.len() as u64
}
