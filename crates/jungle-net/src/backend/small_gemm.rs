//! Products of small matrices, `[rows, k] x [k, n]` with `k` and `n` whole
//! AVX registers (8 floats), as the Winograd convolution makes them: 36 of
//! about `[96, 32] x [32, 32]` per layer and batch of 16.
//!
//! The `gemm` crate packs its operands and sets up per call, which on
//! these shapes ran at 52 GFLOP/s on the 2-core EPYC of
//! `docs/performance.md` (a large product: 90+); this kernel reads the
//! operands in place (the right one, the weights, is small enough to stay
//! in L1) and keeps a 6 x 16 block of the product in registers, the shape
//! of `gemm`'s own AVX2 kernel. Processors without AVX2 and FMA, and
//! shapes that are not whole registers, go to the `gemm` crate.

use super::kernels::{has_avx2_fma, mul_strided, Mat};

/// The shape of a product: `[rows, k] x [k, n]`.
#[derive(Clone, Copy)]
pub(crate) struct Shape {
    pub(crate) rows: usize,
    pub(crate) k: usize,
    pub(crate) n: usize,
}

/// `out` (rows at `out_stride`) = `a` (`rows x k`, rows at `a_stride`) *
/// `b` (`k x n`, row-major).
pub(crate) fn product(
    a: &[f32],
    a_stride: usize,
    b: &[f32],
    shape: Shape,
    out: &mut [f32],
    out_stride: usize,
) {
    let Shape { rows, k, n } = shape;
    #[cfg(target_arch = "x86_64")]
    if k.is_multiple_of(8) && n.is_multiple_of(8) && has_avx2_fma() {
        // SAFETY: the processor has AVX2 and FMA; `avx::product` checks the
        // operands' sizes.
        return unsafe { avx::product(a, a_stride, b, shape, out, out_stride) };
    }
    mul_strided(
        Mat::strided(a, rows, k, a_stride),
        Mat::new(b, k, n),
        out,
        out_stride,
        false,
    );
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use super::Shape;
    use std::arch::x86_64::*;

    /// [`super::product`] on AVX registers.
    ///
    /// # Safety
    /// The processor must have AVX2 and FMA; `k` and `n` must be multiples
    /// of 8.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn product(
        a: &[f32],
        a_stride: usize,
        b: &[f32],
        shape: Shape,
        out: &mut [f32],
        out_stride: usize,
    ) {
        let Shape { rows, k, n } = shape;
        assert!(
            k.is_multiple_of(8) && n.is_multiple_of(8),
            "whole registers"
        );
        assert!(b.len() >= k * n, "{k} x {n} right operand");
        if rows == 0 || n == 0 {
            return;
        }
        assert!(a_stride >= k && out_stride >= n, "strides");
        assert!(
            a.len() >= (rows - 1) * a_stride + k,
            "{rows} x {k} left operand"
        );
        assert!(
            out.len() >= (rows - 1) * out_stride + n,
            "{rows} x {n} product"
        );
        let (a, b, out) = (a.as_ptr(), b.as_ptr(), out.as_mut_ptr());
        let mut r = 0;
        while r < rows {
            let block = (rows - r).min(6);
            let mut j = 0;
            while j < n {
                // SAFETY: rows r..r + block < rows and columns j..j + 16
                // (or 8) <= n, inside the operands checked above.
                unsafe {
                    let a = a.add(r * a_stride);
                    let out = out.add(r * out_stride + j);
                    // Two registers of columns while there are 16, then one.
                    if n - j >= 16 {
                        rows_of::<2>(block, a, a_stride, b.add(j), k, n, out, out_stride);
                        j += 16;
                    } else {
                        rows_of::<1>(block, a, a_stride, b.add(j), k, n, out, out_stride);
                        j += 8;
                    }
                }
            }
            r += block;
        }
    }

    /// [`tile`] for a block of 1 to 6 rows.
    ///
    /// # Safety
    /// As [`tile`] with `R = block`.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    #[allow(clippy::too_many_arguments)]
    unsafe fn rows_of<const C: usize>(
        block: usize,
        a: *const f32,
        a_stride: usize,
        b: *const f32,
        k: usize,
        n: usize,
        out: *mut f32,
        out_stride: usize,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe {
            match block {
                6 => tile::<6, C>(a, a_stride, b, k, n, out, out_stride),
                5 => tile::<5, C>(a, a_stride, b, k, n, out, out_stride),
                4 => tile::<4, C>(a, a_stride, b, k, n, out, out_stride),
                3 => tile::<3, C>(a, a_stride, b, k, n, out, out_stride),
                2 => tile::<2, C>(a, a_stride, b, k, n, out, out_stride),
                _ => tile::<1, C>(a, a_stride, b, k, n, out, out_stride),
            }
        }
    }

    /// One block of `R` rows and `C` registers (8 columns each) of the
    /// product, summed over all of `k` in registers and then stored.
    ///
    /// # Safety
    /// AVX2 and FMA; `a` has `R` rows of `k` at `a_stride`, `b` has `k`
    /// rows of `8 * C` at `n`, `out` has `R` rows of `8 * C` at `out_stride`.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    unsafe fn tile<const R: usize, const C: usize>(
        a: *const f32,
        a_stride: usize,
        b: *const f32,
        k: usize,
        n: usize,
        out: *mut f32,
        out_stride: usize,
    ) {
        let mut acc = [[_mm256_setzero_ps(); C]; R];
        for kk in 0..k {
            // SAFETY: kk < k, rows < R, registers < C, as the caller promises.
            unsafe {
                let mut bv = [_mm256_setzero_ps(); C];
                for (c, bv) in bv.iter_mut().enumerate() {
                    *bv = _mm256_loadu_ps(b.add(kk * n + 8 * c));
                }
                for (row, acc) in acc.iter_mut().enumerate() {
                    let av = _mm256_broadcast_ss(&*a.add(row * a_stride + kk));
                    for (acc, bv) in acc.iter_mut().zip(&bv) {
                        *acc = _mm256_fmadd_ps(av, *bv, *acc);
                    }
                }
            }
        }
        for (row, acc) in acc.iter().enumerate() {
            for (c, acc) in acc.iter().enumerate() {
                // SAFETY: as above.
                unsafe { _mm256_storeu_ps(out.add(row * out_stride + 8 * c), *acc) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_product_matches_gemm_for_every_block_shape() {
        let (k, n) = (24, 40);
        for rows in [1, 5, 6, 7, 13] {
            let a_stride = k + 3;
            let a: Vec<f32> = (0..rows * a_stride)
                .map(|i| (i % 17) as f32 * 0.25 - 2.0)
                .collect();
            let b: Vec<f32> = (0..k * n).map(|i| (i % 13) as f32 * 0.5 - 3.0).collect();
            let out_stride = n + 5;
            let mut fast = vec![7.0; rows * out_stride];
            product(
                &a,
                a_stride,
                &b,
                Shape { rows, k, n },
                &mut fast,
                out_stride,
            );
            let mut reference = vec![7.0; rows * out_stride];
            mul_strided(
                Mat::strided(&a, rows, k, a_stride),
                Mat::new(&b, k, n),
                &mut reference,
                out_stride,
                false,
            );
            assert_eq!(fast, reference, "{rows} rows");
        }
    }
}
