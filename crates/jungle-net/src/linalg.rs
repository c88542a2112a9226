//! Matrix products on plain `f32` buffers through the `gemm` crate
//! (AVX-512/AVX2 kernels picked at run time), single-threaded: the
//! inference and training passes parallelise over chunks of positions.

use gemm::{gemm, Parallelism};

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
    assert_eq!(a.cols, b.rows, "inner dimensions");
    let (m, n, k) = (a.rows, b.cols, a.cols);
    assert!(out.len() >= m * n, "{m} x {n} product");
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        if !accumulate {
            out[..m * n].fill(0.0);
        }
        return;
    }
    // SAFETY: `Mat::new` checked that each operand holds rows x cols
    // elements at its row-major strides; the transposed views address the
    // same elements, and `out` holds m x n.
    unsafe {
        gemm(
            m,
            n,
            k,
            out.as_mut_ptr(),
            1,
            n as isize,
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
