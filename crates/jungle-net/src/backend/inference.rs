//! The inference path: the network's forward pass on plain `f32` buffers,
//! with batch norm folded into the weights: each 3x3 convolution by
//! Winograd's minimal filtering, F(4, 3) x F(3, 3) ([`super::winograd`]), each 1x1 convolution and
//! dense layer one GEMM (the `gemm` crate, AVX-512/AVX2 kernels picked at
//! run time). It reads
//! the weights of a [`PolicyValueNet`] and matches burn's output within
//! 1e-4; burn stays the source of truth for the weights and checkpoints.
//!
//! Activations are `[batch * 63, channels]`, one row per square.

use super::kernels::{
    mean_over_squares, mul, param, planes_to_rows, policy_slot, relu, unfold_weight, values, Mat,
};
use super::reference::{PolicyValueNet, ResBlock};
use super::winograd::{WinogradScratch, WinogradWeight};
use crate::encoding::{POLICY_SLOTS, SQUARES};
use crate::outputs::{Output, Outputs};

pub use super::kernels::CHUNK;
use burn::nn::conv::Conv2d;
use burn::nn::{BatchNorm, Linear};

/// out (m x n) = a (m x k) * b (k x n), all row-major, added to `out` if `accumulate`.
fn matmul(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], out: &mut [f32], accumulate: bool) {
    mul(Mat::new(a, m, k), Mat::new(b, k, n), out, accumulate);
}

/// A convolution's weights with batch norm folded in.
enum ConvWeight {
    /// A 1x1 convolution: `[cin, cout]`.
    Pointwise(Vec<f32>),
    /// A 3x3 convolution in the Winograd domain.
    Winograd(WinogradWeight),
}

/// A convolution with batch norm folded in.
struct Conv {
    cin: usize,
    cout: usize,
    weight: ConvWeight,
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
        let unfolded = unfold_weight(&w, cin, kh * kw, &scale);
        let weight = match kh {
            1 => ConvWeight::Pointwise(unfolded),
            3 => ConvWeight::Winograd(WinogradWeight::new(&unfolded, cin, cout)),
            k => panic!("{k}x{k} kernels: the network has 1x1 and 3x3 convolutions only"),
        };
        Conv {
            cin,
            cout,
            weight,
            bias,
        }
    }

    /// `input` `[rows, cin]` to `out` `[rows, cout]`; `scratch` is reused.
    fn forward(
        &self,
        input: &[f32],
        rows: usize,
        scratch: &mut WinogradScratch,
        out: &mut Vec<f32>,
    ) {
        match &self.weight {
            ConvWeight::Pointwise(w) => {
                out.clear();
                for _ in 0..rows {
                    out.extend_from_slice(&self.bias);
                }
                matmul(rows, self.cout, self.cin, input, w, out, true)
            }
            ConvWeight::Winograd(w) => {
                out.resize(rows * self.cout, 0.0);
                w.forward(input, &self.bias, out, scratch)
            }
        }
    }
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

/// The activations of one chunk, kept per thread between forward passes:
/// allocating them anew each pass cost a fifth of a 4x32 network's
/// forward pass in page faults and zeroing.
#[derive(Default)]
struct Buffers {
    x: Vec<f32>,
    y: Vec<f32>,
    z: Vec<f32>,
    trunk: Vec<f32>,
    scratch: WinogradScratch,
}

thread_local! {
    static BUFFERS: std::cell::RefCell<Buffers> = std::cell::RefCell::default();
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
    /// The dense heads on the value head's hidden layer
    /// ([`PolicyValueNet::hidden_heads`]).
    heads: Vec<(Output, Dense)>,
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
            heads: net
                .hidden_heads()
                .into_iter()
                .map(|(o, l)| (o, Dense::new(l)))
                .collect(),
        }
    }

    /// Whether the network has the survival head (its logits then come
    /// with every forward pass).
    pub fn has_survival_head(&self) -> bool {
        self.heads.iter().any(|(o, _)| *o == Output::Survival)
    }

    /// Runs encoded positions (`batch` x the network's input length,
    /// planes-first as [`crate::encoding::Encoding::encode`] writes them). Large batches run in
    /// chunks of [`CHUNK`] positions, whose buffers stay in cache.
    pub fn forward(&self, input: &[f32], batch: usize) -> Outputs {
        let input_len = self.planes * SQUARES;
        assert_eq!(
            input.len(),
            batch * input_len,
            "{batch} positions of {input_len} floats"
        );
        // One chunk needs no copy (an empty batch gives empty outputs).
        if (1..=CHUNK).contains(&batch) {
            return self.forward_chunk(input, batch);
        }
        let mut out = Outputs::default();
        for (i, chunk) in input.chunks(CHUNK * input_len).enumerate() {
            let n = (batch - i * CHUNK).min(CHUNK);
            out.append(&self.forward_chunk(chunk, n));
        }
        out
    }

    fn forward_chunk(&self, input: &[f32], batch: usize) -> Outputs {
        BUFFERS.with_borrow_mut(|buffers| self.forward_chunk_in(input, batch, buffers))
    }

    fn forward_chunk_in(&self, input: &[f32], batch: usize, buffers: &mut Buffers) -> Outputs {
        let rows = batch * SQUARES;
        let Buffers {
            x,
            y,
            z,
            trunk,
            scratch,
        } = buffers;
        // Planes-first to one row per square.
        let planes = self.planes;
        x.resize(rows * planes, 0.0);
        for (x, src) in x
            .chunks_exact_mut(planes * SQUARES)
            .zip(input.chunks_exact(planes * SQUARES))
        {
            planes_to_rows(src, planes, x);
        }
        self.stem.forward(&x[..rows * planes], rows, scratch, trunk);
        relu(trunk);
        for block in &self.blocks {
            block.conv1.forward(trunk, rows, scratch, y);
            relu(y);
            if let Some(dense) = &block.pool_bias {
                let c = block.conv1.cout;
                let mut bias = Vec::new();
                dense.forward(&mean_over_squares(y, batch, c), batch, scratch, &mut bias);
                for (row, chunk) in y.chunks_exact_mut(c).enumerate() {
                    let add = &bias[(row / SQUARES) * c..(row / SQUARES + 1) * c];
                    for (v, a) in chunk.iter_mut().zip(add) {
                        *v += a;
                    }
                }
            }
            block.conv2.forward(y, rows, scratch, z);
            for (t, v) in trunk.iter_mut().zip(z.iter()) {
                *t = (*t + v).max(0.0);
            }
        }
        // Policy head: 4 channels per square, slot = direction * 63 + square.
        self.policy_conv.forward(trunk, rows, scratch, y);
        relu(y);
        self.policy_out.forward(y, rows, scratch, z);
        let mut policy = vec![0.0; batch * POLICY_SLOTS];
        for (row, chunk) in z.chunks_exact(self.policy_out.cout).enumerate() {
            for (d, v) in chunk.iter().enumerate() {
                policy[policy_slot(row, d)] = *v;
            }
        }
        // Value and moves-left heads.
        self.value_conv.forward(trunk, rows, scratch, y);
        relu(y);
        let pooled = mean_over_squares(y, batch, self.value_conv.cout);
        let mut hidden = self.value_fc.forward(&pooled, batch);
        relu(&mut hidden);
        let mut out = Outputs {
            policy,
            ..Outputs::default()
        };
        for (o, dense) in &self.heads {
            *out.get_mut(*o) = dense.forward(&hidden, batch);
        }
        out
    }
}
