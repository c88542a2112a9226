//! The inference path: the network's forward pass on plain `f32` buffers,
//! each convolution an im2col GEMM (the `gemm` crate, AVX-512/AVX2 kernels
//! picked at run time) with batch norm folded into the weights. It reads
//! the weights of a [`PolicyValueNet`] and matches burn's output within
//! 1e-4; burn stays the source of truth for the weights and checkpoints.
//!
//! Activations are `[batch * 63, channels]`, one row per square.

use crate::encoding::{POLICY_SLOTS, SQUARES};
use crate::linalg::{mul, Mat};
use crate::model::{PolicyValueNet, ResBlock};
use burn::module::Param;
use burn::nn::conv::Conv2d;
use burn::nn::{BatchNorm, Linear};
use burn::tensor::Tensor;
use jungle_rules::{FILES, RANKS};

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

/// out (m x n) = a (m x k) * b (k x n), all row-major, added to `out` if `accumulate`.
fn matmul(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], out: &mut [f32], accumulate: bool) {
    mul(Mat::new(a, m, k), Mat::new(b, k, n), out, accumulate);
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

/// A convolution with batch norm folded in: weights `[k*k*cin, cout]`.
struct Conv {
    kernel: usize,
    cin: usize,
    cout: usize,
    weight: Vec<f32>,
    bias: Vec<f32>,
}

impl Conv {
    fn new(conv: &Conv2d, bn: Option<&BatchNorm>) -> Conv {
        let [cout, cin, kh, kw] = conv.weight.val().dims();
        assert_eq!(kh, kw, "square kernels only");
        let w = param(&conv.weight);
        let mut bias = conv.bias.as_ref().map_or(vec![0.0; cout], param);
        let mut scale = vec![1.0; cout];
        if let Some(bn) = bn {
            let (gamma, beta) = (param(&bn.gamma), param(&bn.beta));
            let (mean, var) = (
                values(bn.running_mean.value()),
                values(bn.running_var.value()),
            );
            for c in 0..cout {
                scale[c] = gamma[c] / (var[c] + bn.epsilon as f32).sqrt();
                bias[c] = beta[c] + (bias[c] - mean[c]) * scale[c];
            }
        }
        let weight = unfold_weight(&w, cin, kh * kw, &scale);
        Conv {
            kernel: kh,
            cin,
            cout,
            weight,
            bias,
        }
    }

    /// `input` `[rows, cin]` to `out` `[rows, cout]`; `cols` is scratch.
    fn forward(
        &self,
        input: &[f32],
        rows: usize,
        hood: &[[Option<usize>; 9]],
        cols: &mut Vec<f32>,
        out: &mut Vec<f32>,
    ) {
        out.clear();
        for _ in 0..rows {
            out.extend_from_slice(&self.bias);
        }
        if self.kernel == 1 {
            matmul(rows, self.cout, self.cin, input, &self.weight, out, true);
            return;
        }
        im2col(input, self.cin, hood, cols);
        matmul(rows, self.cout, 9 * self.cin, cols, &self.weight, out, true);
    }
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

/// A dense layer: weights `[in, out]`.
pub(crate) struct Dense {
    pub(crate) inputs: usize,
    pub(crate) outputs: usize,
    pub(crate) weight: Vec<f32>,
    pub(crate) bias: Vec<f32>,
}

impl Dense {
    pub(crate) fn new(linear: &Linear) -> Dense {
        let [inputs, outputs] = linear.weight.val().dims();
        Dense {
            inputs,
            outputs,
            weight: param(&linear.weight),
            bias: linear.bias.as_ref().map_or(vec![0.0; outputs], param),
        }
    }

    /// `input` (`[rows, inputs]`) to `[rows, outputs]`.
    pub(crate) fn forward(&self, input: &[f32], rows: usize) -> Vec<f32> {
        let mut out: Vec<f32> = (0..rows).flat_map(|_| self.bias.iter().copied()).collect();
        matmul(
            rows,
            self.outputs,
            self.inputs,
            input,
            &self.weight,
            &mut out,
            true,
        );
        out
    }
}

struct Block {
    conv1: Conv,
    conv2: Conv,
    /// A 1x1 convolution applied to the pooled channels (one row per position).
    pool_bias: Option<Conv>,
}

/// The network ready for fast inference.
pub struct FastNet {
    /// Input planes.
    planes: usize,
    stem: Conv,
    blocks: Vec<Block>,
    policy_conv: Conv,
    policy_out: Conv,
    value_conv: Conv,
    value_fc: Dense,
    value_out: Dense,
    moves_left_out: Dense,
    survival_out: Option<Dense>,
    hood: Vec<[Option<usize>; 9]>,
}

/// Outputs of [`FastNet::forward`], row-major per position.
pub struct FastOutput {
    /// 252 policy logits per position.
    pub policy: Vec<f32>,
    /// 3 win/draw/loss logits per position.
    pub wdl: Vec<f32>,
    /// Moves-left prediction per position.
    pub moves_left: Vec<f32>,
    /// [`crate::SURVIVAL_OUTPUTS`] survival logits per position (empty
    /// when the network has no survival head).
    pub survival: Vec<f32>,
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

impl FastNet {
    /// Reads the weights of `net` (its batch-norm running statistics are used,
    /// as in burn's inference mode).
    pub fn new(net: &PolicyValueNet) -> FastNet {
        let block = |b: &ResBlock| Block {
            conv1: Conv::new(&b.conv1, Some(&b.bn1)),
            conv2: Conv::new(&b.conv2, Some(&b.bn2)),
            pool_bias: b.pool_bias.as_ref().map(|c| Conv::new(c, None)),
        };
        FastNet {
            planes: net.encoding().planes(),
            stem: Conv::new(&net.stem, Some(&net.stem_bn)),
            blocks: net.blocks.iter().map(block).collect(),
            policy_conv: Conv::new(&net.policy_conv, Some(&net.policy_bn)),
            policy_out: Conv::new(&net.policy_out, None),
            value_conv: Conv::new(&net.value_conv, Some(&net.value_bn)),
            value_fc: Dense::new(&net.value_fc),
            value_out: Dense::new(&net.value_out),
            moves_left_out: Dense::new(&net.moves_left_out),
            survival_out: net.survival_out.as_ref().map(Dense::new),
            hood: neighbourhoods(),
        }
    }

    /// Whether the network has the survival head (its logits then come
    /// with every forward pass).
    pub fn has_survival_head(&self) -> bool {
        self.survival_out.is_some()
    }

    /// Runs encoded positions (`batch` x the network's input length,
    /// planes-first as [`crate::encoding::Encoding::encode`] writes them). Large batches run in
    /// chunks of [`CHUNK`] positions, whose buffers stay in cache.
    pub fn forward(&self, input: &[f32], batch: usize) -> FastOutput {
        let input_len = self.planes * SQUARES;
        assert_eq!(
            input.len(),
            batch * input_len,
            "{batch} positions of {input_len} floats"
        );
        let mut out = FastOutput {
            policy: Vec::with_capacity(batch * POLICY_SLOTS),
            wdl: Vec::with_capacity(batch * 3),
            moves_left: Vec::with_capacity(batch),
            survival: Vec::new(),
        };
        for (i, chunk) in input.chunks(CHUNK * input_len).enumerate() {
            let n = (batch - i * CHUNK).min(CHUNK);
            let part = self.forward_chunk(chunk, n);
            out.policy.extend_from_slice(&part.policy);
            out.wdl.extend_from_slice(&part.wdl);
            out.moves_left.extend_from_slice(&part.moves_left);
            out.survival.extend_from_slice(&part.survival);
        }
        out
    }

    fn forward_chunk(&self, input: &[f32], batch: usize) -> FastOutput {
        let rows = batch * SQUARES;
        // Planes-first to one row per square.
        let planes = self.planes;
        let mut x = vec![0.0; rows * planes];
        for (x, src) in x
            .chunks_exact_mut(planes * SQUARES)
            .zip(input.chunks_exact(planes * SQUARES))
        {
            planes_to_rows(src, planes, x);
        }
        let (mut cols, mut y, mut z) = (Vec::new(), Vec::new(), Vec::new());
        let mut trunk = Vec::new();
        self.stem
            .forward(&x, rows, &self.hood, &mut cols, &mut trunk);
        relu(&mut trunk);
        for block in &self.blocks {
            block
                .conv1
                .forward(&trunk, rows, &self.hood, &mut cols, &mut y);
            relu(&mut y);
            if let Some(dense) = &block.pool_bias {
                let c = block.conv1.cout;
                let mut bias = Vec::new();
                dense.forward(
                    &mean_over_squares(&y, batch, c),
                    batch,
                    &self.hood,
                    &mut cols,
                    &mut bias,
                );
                for (row, chunk) in y.chunks_exact_mut(c).enumerate() {
                    let add = &bias[(row / SQUARES) * c..(row / SQUARES + 1) * c];
                    for (v, a) in chunk.iter_mut().zip(add) {
                        *v += a;
                    }
                }
            }
            block.conv2.forward(&y, rows, &self.hood, &mut cols, &mut z);
            for (t, v) in trunk.iter_mut().zip(&z) {
                *t = (*t + v).max(0.0);
            }
        }
        // Policy head: 4 channels per square, slot = direction * 63 + square.
        self.policy_conv
            .forward(&trunk, rows, &self.hood, &mut cols, &mut y);
        relu(&mut y);
        self.policy_out
            .forward(&y, rows, &self.hood, &mut cols, &mut z);
        let mut policy = vec![0.0; batch * POLICY_SLOTS];
        for (row, chunk) in z.chunks_exact(self.policy_out.cout).enumerate() {
            for (d, v) in chunk.iter().enumerate() {
                policy[policy_slot(row, d)] = *v;
            }
        }
        // Value and moves-left heads.
        self.value_conv
            .forward(&trunk, rows, &self.hood, &mut cols, &mut y);
        relu(&mut y);
        let pooled = mean_over_squares(&y, batch, self.value_conv.cout);
        let mut hidden = self.value_fc.forward(&pooled, batch);
        relu(&mut hidden);
        FastOutput {
            policy,
            wdl: self.value_out.forward(&hidden, batch),
            moves_left: self.moves_left_out.forward(&hidden, batch),
            survival: self
                .survival_out
                .as_ref()
                .map_or(Vec::new(), |d| d.forward(&hidden, batch)),
        }
    }
}
