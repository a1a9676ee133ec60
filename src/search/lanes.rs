//! The tile step's arithmetic on a row (`u32`) or on 16 rows at once (an AVX-512 register):
//! rules are written once over [`Bits`], and the AVX-512 step keeps a whole tile in two or
//! three registers, the rows above and below a row taken by aligning neighbouring registers.

use std::ops::{BitAnd, BitOr, BitXor, Not};

use super::tile::{Diffs, OWN, RowRule};

/// A row of cells, or several rows side by side, as bits (bit `x + 2` = column `x`).
pub trait Bits:
    Copy + BitAnd<Output = Self> + BitOr<Output = Self> + BitXor<Output = Self> + Not<Output = Self>
{
    /// Every cell moved one column east (towards higher bits).
    fn shl1(self) -> Self;
    /// Every cell moved one column west.
    fn shr1(self) -> Self;
    /// All cells alive.
    fn ones() -> Self;
}

impl Bits for u32 {
    #[inline(always)]
    fn shl1(self) -> u32 {
        self << 1
    }
    #[inline(always)]
    fn shr1(self) -> u32 {
        self >> 1
    }
    #[inline(always)]
    fn ones() -> u32 {
        u32::MAX
    }
}

#[cfg(target_arch = "x86_64")]
pub use avx512::step2_avx512;

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::*;

    /// Sixteen rows in one AVX-512 register.
    #[derive(Clone, Copy)]
    pub struct Z(__m512i);

    // SAFETY (every `unsafe` below): these run only inlined into `step2_avx512`, compiled
    // for AVX-512 and called only where the CPU has it.
    impl BitAnd for Z {
        type Output = Z;
        #[inline(always)]
        fn bitand(self, o: Z) -> Z {
            Z(unsafe { _mm512_and_si512(self.0, o.0) })
        }
    }
    impl BitOr for Z {
        type Output = Z;
        #[inline(always)]
        fn bitor(self, o: Z) -> Z {
            Z(unsafe { _mm512_or_si512(self.0, o.0) })
        }
    }
    impl BitXor for Z {
        type Output = Z;
        #[inline(always)]
        fn bitxor(self, o: Z) -> Z {
            Z(unsafe { _mm512_xor_si512(self.0, o.0) })
        }
    }
    impl Not for Z {
        type Output = Z;
        #[inline(always)]
        fn not(self) -> Z {
            Z(unsafe { _mm512_ternarylogic_epi32::<0x55>(self.0, self.0, self.0) })
        }
    }
    impl Bits for Z {
        #[inline(always)]
        fn shl1(self) -> Z {
            Z(unsafe { _mm512_slli_epi32::<1>(self.0) })
        }
        #[inline(always)]
        fn shr1(self) -> Z {
            Z(unsafe { _mm512_srli_epi32::<1>(self.0) })
        }
        #[inline(always)]
        fn ones() -> Z {
            Z(unsafe { _mm512_set1_epi32(-1) })
        }
    }

    /// Up to three registers: a tile of 32 or 48 rows.
    const MAX: usize = 3;

    /// One generation of every row; rows beyond the tile are empty.
    #[inline(always)]
    fn generation<L: RowRule>(rule: &L, v: &[Z; MAX], n: usize) -> [Z; MAX] {
        let zero = Z(unsafe { _mm512_setzero_si512() });
        let mut out = [zero; MAX];
        for k in 0..n {
            let before = if k > 0 { v[k - 1] } else { zero };
            let after = if k + 1 < n { v[k + 1] } else { zero };
            // Row y − 1 and row y + 1 of each row y.
            let up = Z(unsafe { _mm512_alignr_epi32::<15>(v[k].0, before.0) });
            let down = Z(unsafe { _mm512_alignr_epi32::<1>(after.0, v[k].0) });
            out[k] = rule.next(up, v[k], down);
        }
        out
    }

    /// A row mask: `bits` on rows `rows`, 0 elsewhere, for register `k`.
    #[inline(always)]
    fn rows_mask(k: usize, rows: std::ops::Range<usize>, bits: u32) -> Z {
        let mut m = [0u32; 16];
        for (i, v) in m.iter_mut().enumerate() {
            if rows.contains(&(16 * k + i)) {
                *v = bits;
            }
        }
        Z(unsafe { _mm512_loadu_si512(m.as_ptr().cast()) })
    }

    /// [`super::super::tile::Tile::step2`] on AVX-512 for tiles of 32 or 48 rows.
    ///
    /// # Safety
    /// The CPU must have AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub unsafe fn step2_avx512<const R: usize, L: RowRule>(
        d: &mut [u32; R],
        hist: &mut [u32; R],
        rule: &L,
        history: bool,
    ) -> Diffs {
        let n = R / 16;
        assert!(R.is_multiple_of(16) && n <= MAX);
        let zero = Z(_mm512_setzero_si512());
        let mut old = [zero; MAX];
        for (k, o) in old.iter_mut().enumerate().take(n) {
            // SAFETY: rows 16k … 16k + 15 lie in `d`.
            *o = Z(unsafe { _mm512_loadu_si512(d.as_ptr().add(16 * k).cast()) });
        }
        let mid = generation(rule, &old, n);
        let next = generation(rule, &mid, n);
        let mut all = zero;
        let mut change = [0u32; 48];
        for k in 0..n {
            let own = rows_mask(k, 2..R - 2, OWN);
            let new = (old[k] & !own) | (next[k] & own);
            let c = new ^ old[k];
            all = all | c;
            // SAFETY: 16 rows from 16k lie in `change` and in `d` (and `hist`).
            unsafe {
                _mm512_storeu_si512(change.as_mut_ptr().add(16 * k).cast(), c.0);
                _mm512_storeu_si512(d.as_mut_ptr().add(16 * k).cast(), new.0);
            }
            if history {
                let inner = rows_mask(k, 1..R - 1, 0x7fff_fffe);
                let h = Z(unsafe { _mm512_loadu_si512(hist.as_ptr().add(16 * k).cast()) });
                let h = h | old[k] | (mid[k] & inner) | new;
                unsafe { _mm512_storeu_si512(hist.as_mut_ptr().add(16 * k).cast(), h.0) };
            }
        }
        Diffs {
            all: _mm512_reduce_or_epi32(all.0) as u32,
            top: change[2] | change[3],
            bottom: change[R - 4] | change[R - 3],
        }
    }
}
