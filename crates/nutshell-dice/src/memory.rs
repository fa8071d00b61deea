//! Large allocations, sized before they are made.
//!
//! A limit raised by the user (`max_dice`, `max_outcomes`) can ask for more
//! memory than the machine has. Rust's ordinary allocation aborts the
//! process when the system says no; these helpers ask first (`try_reserve`)
//! and report the bytes that were needed, so the caller refuses the roll or
//! the computation with an error instead. What the operating system grants
//! but cannot back (overcommitted memory) is beyond a program's sight; a
//! process run under an address-space limit (`ulimit -v`) sees every
//! refusal here.

/// The bytes of `len` values of `T`, without overflowing.
pub(crate) fn bytes_of<T>(len: u128) -> u128 {
    len.saturating_mul(std::mem::size_of::<T>() as u128)
}

/// Makes room for `additional` more values in `v`, or says how many bytes
/// the whole vector would have needed.
pub(crate) fn reserve<T>(v: &mut Vec<T>, additional: u128) -> Result<(), u128> {
    let needed = bytes_of::<T>((v.len() as u128).saturating_add(additional));
    let Ok(additional) = usize::try_from(additional) else {
        return Err(needed);
    };
    v.try_reserve(additional).map_err(|_| needed)
}

/// `len` copies of `value`, or the bytes they would have needed.
pub(crate) fn filled<T: Clone>(len: u128, value: T) -> Result<Vec<T>, u128> {
    let mut v = Vec::new();
    reserve(&mut v, len)?;
    v.resize(len as usize, value);
    Ok(v)
}

/// Whether `bytes` more could be had now, for work that will make many
/// small allocations of about that much in all: asked for as one block and
/// given back at once.
pub(crate) fn probe(bytes: u128) -> Result<(), u128> {
    let mut block: Vec<u8> = Vec::new();
    reserve(&mut block, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// More than any address space holds is refused with its size, never
    /// an abort; what fits is given.
    #[test]
    fn impossible_sizes_are_refused_with_the_bytes_needed() {
        let mut v: Vec<u64> = vec![1, 2, 3];
        let err = reserve(&mut v, 1 << 62).unwrap_err();
        assert_eq!(err, ((1u128 << 62) + 3) * 8);
        assert_eq!(v, [1, 2, 3]);
        assert_eq!(
            filled(u128::from(u64::MAX), 0u64).unwrap_err(),
            u128::from(u64::MAX) * 8
        );
        assert_eq!(probe(1 << 80), Err(1 << 80));
        assert_eq!(filled(4, 7u8).unwrap(), [7, 7, 7, 7]);
        assert!(probe(1 << 20).is_ok());
    }
}
