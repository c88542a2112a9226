//! The training pass on plain `f32` buffers: the network's forward pass with
//! batch norm in training mode (batch statistics) and its backward pass,
//! on rayon's threads. A 3x3 convolution's forward pass and its input's
//! gradient run in the Winograd domain ([`super::winograd`], the same
//! kernels as inference); its weight gradient and the 1x1 convolutions are
//! GEMMs (the `gemm` crate, the 3x3 weights' through im2col).
//! burn's autodiff runs the same step about three times slower on a
//! 2-core CPU; this pass matches its gradients (tested) and hands them to
//! burn's optimiser, so checkpoints, optimiser state and the module stay
//! burn's.
//!
//! Activations are `[batch * 63, channels]`, one row per square, as in
//! [`super::inference`].

use super::inference;
use super::kernels::{
    im2col, mean_over_squares, mul, neighbourhoods, param, planes_to_rows, policy_slot, relu,
    unfold_weight, values, Mat, CHUNK,
};
use super::reference::PolicyValueNet;
use super::winograd::{WinogradScratch, WinogradWeight};
use crate::encoding::{POLICY_SLOTS, SQUARES};
use crate::outputs::{Output, Outputs};
use burn::module::{Module, ParamId};
use burn::nn::conv::Conv2d;
use burn::nn::{BatchNorm, Linear};
use burn::optim::GradientsParams;
use burn::tensor::{Device, Tensor, TensorData};
use rayon::prelude::*;

type Hood = [[Option<usize>; 9]];

/// Sum of each column of a row-major `[rows, c]` buffer.
fn column_sums(x: &[f32], c: usize) -> Vec<f32> {
    let mut sums = vec![0.0f64; c];
    for row in x.chunks_exact(c) {
        for (s, v) in sums.iter_mut().zip(row) {
            *s += f64::from(*v);
        }
    }
    sums.into_iter().map(|s| s as f32).collect()
}

/// Zeroes `grad` where the ReLU's output `out` is not positive.
fn relu_backward(grad: &mut [f32], out: &[f32]) {
    grad.par_chunks_mut(1 << 16)
        .zip(out.par_chunks(1 << 16))
        .for_each(|(grad, out)| {
            // A select rather than a branch: it vectorises, and the sign
            // of `o` is a coin toss the branch predictor loses.
            for (g, o) in grad.iter_mut().zip(out) {
                *g = if *o > 0.0 { *g } else { 0.0 };
            }
        });
}

/// Adds each position's row of `per_position` (`[batch, c]`) to its 63
/// square rows of `x` (`[batch * 63, c]`), times `scale`.
fn add_to_squares(x: &mut [f32], per_position: &[f32], c: usize, scale: f32) {
    for (row, chunk) in x.chunks_exact_mut(c).enumerate() {
        let add = &per_position[(row / SQUARES) * c..(row / SQUARES + 1) * c];
        for (v, a) in chunk.iter_mut().zip(add) {
            *v += a * scale;
        }
    }
}

/// A gradient for one parameter, in burn's layout.
struct ParamGrad {
    id: ParamId,
    shape: Vec<usize>,
    values: Vec<f32>,
}

/// A convolution without batch norm folded in: weights `[k*k*cin, cout]`.
struct Conv {
    kernel: usize,
    cin: usize,
    cout: usize,
    weight: Vec<f32>,
    /// For a 3x3 kernel: the forward convolution in the Winograd domain,
    /// and the input's gradient, which is the output gradient convolved
    /// with the weights turned half a circle and transposed (`cout` in,
    /// `cin` out). The weight gradient stays an im2col GEMM.
    winograd: Option<(WinogradWeight, WinogradWeight)>,
    bias: Option<Vec<f32>>,
    weight_id: ParamId,
    bias_id: Option<ParamId>,
}

impl Conv {
    fn read(conv: &Conv2d) -> Conv {
        let [cout, cin, kh, kw] = conv.weight.val().dims();
        assert_eq!(kh, kw, "square kernels only");
        assert!(kh == 1 || kh == 3, "1x1 and 3x3 kernels only");
        let weight = unfold_weight(&param(&conv.weight), cin, kh * kw, &vec![1.0; cout]);
        let winograd = (kh == 3).then(|| {
            let mut flipped = vec![0.0; 9 * cout * cin];
            for k in 0..9 {
                for co in 0..cout {
                    for ci in 0..cin {
                        flipped[(k * cout + co) * cin + ci] =
                            weight[((8 - k) * cin + ci) * cout + co];
                    }
                }
            }
            (
                WinogradWeight::new(&weight, cin, cout),
                WinogradWeight::new(&flipped, cout, cin),
            )
        });
        Conv {
            kernel: kh,
            cin,
            cout,
            weight,
            winograd,
            bias: conv.bias.as_ref().map(param),
            weight_id: conv.weight.id,
            bias_id: conv.bias.as_ref().map(|b| b.id),
        }
    }

    fn width(&self) -> usize {
        self.kernel * self.kernel * self.cin
    }

    /// The GEMM input of `input` (`[rows, cin]`, whole positions): its
    /// im2col for a 3x3 kernel written to `cols`, the input itself for 1x1.
    fn columns<'a>(&self, input: &'a [f32], hood: &Hood, cols: &'a mut Vec<f32>) -> &'a [f32] {
        if self.kernel == 1 {
            return input;
        }
        im2col(input, self.cin, hood, cols);
        cols
    }

    /// `input` (`[rows, cin]`) to `[rows, cout]`, [`CHUNK`] positions at a
    /// time on rayon's threads (each chunk's columns stay in cache).
    fn forward(&self, input: &[f32]) -> Vec<f32> {
        let rows = input.len() / self.cin;
        let bias = self.bias.clone().unwrap_or_else(|| vec![0.0; self.cout]);
        let mut out = match &self.winograd {
            // The Winograd output transform writes the bias itself.
            Some(_) => vec![0.0; rows * self.cout],
            None => (0..rows).flat_map(|_| bias.iter().copied()).collect(),
        };
        let chunks = out
            .par_chunks_mut(CHUNK * SQUARES * self.cout)
            .zip(input.par_chunks(CHUNK * SQUARES * self.cin));
        match &self.winograd {
            Some((winograd, _)) => chunks
                .for_each_init(WinogradScratch::default, |scratch, (out, input)| {
                    winograd.forward(input, &bias, out, scratch)
                }),
            None => chunks.for_each(|(out, input)| {
                let rows = input.len() / self.cin;
                mul(
                    Mat::new(input, rows, self.cin),
                    Mat::new(&self.weight, self.cin, self.cout),
                    out,
                    true,
                );
            }),
        }
        out
    }

    /// Pushes the weight (and bias) gradients for `grad` (`[rows, cout]`)
    /// of the layer run on `input` (`[rows, cin]`) and, if `input_grad` is
    /// given, adds the gradient of the input to it. Chunks of positions
    /// run in parallel, the columns recomputed rather than kept.
    fn backward(
        &self,
        input: &[f32],
        grad: &[f32],
        hood: &Hood,
        input_grad: Option<&mut [f32]>,
        out: &mut Vec<ParamGrad>,
    ) {
        let width = self.width();
        let weight_t = Mat::new(&self.weight, width, self.cout).t();
        let no_bias = vec![0.0; self.cin];
        let input_grads: Vec<Option<&mut [f32]>> = match input_grad {
            Some(g) => g.chunks_mut(CHUNK * SQUARES * self.cin).map(Some).collect(),
            None => (0..input.chunks(CHUNK * SQUARES * self.cin).len())
                .map(|_| None)
                .collect(),
        };
        // One weight gradient per chunk, added up in chunk order: the sum
        // does not depend on how rayon split the work.
        let partial: Vec<Vec<f32>> = input
            .par_chunks(CHUNK * SQUARES * self.cin)
            .zip(grad.par_chunks(CHUNK * SQUARES * self.cout))
            .zip(input_grads)
            .map_init(
                || (Vec::new(), WinogradScratch::default()),
                |(cols, scratch), ((input, grad), input_grad)| {
                    let rows = input.len() / self.cin;
                    let columns = self.columns(input, hood, cols);
                    let mut dw = vec![0.0; width * self.cout];
                    mul(
                        Mat::new(columns, rows, width).t(),
                        Mat::new(grad, rows, self.cout),
                        &mut dw,
                        false,
                    );
                    if let Some(dx) = input_grad {
                        match &self.winograd {
                            // A "same" 3x3 convolution's input gradient is
                            // the output gradient convolved with the
                            // flipped kernel.
                            Some((_, flipped)) => flipped.add_forward(grad, &no_bias, dx, scratch),
                            None => mul(Mat::new(grad, rows, self.cout), weight_t, dx, true),
                        }
                    }
                    dw
                },
            )
            .collect();
        let mut dw = vec![0.0; width * self.cout];
        for part in partial {
            for (d, p) in dw.iter_mut().zip(part) {
                *d += p;
            }
        }
        let kk = self.kernel * self.kernel;
        let mut burn_dw = vec![0.0; dw.len()];
        for co in 0..self.cout {
            for ci in 0..self.cin {
                for k in 0..kk {
                    burn_dw[(co * self.cin + ci) * kk + k] =
                        dw[(k * self.cin + ci) * self.cout + co];
                }
            }
        }
        out.push(ParamGrad {
            id: self.weight_id,
            shape: vec![self.cout, self.cin, self.kernel, self.kernel],
            values: burn_dw,
        });
        if let Some(id) = self.bias_id {
            out.push(ParamGrad {
                id,
                shape: vec![self.cout],
                values: column_sums(grad, self.cout),
            });
        }
    }
}

/// Batch norm in training mode.
struct Norm {
    gamma: Vec<f32>,
    beta: Vec<f32>,
    epsilon: f64,
    gamma_id: ParamId,
    beta_id: ParamId,
}

/// What a batch norm's backward pass needs, and the statistics for its
/// running averages.
struct NormTape {
    normalized: Vec<f32>,
    inv_std: Vec<f32>,
    mean: Vec<f32>,
    variance: Vec<f32>,
}

impl Norm {
    fn read(bn: &BatchNorm) -> Norm {
        Norm {
            gamma: param(&bn.gamma),
            beta: param(&bn.beta),
            epsilon: bn.epsilon,
            gamma_id: bn.gamma.id,
            beta_id: bn.beta.id,
        }
    }

    /// Normalises `x` (`[rows, c]`) in place with the batch's mean and
    /// biased variance, then scales and shifts (and applies a ReLU if
    /// `relu`). Rows run in parallel.
    fn forward(&self, x: &mut [f32], relu: bool) -> NormTape {
        let c = self.gamma.len();
        let rows = (x.len() / c) as f64;
        // Two passes, as burn does: the mean, then the squared deviations
        // from it (one pass of sums of squares loses a channel whose spread
        // is small beside its mean, e.g. one reading a constant plane).
        let [sum, _] = channel_sums(x, c, &[], |row, _, sum, _| {
            for (s, v) in sum.iter_mut().zip(row) {
                *s += v;
            }
        });
        let mean: Vec<f64> = sum.iter().map(|s| s / rows).collect();
        let centre: Vec<f32> = mean.iter().map(|m| *m as f32).collect();
        let [squares, _] = channel_sums(x, c, &[], |row, _, squares, _| {
            for ((s, v), m) in squares.iter_mut().zip(row).zip(&centre) {
                *s += (v - m) * (v - m);
            }
        });
        let variance: Vec<f64> = squares.iter().map(|q| q / rows).collect();
        let inv_std: Vec<f32> = variance
            .iter()
            .map(|v| (1.0 / (v + self.epsilon).sqrt()) as f32)
            .collect();
        let mean = centre;
        let mut normalized = vec![0.0; x.len()];
        normalized
            .par_chunks_mut(ROWS_PER_TASK * c)
            .zip(x.par_chunks_mut(ROWS_PER_TASK * c))
            .for_each(|(normalized, x)| {
                // `x * a + b` per channel with `n = (x - mean) * inv_std`,
                // zipped so that the channel loop vectorises.
                let lanes = mean
                    .iter()
                    .zip(&inv_std)
                    .zip(self.gamma.iter().zip(&self.beta));
                let lanes: Vec<_> = lanes.collect();
                for (n_row, x_row) in normalized.chunks_exact_mut(c).zip(x.chunks_exact_mut(c)) {
                    for ((n, x), ((m, s), (g, b))) in n_row.iter_mut().zip(x_row).zip(&lanes) {
                        *n = (*x - *m) * *s;
                        let y = *n * *g + *b;
                        *x = if relu { y.max(0.0) } else { y };
                    }
                }
            });
        NormTape {
            normalized,
            inv_std,
            mean,
            variance: variance.iter().map(|v| *v as f32).collect(),
        }
    }

    /// Turns `grad` (of the output) into the gradient of the input in
    /// place; pushes the gradients of gamma and beta. `relu_out` is the
    /// output when the forward pass applied a ReLU (the gradient is zeroed
    /// where it is not positive).
    fn backward(
        &self,
        tape: &NormTape,
        grad: &mut [f32],
        relu_out: Option<&[f32]>,
        out: &mut Vec<ParamGrad>,
    ) {
        let c = self.gamma.len();
        if let Some(relu_out) = relu_out {
            relu_backward(grad, relu_out);
        }
        let rows = (grad.len() / c) as f32;
        let [dbeta, dgamma] = channel_sums(grad, c, &tape.normalized, |g, n, dbeta, dgamma| {
            let sums = dbeta.iter_mut().zip(dgamma.iter_mut());
            for ((db, dg), (g, n)) in sums.zip(g.iter().zip(n)) {
                *db += g;
                *dg += g * n;
            }
        });
        let dbeta: Vec<f32> = dbeta.into_iter().map(|v| v as f32).collect();
        let dgamma: Vec<f32> = dgamma.into_iter().map(|v| v as f32).collect();
        let scale: Vec<f32> = (0..c)
            .map(|ch| self.gamma[ch] * tape.inv_std[ch] / rows)
            .collect();
        grad.par_chunks_mut(ROWS_PER_TASK * c)
            .zip(tape.normalized.par_chunks(ROWS_PER_TASK * c))
            .for_each(|(grad, normalized)| {
                for (g, n) in grad.chunks_exact_mut(c).zip(normalized.chunks_exact(c)) {
                    let lanes = g
                        .iter_mut()
                        .zip(n)
                        .zip(&scale)
                        .zip(dbeta.iter().zip(&dgamma));
                    for (((g, n), s), (db, dg)) in lanes {
                        *g = s * (rows * *g - db - n * dg);
                    }
                }
            });
        out.push(ParamGrad {
            id: self.gamma_id,
            shape: vec![c],
            values: dgamma,
        });
        out.push(ParamGrad {
            id: self.beta_id,
            shape: vec![c],
            values: dbeta,
        });
    }
}

/// Rows per parallel task of the element-wise passes.
const ROWS_PER_TASK: usize = 1024;

/// Per-channel sums over the rows of `x` (`[rows, c]`): `add_row(row,
/// other_row, a, b)` adds one row's two values per channel to the running
/// sums `a` and `b`, `other_row` being the matching row of `other` (empty
/// when `other` is). Each call covers a whole row so the channel loop in
/// it vectorises. Tasks of [`ROWS_PER_TASK`] rows sum in `f32` and are
/// added in `f64`, in order (the result does not depend on the number of
/// threads).
fn channel_sums(
    x: &[f32],
    c: usize,
    other: &[f32],
    add_row: impl Fn(&[f32], &[f32], &mut [f32], &mut [f32]) + Sync,
) -> [Vec<f64>; 2] {
    let task = ROWS_PER_TASK * c;
    let partial: Vec<[Vec<f32>; 2]> = x
        .par_chunks(task)
        .enumerate()
        .map(|(t, x)| {
            let other = other.get(t * task..t * task + x.len());
            let (mut a, mut b) = (vec![0.0f32; c], vec![0.0f32; c]);
            for (r, row) in x.chunks_exact(c).enumerate() {
                let other_row = other.map_or(&[][..], |o| &o[r * c..(r + 1) * c]);
                add_row(row, other_row, &mut a, &mut b);
            }
            [a, b]
        })
        .collect();
    // Added in task order: the sums do not depend on rayon's split.
    let mut sums = [vec![0.0f64; c], vec![0.0f64; c]];
    for [a, b] in partial {
        for ch in 0..c {
            sums[0][ch] += f64::from(a[ch]);
            sums[1][ch] += f64::from(b[ch]);
        }
    }
    sums
}

/// A dense layer (weights `[in, out]`, as burn stores them) with its
/// parameters' ids.
struct Dense {
    layer: inference::Dense,
    weight_id: ParamId,
    bias_id: Option<ParamId>,
}

impl Dense {
    fn read(linear: &Linear) -> Dense {
        Dense {
            layer: inference::Dense::new(linear),
            weight_id: linear.weight.id,
            bias_id: linear.bias.as_ref().map(|b| b.id),
        }
    }

    fn forward(&self, input: &[f32], rows: usize) -> Vec<f32> {
        self.layer.forward(input, rows)
    }

    /// Pushes the parameter gradients for `grad` (`[rows, outputs]`) and
    /// adds the input's gradient to `input_grad`.
    fn backward(
        &self,
        input: &[f32],
        rows: usize,
        grad: &[f32],
        input_grad: &mut [f32],
        out: &mut Vec<ParamGrad>,
    ) {
        let mut dw = vec![0.0; self.layer.inputs * self.layer.outputs];
        mul(
            Mat::new(input, rows, self.layer.inputs).t(),
            Mat::new(grad, rows, self.layer.outputs),
            &mut dw,
            false,
        );
        out.push(ParamGrad {
            id: self.weight_id,
            shape: vec![self.layer.inputs, self.layer.outputs],
            values: dw,
        });
        if let Some(id) = self.bias_id {
            out.push(ParamGrad {
                id,
                shape: vec![self.layer.outputs],
                values: column_sums(grad, self.layer.outputs),
            });
        }
        mul(
            Mat::new(grad, rows, self.layer.outputs),
            Mat::new(&self.layer.weight, self.layer.inputs, self.layer.outputs).t(),
            input_grad,
            true,
        );
    }
}

struct Block {
    conv1: Conv,
    norm1: Norm,
    conv2: Conv,
    norm2: Norm,
    pool_bias: Option<Conv>,
}

/// The network's weights as read for one step.
struct Layers {
    stem: Conv,
    stem_norm: Norm,
    blocks: Vec<Block>,
    policy_conv: Conv,
    policy_norm: Norm,
    policy_out: Conv,
    value_conv: Conv,
    value_norm: Norm,
    value_fc: Dense,
    /// The dense heads on the value head's hidden layer
    /// ([`PolicyValueNet::hidden_heads`]).
    heads: Vec<(Output, Dense)>,
}

/// The batch norms of `net` in the order [`Tape::norm_stats`] lists them.
fn batch_norms(net: &PolicyValueNet) -> Vec<&BatchNorm> {
    let mut norms = vec![&net.stem_bn];
    for b in &net.blocks {
        norms.push(&b.bn1);
        norms.push(&b.bn2);
    }
    norms.push(&net.policy_bn);
    norms.push(&net.value_bn);
    norms
}

impl Layers {
    fn read(net: &PolicyValueNet) -> Layers {
        Layers {
            stem: Conv::read(&net.stem),
            stem_norm: Norm::read(&net.stem_bn),
            blocks: net
                .blocks
                .iter()
                .map(|b| Block {
                    conv1: Conv::read(&b.conv1),
                    norm1: Norm::read(&b.bn1),
                    conv2: Conv::read(&b.conv2),
                    norm2: Norm::read(&b.bn2),
                    pool_bias: b.pool_bias.as_ref().map(Conv::read),
                })
                .collect(),
            policy_conv: Conv::read(&net.policy_conv),
            policy_norm: Norm::read(&net.policy_bn),
            policy_out: Conv::read(&net.policy_out),
            value_conv: Conv::read(&net.value_conv),
            value_norm: Norm::read(&net.value_bn),
            value_fc: Dense::read(&net.value_fc),
            heads: net
                .hidden_heads()
                .into_iter()
                .map(|(o, l)| (o, Dense::read(l)))
                .collect(),
        }
    }
}

/// What one residual block's backward pass needs.
struct BlockTape {
    norm1: NormTape,
    /// After the first ReLU (before the pooled bias).
    hidden: Vec<f32>,
    /// With a pooled bias: the pooled `hidden` (`[batch, c]`) and the
    /// second convolution's input (`hidden` plus the bias).
    pooled: Option<(Vec<f32>, Vec<f32>)>,
    norm2: NormTape,
    /// The block's output.
    out: Vec<f32>,
}

/// The forward pass of one batch, kept for its backward pass.
pub struct Tape {
    layers: Layers,
    hood: Vec<[Option<usize>; 9]>,
    batch: usize,
    input: Vec<f32>,
    stem_norm: NormTape,
    stem_out: Vec<f32>,
    blocks: Vec<BlockTape>,
    policy_norm: NormTape,
    policy_hidden: Vec<f32>,
    value_norm: NormTape,
    value_hidden: Vec<f32>,
    value_pooled: Vec<f32>,
    head_hidden: Vec<f32>,
}

/// Runs `net` on `batch` encoded positions (planes-first, as
/// [`crate::encoding::Encoding::encode`] writes them) with batch norm in
/// training mode; returns the outputs and the tape for [`Tape::backward`].
pub fn forward_train(net: &PolicyValueNet, input: &[f32], batch: usize) -> (Outputs, Tape) {
    let layers = Layers::read(net);
    let hood = neighbourhoods();
    let planes = layers.stem.cin;
    assert_eq!(input.len(), batch * planes * SQUARES, "{batch} positions");
    let rows = batch * SQUARES;
    // Planes-first to one row per square.
    let mut x = vec![0.0; rows * planes];
    x.par_chunks_mut(SQUARES * planes)
        .zip(input.par_chunks(SQUARES * planes))
        .for_each(|(x, src)| planes_to_rows(src, planes, x));
    // conv -> batch norm -> ReLU, returning the norm's tape and the output.
    let conv_norm_relu = |conv: &Conv, norm: &Norm, input: &[f32]| {
        let mut y = conv.forward(input);
        let tape = norm.forward(&mut y, true);
        (tape, y)
    };
    let (stem_norm, stem_out) = conv_norm_relu(&layers.stem, &layers.stem_norm, &x);
    let mut blocks = Vec::with_capacity(layers.blocks.len());
    for block in &layers.blocks {
        let input = blocks.last().map_or(&stem_out, |b: &BlockTape| &b.out);
        let (norm1, hidden) = conv_norm_relu(&block.conv1, &block.norm1, input);
        let c = block.conv1.cout;
        let pooled = block.pool_bias.as_ref().map(|dense| {
            let pooled = mean_over_squares(&hidden, batch, c);
            let bias = dense.forward(&pooled);
            let mut y = hidden.clone();
            add_to_squares(&mut y, &bias, c, 1.0);
            (pooled, y)
        });
        let conv2_input = pooled.as_ref().map_or(&hidden, |(_, y)| y);
        let mut out = block.conv2.forward(conv2_input);
        let norm2 = block.norm2.forward(&mut out, false);
        out.par_chunks_mut(1 << 16)
            .zip(input.par_chunks(1 << 16))
            .for_each(|(out, input)| {
                for (o, i) in out.iter_mut().zip(input) {
                    *o = (*o + i).max(0.0);
                }
            });
        blocks.push(BlockTape {
            norm1,
            hidden,
            pooled,
            norm2,
            out,
        });
    }
    let trunk = blocks.last().map_or(&stem_out, |b| &b.out);
    let (policy_norm, policy_hidden) =
        conv_norm_relu(&layers.policy_conv, &layers.policy_norm, trunk);
    let logits = layers.policy_out.forward(&policy_hidden);
    let mut policy = vec![0.0; batch * POLICY_SLOTS];
    for (row, chunk) in logits.chunks_exact(layers.policy_out.cout).enumerate() {
        for (d, v) in chunk.iter().enumerate() {
            policy[policy_slot(row, d)] = *v;
        }
    }
    let (value_norm, value_hidden) = conv_norm_relu(&layers.value_conv, &layers.value_norm, trunk);
    let value_pooled = mean_over_squares(&value_hidden, batch, layers.value_conv.cout);
    let mut head_hidden = layers.value_fc.forward(&value_pooled, batch);
    relu(&mut head_hidden);
    let mut outputs = Outputs {
        policy,
        ..Outputs::default()
    };
    for (o, dense) in &layers.heads {
        *outputs.get_mut(*o) = dense.forward(&head_hidden, batch);
    }
    let tape = Tape {
        layers,
        hood,
        batch,
        input: x,
        stem_norm,
        stem_out,
        blocks,
        policy_norm,
        policy_hidden,
        value_norm,
        value_hidden,
        value_pooled,
        head_hidden,
    };
    (outputs, tape)
}

impl Tape {
    /// The gradients of every parameter for the gradients of the loss with
    /// respect to the outputs (same layout as [`Outputs`]; `survival`
    /// may be empty only for a network without the head), as burn's
    /// optimiser takes them: tensors on `device` without autodiff.
    pub fn backward(&self, grads: &Outputs, device: &Device) -> GradientsParams {
        let l = &self.layers;
        let (batch, rows) = (self.batch, self.batch * SQUARES);
        let mut params = Vec::new();
        let trunk = self.blocks.last().map_or(&self.stem_out, |b| &b.out);
        let f = l.stem.cout;
        let mut dtrunk = vec![0.0; rows * f];

        // Value head.
        let hidden = l.value_fc.layer.outputs;
        let mut dhidden = vec![0.0; batch * hidden];
        for (o, head) in &l.heads {
            let grad = grads.get(*o);
            assert_eq!(
                grad.len(),
                batch * head.layer.outputs,
                "{} gradients",
                o.name()
            );
            head.backward(&self.head_hidden, batch, grad, &mut dhidden, &mut params);
        }
        relu_backward(&mut dhidden, &self.head_hidden);
        let vc = l.value_conv.cout;
        let mut dpooled = vec![0.0; batch * vc];
        l.value_fc.backward(
            &self.value_pooled,
            batch,
            &dhidden,
            &mut dpooled,
            &mut params,
        );
        let mut dvalue = vec![0.0; rows * vc];
        add_to_squares(&mut dvalue, &dpooled, vc, 1.0 / SQUARES as f32);
        l.value_norm.backward(
            &self.value_norm,
            &mut dvalue,
            Some(&self.value_hidden),
            &mut params,
        );
        l.value_conv
            .backward(trunk, &dvalue, &self.hood, Some(&mut dtrunk), &mut params);

        // Policy head.
        let dirs = l.policy_out.cout;
        let mut dlogits = vec![0.0; rows * dirs];
        for (row, chunk) in dlogits.chunks_exact_mut(dirs).enumerate() {
            for (d, v) in chunk.iter_mut().enumerate() {
                *v = grads.policy[policy_slot(row, d)];
            }
        }
        let pc = l.policy_conv.cout;
        let mut dpolicy = vec![0.0; rows * pc];
        l.policy_out.backward(
            &self.policy_hidden,
            &dlogits,
            &self.hood,
            Some(&mut dpolicy),
            &mut params,
        );
        l.policy_norm.backward(
            &self.policy_norm,
            &mut dpolicy,
            Some(&self.policy_hidden),
            &mut params,
        );
        l.policy_conv
            .backward(trunk, &dpolicy, &self.hood, Some(&mut dtrunk), &mut params);

        // Residual blocks, last first.
        for (i, (block, tape)) in l.blocks.iter().zip(&self.blocks).enumerate().rev() {
            relu_backward(&mut dtrunk, &tape.out);
            // `dtrunk` is now the gradient of the sum: the skip passes it on.
            let mut dy = dtrunk.clone();
            block
                .norm2
                .backward(&tape.norm2, &mut dy, None, &mut params);
            let mut dhidden = vec![0.0; rows * f];
            let conv2_input = tape.pooled.as_ref().map_or(&tape.hidden, |(_, y)| y);
            block.conv2.backward(
                conv2_input,
                &dy,
                &self.hood,
                Some(&mut dhidden),
                &mut params,
            );
            if let (Some(dense), Some((pooled, _))) = (&block.pool_bias, &tape.pooled) {
                let mut dbias = vec![0.0; batch * f];
                for (row, g) in dhidden.chunks_exact(f).enumerate() {
                    let b = row / SQUARES;
                    for (d, v) in dbias[b * f..(b + 1) * f].iter_mut().zip(g) {
                        *d += v;
                    }
                }
                let mut dpooled = vec![0.0; batch * f];
                dense.backward(pooled, &dbias, &self.hood, Some(&mut dpooled), &mut params);
                add_to_squares(&mut dhidden, &dpooled, f, 1.0 / SQUARES as f32);
            }
            block
                .norm1
                .backward(&tape.norm1, &mut dhidden, Some(&tape.hidden), &mut params);
            let input = match i {
                0 => &self.stem_out,
                _ => &self.blocks[i - 1].out,
            };
            block
                .conv1
                .backward(input, &dhidden, &self.hood, Some(&mut dtrunk), &mut params);
        }

        // Stem: no gradient for the input.
        l.stem_norm.backward(
            &self.stem_norm,
            &mut dtrunk,
            Some(&self.stem_out),
            &mut params,
        );
        l.stem
            .backward(&self.input, &dtrunk, &self.hood, None, &mut params);

        let mut out = GradientsParams::new();
        for p in params {
            match p.shape.len() {
                1 => out.register(p.id, tensor::<1>(p, device)),
                2 => out.register(p.id, tensor::<2>(p, device)),
                4 => out.register(p.id, tensor::<4>(p, device)),
                d => unreachable!("parameters have 1, 2 or 4 dimensions, not {d}"),
            }
        }
        out
    }

    /// Each batch norm's batch mean and biased variance, in the order of
    /// the network's layers (stem, blocks, policy head, value head).
    fn norm_stats(&self) -> Vec<(&[f32], &[f32])> {
        let mut stats = vec![&self.stem_norm];
        for b in &self.blocks {
            stats.push(&b.norm1);
            stats.push(&b.norm2);
        }
        stats.push(&self.policy_norm);
        stats.push(&self.value_norm);
        stats
            .into_iter()
            .map(|t| (t.mean.as_slice(), t.variance.as_slice()))
            .collect()
    }

    /// Moves the running statistics of `net`'s batch norms toward this
    /// batch's, as burn's training-mode forward pass does (running =
    /// (1 - momentum) * running + momentum * batch).
    pub fn update_running_stats(&self, net: &PolicyValueNet) {
        for (bn, (mean, variance)) in batch_norms(net).into_iter().zip(self.norm_stats()) {
            let m = bn.momentum as f32;
            let blend = |running: &burn::module::RunningState<Tensor<1>>, batch: &[f32]| {
                let current = running.value_sync();
                let device = current.device();
                let old = values(current);
                let new: Vec<f32> = old
                    .iter()
                    .zip(batch)
                    .map(|(r, b)| (1.0 - m) * r + m * b)
                    .collect();
                running.update(Tensor::from_data(
                    TensorData::new(new, [batch.len()]),
                    &device,
                ));
            };
            blend(&bn.running_mean, mean);
            blend(&bn.running_var, variance);
        }
    }
}

/// Sets the running statistics of `net`'s batch norms to the mean, over
/// `batches` (each its encoded positions and their count), of the batch
/// statistics a training-mode pass computes ("precise batch norm": what a
/// network whose weights were averaged needs, since averaged weights no
/// longer match any running statistics). Nothing happens without batches.
pub fn recompute_running_stats(net: &PolicyValueNet, batches: &[(&[f32], usize)]) {
    let mut sums: Vec<(Vec<f32>, Vec<f32>)> = Vec::new();
    for &(input, size) in batches {
        let (_, tape) = forward_train(net, input, size);
        let stats = tape.norm_stats();
        if sums.is_empty() {
            sums = stats
                .iter()
                .map(|(m, v)| (vec![0.0; m.len()], vec![0.0; v.len()]))
                .collect();
        }
        for ((sum_m, sum_v), (m, v)) in sums.iter_mut().zip(stats) {
            sum_m.iter_mut().zip(m).for_each(|(s, x)| *s += x);
            sum_v.iter_mut().zip(v).for_each(|(s, x)| *s += x);
        }
    }
    if batches.is_empty() {
        return;
    }
    let scale = 1.0 / batches.len() as f32;
    for (bn, (mean, variance)) in batch_norms(net).into_iter().zip(sums) {
        let set = |running: &burn::module::RunningState<Tensor<1>>, sum: Vec<f32>| {
            let device = running.value_sync().device();
            let n = sum.len();
            let values: Vec<f32> = sum.into_iter().map(|s| s * scale).collect();
            running.update(Tensor::from_data(TensorData::new(values, [n]), &device));
            // `value` (what inference reads) lags one update behind
            // until synced.
            running.value_sync();
        };
        set(&bn.running_mean, mean);
        set(&bn.running_var, variance);
    }
}

/// One trainable parameter's gradients from two sources, compared:
/// [`gradient_differences`] lists one per parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GradientDifference {
    /// The parameter's rank (1-d biases and norms, 2-d dense weights,
    /// 4-d convolutions).
    pub rank: usize,
    /// Its number of values.
    pub values: usize,
    /// The Euclidean norm of the difference.
    pub difference: f32,
    /// The Euclidean norm of the second source's gradient (the reference).
    pub norm: f32,
}

/// For each trainable parameter of `net` (the batch norms' running
/// statistics left out), how far its gradient in `got` is from the one in
/// `want`: the check of a backward pass against autodiff. Panics when a
/// parameter has no gradient in either, or gradients of different lengths.
pub fn gradient_differences(
    net: &PolicyValueNet,
    got: &GradientsParams,
    want: &GradientsParams,
) -> Vec<GradientDifference> {
    struct Visit<'a> {
        got: &'a GradientsParams,
        want: &'a GradientsParams,
        found: Vec<GradientDifference>,
    }
    impl burn::module::ModuleVisitor for Visit<'_> {
        fn visit_float<const D: usize>(&mut self, param: &burn::module::Param<Tensor<D>>) {
            if !param.is_require_grad() {
                return;
            }
            let read = |grads: &GradientsParams, which: &str| -> Vec<f32> {
                grads
                    .get::<D>(param.id)
                    .unwrap_or_else(|| panic!("no {which} gradient for a {D}-d parameter"))
                    .into_data()
                    .try_to_vec()
                    .expect("f32 gradients")
            };
            let (got, want) = (read(self.got, "first"), read(self.want, "second"));
            assert_eq!(got.len(), want.len(), "a {D}-d parameter's gradients");
            let norm = want.iter().map(|v| v * v).sum::<f32>().sqrt();
            let difference = got
                .iter()
                .zip(&want)
                .map(|(a, b)| (a - b) * (a - b))
                .sum::<f32>()
                .sqrt();
            self.found.push(GradientDifference {
                rank: D,
                values: want.len(),
                difference,
                norm,
            });
        }
    }
    let mut visit = Visit {
        got,
        want,
        found: Vec::new(),
    };
    net.visit(&mut visit);
    visit.found
}

fn tensor<const D: usize>(p: ParamGrad, device: &Device) -> Tensor<D> {
    let shape: [usize; D] = p.shape.try_into().expect("shape of D dimensions");
    Tensor::from_data(TensorData::new(p.values, shape), device)
}

/// Keeps freed memory in the process (glibc only; elsewhere a no-op).
///
/// A training step allocates and frees some hundred megabytes in buffers
/// of one to fifteen megabytes. glibc hands blocks that large back to the
/// kernel on every free (`mmap`, then trimming the heap's top), so the next
/// step page-faults all of it in again: on a 2-core machine that was 40% of
/// the step. With both thresholds at 1 GiB the memory stays mapped and is
/// reused (measured: 4x48 network, batch 128, 330 -> 200 ms per step).
pub fn retain_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            const LIMIT: libc::c_int = 1 << 30;
            // SAFETY: `mallopt` only sets allocator parameters; it is safe
            // to call at any time from any thread.
            unsafe {
                libc::mallopt(libc::M_MMAP_THRESHOLD, LIMIT);
                libc::mallopt(libc::M_TRIM_THRESHOLD, LIMIT);
            }
        });
    }
}
