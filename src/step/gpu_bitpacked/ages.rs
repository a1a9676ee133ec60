//! Exact ages from birth codes: what `gpu-bitpacked` stores instead of a `u32` age per cell.
//!
//! A live cell born at generation `B` has age `g - B + 1` at generation `g`, saturating at
//! [`AGE_MAX`]. The device keeps, per cell, a `u32` *birth code* `s` and one bit of the
//! *old plane* (a bit plane laid out like the state). Two epochs, both fixed at the last
//! load (a *rebase* is a read-back plus load), make `s` exact:
//!
//! - young cells: `s = B - young`, where `young = g_load - 2³¹`; cells alive at the load
//!   with age ≤ 2³¹ get `s` in `1..=2³¹`, and every cell born (stepped or painted) after the
//!   load gets `s > 2³¹` — the step kernel writes `s = n_y` of the birth generation, where
//!   `n_y = g - young`;
//! - old cells (age > 2³¹ at the load; old-plane bit set): `s = B - old` with
//!   `old = g_load + 1 - AGE_MAX`, which lies in `0..2³¹ - 1`, clamped to 0 for saturated cells.
//!
//! A code `s > 2³¹` is always young (born after the load, whatever a stale old bit says);
//! otherwise the old bit tells. Young ages are `n_y + 1 - s` (exact, below `AGE_MAX` as long
//! as `n_y < 2³² - 1`: the stepper rebases before), old ages `min(AGE_MAX, n_o + 1 - s)`
//! with `n_o = g - old` up to 2³² + 2³¹ (two words on the device). Nothing is written per
//! generation except where a cell is born, and no generation count limits exactness.

use crate::stats::bucket_of;
use crate::world::AGE_MAX;

/// Ages up to this are encoded young at a load; codes above it are births after the load.
pub const YOUNG_SPAN: u64 = 1 << 31;

/// The two epochs of a loaded world (generations, may be negative).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Epochs {
    young: i128,
    old: i128,
}

/// What the decode shaders need at the current generation (`AgeParams` in WGSL).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct AgeParams {
    /// `g - young`: a young cell's age is `n_y + 1 - s`; newborns get `s = n_y`.
    pub n_y: u32,
    /// Low word of `g - old`.
    pub n_o_lo: u32,
    /// High word of `g - old`.
    pub n_o_hi: u32,
    /// Padding to 16 bytes.
    pub pad: u32,
}

impl Epochs {
    /// The epochs of a world loaded at `generation`.
    pub fn at_load(generation: u64) -> Epochs {
        let g = i128::from(generation);
        Epochs {
            young: g - YOUNG_SPAN as i128,
            old: g + 1 - i128::from(AGE_MAX),
        }
    }

    /// `(birth code, old bit)` of a cell of `age` (> 0) at the load generation `generation`.
    pub fn encode(&self, age: u32, generation: u64) -> (u32, bool) {
        let birth = i128::from(generation) + 1 - i128::from(age);
        if u64::from(age) <= YOUNG_SPAN {
            ((birth - self.young) as u32, false)
        } else {
            ((birth - self.old).max(0) as u32, true)
        }
    }

    /// `n_y` at `generation` (valid while [`Epochs::headroom`] has not run out).
    pub fn young_now(&self, generation: u64) -> u32 {
        (i128::from(generation) - self.young) as u32
    }

    /// How many more generations can be stepped from `generation` before a birth code would
    /// leave `u32` range (about 2³¹ after a load); at 0 the stepper reads its world back and
    /// loads it again, which picks new epochs.
    pub fn headroom(&self, generation: u64) -> u64 {
        (i128::from(AGE_MAX) - 2 - (i128::from(generation) - self.young)).max(0) as u64
    }

    /// The decode parameters at `generation`.
    pub fn params(&self, generation: u64) -> AgeParams {
        let n_o = (i128::from(generation) - self.old) as u64;
        AgeParams {
            n_y: self.young_now(generation),
            n_o_lo: n_o as u32,
            n_o_hi: (n_o >> 32) as u32,
            pad: 0,
        }
    }
}

impl AgeParams {
    /// Age of a live cell with birth code `s` and old bit `old` (mirrors `age_of` in WGSL).
    pub fn age(&self, s: u32, old: bool) -> u32 {
        if s > YOUNG_SPAN as u32 || !old {
            return self.n_y.wrapping_add(1).wrapping_sub(s);
        }
        let n_o = (u64::from(self.n_o_hi) << 32) | u64::from(self.n_o_lo);
        (n_o + 1 - u64::from(s)).min(u64::from(AGE_MAX)) as u32
    }
}

/// Histogram thresholds for the device: entry `i` (1 ≤ i < buckets) is the smallest age whose
/// bucket at `generation` is at least `i` ([`bucket_of`] is non-decreasing in age), or 0 when
/// no age reaches bucket `i`. Entry 0 is unused. A cell's bucket is the number of non-zero
/// thresholds at or below its age, so the device needs no 64-bit division.
pub fn bucket_thresholds(generation: u64, buckets: usize) -> Vec<u32> {
    let mut out = vec![0u32; buckets.max(1)];
    for (i, slot) in out.iter_mut().enumerate().skip(1) {
        if bucket_of(AGE_MAX, generation, buckets) < i {
            continue;
        }
        let (mut lo, mut hi) = (1u32, AGE_MAX);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if bucket_of(mid, generation, buckets) >= i {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        *slot = lo;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scalar's age after `steps` generations of survival from `age`.
    fn survived(age: u32, steps: u64) -> u32 {
        (u64::from(age) + steps).min(u64::from(AGE_MAX)) as u32
    }

    #[test]
    fn loaded_ages_decode_exactly_and_saturate() {
        for g0 in [0u64, 1, 7, 5_000_000_000, u64::from(u32::MAX) * 3] {
            let epochs = Epochs::at_load(g0);
            for age in [
                1,
                2,
                1 << 31,
                (1 << 31) + 1,
                AGE_MAX - 3,
                AGE_MAX - 1,
                AGE_MAX,
            ] {
                let (s, old) = epochs.encode(age, g0);
                for steps in [0u64, 1, 3, 4, 5, 1000, (1 << 31) - 3] {
                    assert!(epochs.headroom(g0) >= steps);
                    let p = epochs.params(g0 + steps);
                    assert_eq!(
                        p.age(s, old),
                        survived(age, steps),
                        "g0 {g0} age {age} +{steps}"
                    );
                }
            }
        }
    }

    #[test]
    fn births_after_the_load_are_young_whatever_the_old_bit_says() {
        let g0 = 9_000_000_000;
        let epochs = Epochs::at_load(g0);
        for born in [g0 + 1, g0 + 2, g0 + 100_000] {
            let s = epochs.young_now(born);
            assert!(u64::from(s) > YOUNG_SPAN);
            for old in [false, true] {
                for later in [0, 1, 50, (1 << 31) - 200_000] {
                    let p = epochs.params(born + later);
                    assert_eq!(u64::from(p.age(s, old)), later + 1);
                }
            }
        }
        // A cell painted as newborn at the load generation has s = n_y = 2³¹ and its old bit
        // cleared by the edit kernel.
        assert_eq!(u64::from(epochs.young_now(g0)), YOUNG_SPAN);
        assert_eq!(epochs.params(g0 + 4).age(epochs.young_now(g0), false), 5);
    }

    #[test]
    fn rebase_comes_before_codes_overflow() {
        let epochs = Epochs::at_load(10);
        let last_safe = 10 + (u64::from(AGE_MAX) - 2 - YOUNG_SPAN);
        assert_eq!(epochs.headroom(10), last_safe - 10);
        assert_eq!(epochs.headroom(last_safe), 0);
        assert_eq!(epochs.young_now(last_safe), AGE_MAX - 2);
    }

    #[test]
    fn thresholds_reproduce_bucket_of() {
        for generation in [0u64, 1, 3, 10, 97, 1000, 5_000_000_000] {
            for buckets in [1usize, 5, 7, 64] {
                let t = bucket_thresholds(generation, buckets);
                for age in [1u32, 2, 3, 9, 10, 11, 50, 96, 97, 98, 999, 1000, AGE_MAX] {
                    let device = t[1..].iter().filter(|&&x| x != 0 && age >= x).count();
                    assert_eq!(
                        device,
                        bucket_of(age, generation, buckets),
                        "{generation} {buckets} {age}"
                    );
                }
            }
        }
    }
}
