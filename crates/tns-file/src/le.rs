//! Little-endian numbers in bytes, as every binary format here stores them: at an offset, or
//! one after another. A read past the end is `None`, never a panic.

/// The `N` bytes at `at`, if the slice holds them.
fn array_at<const N: usize>(bytes: &[u8], at: usize) -> Option<[u8; N]> {
    bytes.get(at..at.checked_add(N)?)?.try_into().ok()
}

/// The `u16` at `at`.
pub fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    array_at(bytes, at).map(u16::from_le_bytes)
}

/// The `u32` at `at`.
///
/// ```
/// assert_eq!(tns_file::u32_at(&[0, 1, 0, 0, 0], 1), Some(1));
/// assert_eq!(tns_file::u32_at(&[1, 0, 0], 0), None);
/// ```
pub fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    array_at(bytes, at).map(u32::from_le_bytes)
}

/// The `u64` at `at`.
pub fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    array_at(bytes, at).map(u64::from_le_bytes)
}

/// Reads little-endian numbers one after another from the front of a byte slice.
#[derive(Clone, Debug)]
pub struct LeReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> LeReader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> LeReader<'a> {
        LeReader { bytes, at: 0 }
    }

    /// The next `n` bytes, if there are so many left.
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let slice = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(slice)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    /// The next `u32`.
    pub fn u32(&mut self) -> Option<u32> {
        self.array().map(u32::from_le_bytes)
    }

    /// The next `u64`.
    pub fn u64(&mut self) -> Option<u64> {
        self.array().map(u64::from_le_bytes)
    }

    /// The next `i32`.
    pub fn i32(&mut self) -> Option<i32> {
        self.array().map(i32::from_le_bytes)
    }

    /// The next `f32`.
    pub fn f32(&mut self) -> Option<f32> {
        self.array().map(f32::from_le_bytes)
    }

    /// How many bytes were read.
    pub fn position(&self) -> usize {
        self.at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn numbers_read_back_and_never_past_the_end(a: u32, b: u64, c: f32, d: i32, cut in 0usize..=20) {
            let mut bytes = Vec::new();
            bytes.extend(a.to_le_bytes());
            bytes.extend(b.to_le_bytes());
            bytes.extend(c.to_le_bytes());
            bytes.extend(d.to_le_bytes());
            let mut r = LeReader::new(&bytes);
            prop_assert_eq!(r.u32(), Some(a));
            prop_assert_eq!(r.u64(), Some(b));
            prop_assert_eq!(r.f32().map(f32::to_bits), Some(c.to_bits()));
            prop_assert_eq!(r.i32(), Some(d));
            prop_assert_eq!(r.u32(), None);
            prop_assert_eq!(u64_at(&bytes, 4), Some(b));
            let short = &bytes[..cut];
            let mut r = LeReader::new(short);
            prop_assert_eq!(r.u32().is_some(), cut >= 4);
            prop_assert_eq!(u64_at(short, 4).is_some(), cut >= 12);
            prop_assert_eq!(u32_at(short, usize::MAX), None);
        }
    }
}
