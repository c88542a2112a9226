//! The kernels both plain-buffer backends share ([`super::inference`],
//! [`super::training`]): matrix products through the `gemm` crate
//! (AVX-512/AVX2 kernels picked at run time, single-threaded: the passes
//! parallelise over chunks of positions), im2col over the board's 3x3
//! neighbourhoods, the planes-to-rows layout, ReLU, pooling, the policy
//! slot order and burn's weights read out as plain buffers.
//!
//! Activations are `[batch * 63, channels]`, one row per square.

use crate::encoding::{POLICY_SLOTS, SQUARES};
use burn::module::Param;
use burn::tensor::Tensor;
use gemm::{gemm, Parallelism};
use jungle_rules::{FILES, RANKS};

/// A GEMM operand: `rows x cols` elements of `data` at the given strides.
#[derive(Clone, Copy)]
pub(crate) struct Mat<'a> {
    data: &'a [f32],
    rows: usize,
    cols: usize,
    row_stride: usize,
    col_stride: usize,
}

impl<'a> Mat<'a> {
    /// A row-major matrix.
    pub(crate) fn new(data: &'a [f32], rows: usize, cols: usize) -> Mat<'a> {
        assert!(data.len() >= rows * cols, "{rows} x {cols} matrix");
        Mat {
            data,
            rows,
            cols,
            row_stride: cols,
            col_stride: 1,
        }
    }

    /// A matrix whose rows start `row_stride` elements apart.
    pub(crate) fn strided(data: &'a [f32], rows: usize, cols: usize, row_stride: usize) -> Mat<'a> {
        assert!(
            rows == 0 || data.len() >= (rows - 1) * row_stride + cols,
            "{rows} x {cols} matrix at row stride {row_stride}"
        );
        Mat {
            data,
            rows,
            cols,
            row_stride,
            col_stride: 1,
        }
    }

    /// The transpose (a view).
    pub(crate) fn t(self) -> Mat<'a> {
        Mat {
            rows: self.cols,
            cols: self.rows,
            row_stride: self.col_stride,
            col_stride: self.row_stride,
            ..self
        }
    }
}

/// `out` (row-major `a.rows x b.cols`) = `a * b`, or `+=` if `accumulate`.
pub(crate) fn mul(a: Mat, b: Mat, out: &mut [f32], accumulate: bool) {
    mul_strided(a, b, out, b.cols, accumulate);
}

/// [`mul`] with `out`'s rows `out_stride` elements apart.
pub(crate) fn mul_strided(a: Mat, b: Mat, out: &mut [f32], out_stride: usize, accumulate: bool) {
    assert_eq!(a.cols, b.rows, "inner dimensions");
    let (m, n, k) = (a.rows, b.cols, a.cols);
    assert!(out_stride >= n, "rows of {n} at stride {out_stride}");
    assert!(
        m == 0 || out.len() >= (m - 1) * out_stride + n,
        "{m} x {n} product at row stride {out_stride}"
    );
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        if !accumulate {
            for row in out.chunks_mut(out_stride).take(m) {
                row[..n].fill(0.0);
            }
        }
        return;
    }
    // SAFETY: `Mat::new` and `Mat::strided` checked that each operand holds
    // rows x cols elements at its strides; the transposed views address the
    // same elements, and `out` holds m rows of n at `out_stride`.
    unsafe {
        gemm(
            m,
            n,
            k,
            out.as_mut_ptr(),
            1,
            out_stride as isize,
            accumulate,
            a.data.as_ptr(),
            a.col_stride as isize,
            a.row_stride as isize,
            b.data.as_ptr(),
            b.col_stride as isize,
            b.row_stride as isize,
            1.0,
            1.0,
            false,
            false,
            false,
            Parallelism::None,
        )
    }
}

/// One large product (`size x size x size`, `2 * size^3` operations) per
/// call through the `gemm` crate on the calling thread, with its own
/// operands: what `jungle bench net` times as the machine's practical FP32
/// peak, to report the network's rates against.
pub fn large_product(size: usize) -> impl FnMut() {
    let a: Vec<f32> = (0..size * size).map(|i| (i % 7) as f32 * 0.1).collect();
    let mut out = vec![0.0; size * size];
    move || {
        mul(
            Mat::new(&a, size, size),
            Mat::new(&a, size, size),
            &mut out,
            false,
        )
    }
}

/// Positions per GEMM pass. Measured on a 2-core AVX-512 machine (6x64 net,
/// one thread): chunks of 8, 16 and 32 run within 2% of each other (16
/// best); one pass over 128 or 256 positions was 20-40% slower.
pub const CHUNK: usize = 16;

/// For each square, its 3x3 neighbourhood (row-major kernel order), `None`
/// off the board (zero padding).
pub(crate) fn neighbourhoods() -> Vec<[Option<usize>; 9]> {
    let (files, ranks) = (FILES as i32, RANKS as i32);
    (0..SQUARES as i32)
        .map(|s| {
            let (y, x) = (s / files, s % files);
            let mut n = [None; 9];
            for ky in 0..3 {
                for kx in 0..3 {
                    let (yy, xx) = (y + ky - 1, x + kx - 1);
                    if (0..ranks).contains(&yy) && (0..files).contains(&xx) {
                        n[(ky * 3 + kx) as usize] = Some((yy * files + xx) as usize);
                    }
                }
            }
            n
        })
        .collect()
}

pub(crate) fn values<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().try_to_vec::<f32>().expect("f32 weights")
}

pub(crate) fn param<const D: usize>(p: &Param<Tensor<D>>) -> Vec<f32> {
    values(p.val())
}

/// burn's convolution weights `w` (`[cout, cin, k, k]`, `kk = k * k`) as
/// the GEMM operand `[kk * cin, cout]` (row `kernel_pos * cin + ci`), each
/// output channel `co` times `scale[co]` (`cout = scale.len()`).
pub(crate) fn unfold_weight(w: &[f32], cin: usize, kk: usize, scale: &[f32]) -> Vec<f32> {
    let cout = scale.len();
    let mut weight = vec![0.0; kk * cin * cout];
    for co in 0..cout {
        for ci in 0..cin {
            for k in 0..kk {
                weight[(k * cin + ci) * cout + co] = w[((co * cin + ci) * kk) + k] * scale[co];
            }
        }
    }
    weight
}

/// Writes to `cols` (resized to `[rows, 9 * cin]`) each row's 3x3
/// neighbourhood of `input` (`[rows, cin]`, whole positions of 63 rows),
/// kernel-major: column `k * cin + c` is channel `c` of neighbour `k`,
/// zero off the board. Every element is written, so the buffer is reused
/// without clearing; neighbours next to each other on the board (a kernel
/// row inside the board) are one copy.
pub(crate) fn im2col(input: &[f32], cin: usize, hood: &[[Option<usize>; 9]], cols: &mut Vec<f32>) {
    let rows = input.len() / cin;
    cols.resize(rows * 9 * cin, 0.0);
    for (row, col) in cols.chunks_exact_mut(9 * cin).enumerate() {
        let base = row - row % SQUARES;
        let hood = &hood[row % SQUARES];
        let mut k = 0;
        while k < 9 {
            let dst = &mut col[k * cin..];
            let Some(n) = hood[k] else {
                dst[..cin].fill(0.0);
                k += 1;
                continue;
            };
            // The run of neighbours at n, n + 1, ... in this kernel row.
            let mut len = 1;
            while k % 3 + len < 3 && hood[k + len] == Some(n + len) {
                len += 1;
            }
            let src = &input[(base + n) * cin..(base + n + len) * cin];
            dst[..len * cin].copy_from_slice(src);
            k += len;
        }
    }
}

/// One position's planes-first input (`[planes, 63]`) to one row per
/// square (`[63, planes]`).
pub(crate) fn planes_to_rows(src: &[f32], planes: usize, rows: &mut [f32]) {
    for p in 0..planes {
        for s in 0..SQUARES {
            rows[s * planes + p] = src[p * SQUARES + s];
        }
    }
}

/// The policy slot (`[batch, 252]`, slot = direction * 63 + square) of
/// output row `row` (`[batch * 63, directions]`) and direction `dir`.
pub(crate) fn policy_slot(row: usize, dir: usize) -> usize {
    (row / SQUARES) * POLICY_SLOTS + dir * SQUARES + row % SQUARES
}

pub(crate) fn relu(x: &mut [f32]) {
    for v in x {
        *v = v.max(0.0);
    }
}

/// Mean over the 63 squares of each position: `[batch*63, c]` to `[batch, c]`.
pub(crate) fn mean_over_squares(x: &[f32], batch: usize, c: usize) -> Vec<f32> {
    let mut out = vec![0.0; batch * c];
    for (row, chunk) in x.chunks_exact(c).enumerate() {
        let dst = &mut out[(row / SQUARES) * c..(row / SQUARES + 1) * c];
        for (d, v) in dst.iter_mut().zip(chunk) {
            *d += v;
        }
    }
    for v in &mut out {
        *v /= SQUARES as f32;
    }
    out
}
