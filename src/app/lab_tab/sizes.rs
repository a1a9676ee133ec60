//! The sizes the Lab tab offers: only those the device can run.

/// Keep the offered sizes to those the device runs: a default beyond `max` goes, and the
/// largest size that fits takes its place (ticked if a dropped one was).
pub fn offer_only_what_fits(sizes: &mut Vec<(u64, bool)>, max: u64) {
    if sizes.iter().all(|s| s.0 <= max) {
        return;
    }
    let dropped_on = sizes.iter().any(|s| s.0 > max && s.1);
    sizes.retain(|s| s.0 <= max);
    if !sizes.iter().any(|s| s.0 == max) {
        let on = dropped_on || sizes.iter().all(|s| !s.1);
        sizes.push((max, on));
    }
}

#[cfg(test)]
mod tests {
    use super::offer_only_what_fits;

    #[test]
    fn sizes_beyond_the_device_give_way_to_the_largest_that_fits() {
        // Transpose on lavapipe: its one preset, 8192, is beyond 5792.
        let mut sizes = vec![(8192, true)];
        offer_only_what_fits(&mut sizes, 5792);
        assert_eq!(sizes, vec![(5792, true)]);
        let mut sizes = vec![(1 << 20, true), (1 << 24, false), (1 << 27, false)];
        offer_only_what_fits(&mut sizes, 1 << 25);
        assert_eq!(
            sizes,
            vec![(1 << 20, true), (1 << 24, false), (1 << 25, false)]
        );
        let mut fits = vec![(16, true)];
        offer_only_what_fits(&mut fits, 100);
        assert_eq!(fits, vec![(16, true)]);
    }
}
