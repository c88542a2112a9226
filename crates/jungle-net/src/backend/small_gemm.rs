//! Products of small matrices, `[rows, k] x [k, n]` with `k` and `n` whole
//! AVX registers (8 floats), as the Winograd convolution makes them: 30 of
//! `[24, 32] x [32, 32]` per layer and group of four positions.
//!
//! The `gemm` crate packs its operands and sets up per call, which on
//! these shapes ran at 52 GFLOP/s on the 2-core EPYC of
//! `docs/performance.md` (a large product: 90+); these kernels read the
//! operands in place (the right one, the weights, is small enough to stay
//! in L1) and keep a block of the product in registers: 6 rows x 16
//! columns on AVX2 (the shape of `gemm`'s own AVX2 kernel), 12 rows x 32
//! columns on AVX-512 (24 of its 32 registers; the last 8 columns of a
//! width that is not whole registers through masked loads and stores).
//! The plain path, and shapes that are not whole 8-float registers, go to
//! the `gemm` crate.

use super::kernel_path::KernelPath;
use super::kernels::{mul_strided, Mat};

/// The shape of a product: `[rows, k] x [k, n]`.
#[derive(Clone, Copy)]
pub(crate) struct Shape {
    pub(crate) rows: usize,
    pub(crate) k: usize,
    pub(crate) n: usize,
}

/// `out` (rows at `out_stride`) = `a` (`rows x k`, rows at `a_stride`) *
/// `b` (`k x n`, row-major), on `path`'s kernels.
///
/// # Panics
/// If this processor cannot run `path`, or the operands are shorter than
/// the shape says.
pub(crate) fn product(
    a: &[f32],
    a_stride: usize,
    b: &[f32],
    shape: Shape,
    out: &mut [f32],
    out_stride: usize,
    path: KernelPath,
) {
    let Shape { rows, k, n } = shape;
    assert!(
        path.runs_here(),
        "{} kernels on this processor",
        path.name()
    );
    #[cfg(target_arch = "x86_64")]
    if k.is_multiple_of(8) && n.is_multiple_of(8) && path != KernelPath::Plain {
        if rows == 0 || n == 0 {
            return;
        }
        check_operands(a, a_stride, b, shape, out, out_stride);
        // SAFETY: the processor runs `path` (asserted above); the operands
        // hold the shape at their strides (`check_operands`).
        unsafe {
            match path {
                KernelPath::Avx512 => avx512::product(a, a_stride, b, shape, out, out_stride),
                _ => avx::product(a, a_stride, b, shape, out, out_stride),
            }
        }
        return;
    }
    mul_strided(
        Mat::strided(a, rows, k, a_stride),
        Mat::new(b, k, n),
        out,
        out_stride,
        false,
    );
}

/// Panics unless `a`, `b` and `out` hold a product of `shape` (at least
/// one row and one column) at their strides.
#[cfg(target_arch = "x86_64")]
fn check_operands(
    a: &[f32],
    a_stride: usize,
    b: &[f32],
    shape: Shape,
    out: &[f32],
    out_stride: usize,
) {
    let Shape { rows, k, n } = shape;
    assert!(b.len() >= k * n, "{k} x {n} right operand");
    assert!(a_stride >= k && out_stride >= n, "strides");
    assert!(
        a.len() >= (rows - 1) * a_stride + k,
        "{rows} x {k} left operand"
    );
    assert!(
        out.len() >= (rows - 1) * out_stride + n,
        "{rows} x {n} product"
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
    /// of 8, `rows` and `n` at least 1, and the operands hold the shape
    /// ([`super::check_operands`]).
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
        let (a, b, out) = (a.as_ptr(), b.as_ptr(), out.as_mut_ptr());
        let mut r = 0;
        while r < rows {
            let block = (rows - r).min(6);
            let mut j = 0;
            while j < n {
                // SAFETY: rows r..r + block < rows and columns j..j + 16
                // (or 8) <= n, inside the operands the caller checked.
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

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::Shape;
    use std::arch::x86_64::*;

    /// Rows of a block: 12 rows x 2 registers = 24 accumulators, with the
    /// two right-operand registers and the broadcast inside the 32.
    const ROWS: usize = 12;
    /// Columns of a register.
    const WIDTH: usize = 16;

    /// [`super::product`] on AVX-512 registers.
    ///
    /// # Safety
    /// The processor must have AVX-512F; as [`super::avx::product`] for
    /// the rest.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub(super) unsafe fn product(
        a: &[f32],
        a_stride: usize,
        b: &[f32],
        shape: Shape,
        out: &mut [f32],
        out_stride: usize,
    ) {
        let Shape { rows, k, n } = shape;
        let (a, b, out) = (a.as_ptr(), b.as_ptr(), out.as_mut_ptr());
        let mut r = 0;
        while r < rows {
            let block = (rows - r).min(ROWS);
            let mut j = 0;
            while j < n {
                // Two registers of columns while there are more than 16,
                // the last one masked to the columns left (8 or 16).
                let width = (n - j).min(2 * WIDTH);
                let last = (width - 1) % WIDTH + 1;
                let mask: __mmask16 = if last == WIDTH { !0 } else { (1 << last) - 1 };
                // SAFETY: rows r..r + block < rows and columns j..j + width
                // <= n, inside the operands the caller checked; the masked
                // register reads and writes only columns below n.
                unsafe {
                    let a = a.add(r * a_stride);
                    let out = out.add(r * out_stride + j);
                    if width > WIDTH {
                        rows_of::<2>(block, a, a_stride, b.add(j), k, n, out, out_stride, mask);
                    } else {
                        rows_of::<1>(block, a, a_stride, b.add(j), k, n, out, out_stride, mask);
                    }
                }
                j += width;
            }
            r += block;
        }
    }

    /// [`tile`] for a block of 1 to 12 rows.
    ///
    /// # Safety
    /// As [`tile`] with `R = block`.
    #[target_feature(enable = "avx512f,avx2,fma")]
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
        mask: __mmask16,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe {
            match block {
                12 => tile::<12, C>(a, a_stride, b, k, n, out, out_stride, mask),
                11 => tile::<11, C>(a, a_stride, b, k, n, out, out_stride, mask),
                10 => tile::<10, C>(a, a_stride, b, k, n, out, out_stride, mask),
                9 => tile::<9, C>(a, a_stride, b, k, n, out, out_stride, mask),
                8 => tile::<8, C>(a, a_stride, b, k, n, out, out_stride, mask),
                7 => tile::<7, C>(a, a_stride, b, k, n, out, out_stride, mask),
                6 => tile::<6, C>(a, a_stride, b, k, n, out, out_stride, mask),
                5 => tile::<5, C>(a, a_stride, b, k, n, out, out_stride, mask),
                4 => tile::<4, C>(a, a_stride, b, k, n, out, out_stride, mask),
                3 => tile::<3, C>(a, a_stride, b, k, n, out, out_stride, mask),
                2 => tile::<2, C>(a, a_stride, b, k, n, out, out_stride, mask),
                _ => tile::<1, C>(a, a_stride, b, k, n, out, out_stride, mask),
            }
        }
    }

    /// One block of `R` rows and `C` registers (16 columns each, the last
    /// one's columns chosen by `mask`) of the product, summed over all of
    /// `k` in registers and then stored.
    ///
    /// # Safety
    /// AVX-512F; `a` has `R` rows of `k` at `a_stride`, `b` has `k` rows of
    /// `16 * (C - 1)` columns plus the last register's masked ones at `n`,
    /// `out` has `R` rows of those columns at `out_stride`.
    #[target_feature(enable = "avx512f,avx2,fma")]
    #[inline]
    #[allow(clippy::too_many_arguments)]
    unsafe fn tile<const R: usize, const C: usize>(
        a: *const f32,
        a_stride: usize,
        b: *const f32,
        k: usize,
        n: usize,
        out: *mut f32,
        out_stride: usize,
        mask: __mmask16,
    ) {
        let mut acc = [[_mm512_setzero_ps(); C]; R];
        for kk in 0..k {
            // SAFETY: kk < k, rows < R, registers < C, the last one masked,
            // as the caller promises.
            unsafe {
                let mut bv = [_mm512_setzero_ps(); C];
                for (c, bv) in bv.iter_mut().enumerate() {
                    let at = b.add(kk * n + WIDTH * c);
                    *bv = if c + 1 == C {
                        _mm512_maskz_loadu_ps(mask, at)
                    } else {
                        _mm512_loadu_ps(at)
                    };
                }
                for (row, acc) in acc.iter_mut().enumerate() {
                    let av = _mm512_set1_ps(*a.add(row * a_stride + kk));
                    for (acc, bv) in acc.iter_mut().zip(&bv) {
                        *acc = _mm512_fmadd_ps(av, *bv, *acc);
                    }
                }
            }
        }
        for (row, acc) in acc.iter().enumerate() {
            for (c, acc) in acc.iter().enumerate() {
                // SAFETY: as above.
                unsafe {
                    let at = out.add(row * out_stride + WIDTH * c);
                    if c + 1 == C {
                        _mm512_mask_storeu_ps(at, mask, *acc);
                    } else {
                        _mm512_storeu_ps(at, *acc);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_product_matches_gemm_for_every_block_shape_on_every_path() {
        // Widths of one, two, three and four AVX2 registers, and 40 (two
        // AVX-512 registers and a masked half); rows across every block.
        for path in KernelPath::here() {
            for (k, n) in [(24, 40), (8, 8), (16, 16), (32, 32), (64, 64), (48, 24)] {
                for rows in [1, 5, 6, 7, 12, 13, 25] {
                    let a_stride = k + 3;
                    let a: Vec<f32> = (0..rows * a_stride)
                        .map(|i| (i % 17) as f32 * 0.25 - 2.0)
                        .collect();
                    let b: Vec<f32> = (0..k * n).map(|i| (i % 13) as f32 * 0.5 - 3.0).collect();
                    let out_stride = n + 5;
                    let mut fast = vec![7.0; rows * out_stride];
                    let shape = Shape { rows, k, n };
                    product(&a, a_stride, &b, shape, &mut fast, out_stride, path);
                    let mut reference = vec![7.0; rows * out_stride];
                    mul_strided(
                        Mat::strided(&a, rows, k, a_stride),
                        Mat::new(&b, k, n),
                        &mut reference,
                        out_stride,
                        false,
                    );
                    // The operands are multiples of 1/4 and their sums exact.
                    assert_eq!(fast, reference, "{} {rows}x{k}x{n}", path.name());
                }
            }
        }
    }
}
