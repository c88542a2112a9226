//! 3x3 convolutions by Winograd's minimal filtering (Lavin & Gray, "Fast
//! Algorithms for Convolutional Neural Networks", 2015; the transform lc0
//! and KataGo use on CPUs), with tiles cut to the 7x9 board: F(4, 3) along
//! the files (two tiles of 4 cover the 7 files) and F(3, 3) along the ranks
//! (three tiles of 3 cover the 9 ranks exactly). Six output tiles of 4 x 3
//! squares, each read from a 6 x 5 input tile, make the convolution 30
//! independent products `[tiles, cin] x [cin, cout]`, one per transform
//! point: 6 * 30 = 180 multiplications per channel pair and position,
//! against 216 for square F(4x4, 3x3) tiles (which cover 8 x 12 squares for
//! the board's 63) and 63 * 9 = 567 for the direct (im2col) product.
//!
//! Activations are `[batch * 63, channels]`, one row per square, as in
//! [`super::inference`]. The transforms run on vectors of 16 or 8 channels
//! (AVX-512 or AVX2 registers where the processor has them, as
//! [`KernelPath`] picks); the products go through [`super::small_gemm`].

use super::kernel_path::KernelPath;
use super::small_gemm::{product, Shape};
use crate::encoding::SQUARES;
use jungle_rules::{FILES, RANKS};

/// Output squares per tile along the files (F(4, 3)) and the ranks (F(3, 3)).
const OUT_X: usize = 4;
const OUT_Y: usize = 3;
/// Input squares per tile along each (`OUT + 3 - 1`).
const IN_X: usize = 6;
const IN_Y: usize = 5;
/// Transform points per tile (`IN_Y * IN_X`, rank-major): one product each.
const POINTS: usize = IN_Y * IN_X;
/// Tiles across the board's files and ranks.
const TILES_X: usize = (FILES as usize).div_ceil(OUT_X);
const TILES_Y: usize = (RANKS as usize).div_ceil(OUT_Y);
/// Tiles per position.
pub(crate) const TILES: usize = TILES_X * TILES_Y;

/// `G` of F(4, 3) (interpolation points 0, 1, -1, 2, -2 and infinity): the
/// kernel transform along the files (6 x 3).
const G_X: [[f32; 3]; IN_X] = [
    [1.0 / 4.0, 0.0, 0.0],
    [-1.0 / 6.0, -1.0 / 6.0, -1.0 / 6.0],
    [-1.0 / 6.0, 1.0 / 6.0, -1.0 / 6.0],
    [1.0 / 24.0, 1.0 / 12.0, 1.0 / 6.0],
    [1.0 / 24.0, -1.0 / 12.0, 1.0 / 6.0],
    [0.0, 0.0, 1.0],
];

/// `G` of F(3, 3) (points 0, 1, -1, 2 and infinity): the kernel transform
/// along the ranks (5 x 3).
const G_Y: [[f32; 3]; IN_Y] = [
    [1.0 / 2.0, 0.0, 0.0],
    [-1.0 / 2.0, -1.0 / 2.0, -1.0 / 2.0],
    [-1.0 / 6.0, 1.0 / 6.0, -1.0 / 6.0],
    [1.0 / 6.0, 1.0 / 3.0, 2.0 / 3.0],
    [0.0, 0.0, 1.0],
];

/// Positions transformed, multiplied and transformed back at a time, so
/// that the transformed input and the products (`[24][30][32]` floats each
/// for 4 positions and 32 channels) stay in L2. Best of 15 alternating
/// runs of the 4x32 network at batch 16 on the 2-core EPYC: 1 position
/// 9,680 positions/s, 2 10,300, 4 10,220, 8 9,900, 16 9,790.
const GROUP: usize = 4;

/// Channels are padded to whole vectors of this many `f32` (one AVX2
/// register; AVX-512 takes two at a time).
const LANES: usize = 8;

/// The padded board an input tile is read from: one square of zeros
/// around the board and enough beyond it for whole tiles.
const PADDED_X: usize = TILES_X * OUT_X + 2;
const PADDED_Y: usize = TILES_Y * OUT_Y + 2;

/// `n` rounded up to whole [`LANES`].
fn lanes_up(n: usize) -> usize {
    n.div_ceil(LANES) * LANES
}

/// A 3x3 convolution's weights in the Winograd domain:
/// `[30][cin_p][cout_p]`, channels padded with zeros to whole [`LANES`].
pub(crate) struct WinogradWeight {
    cin: usize,
    cout: usize,
    u: Vec<f32>,
}

impl WinogradWeight {
    /// Transforms unfolded 3x3 weights (`[9 * cin, cout]`, row
    /// `kernel_pos * cin + ci`, kernel positions row-major over (rank,
    /// file) offsets, as [`super::kernels::unfold_weight`] writes them).
    pub(crate) fn new(unfolded: &[f32], cin: usize, cout: usize) -> WinogradWeight {
        assert_eq!(unfolded.len(), 9 * cin * cout, "3x3 weights");
        let (cin_p, cout_p) = (lanes_up(cin), lanes_up(cout));
        let mut u = vec![0.0; POINTS * cin_p * cout_p];
        for ci in 0..cin {
            for co in 0..cout {
                let g = |ky: usize, kx: usize| unfolded[((ky * 3 + kx) * cin + ci) * cout + co];
                // G_Y g along the ranks (5 x 3), then (G_Y g) G_X^T along
                // the files (5 x 6), in f64.
                let mut gg = [[0.0f64; 3]; IN_Y];
                for (r, row) in gg.iter_mut().enumerate() {
                    for (kx, v) in row.iter_mut().enumerate() {
                        *v = (0..3).map(|ky| G_Y[r][ky] as f64 * g(ky, kx) as f64).sum();
                    }
                }
                for r in 0..IN_Y {
                    for c in 0..IN_X {
                        let v: f64 = (0..3).map(|kx| gg[r][kx] * G_X[c][kx] as f64).sum();
                        u[((r * IN_X + c) * cin_p + ci) * cout_p + co] = v as f32;
                    }
                }
            }
        }
        WinogradWeight { cin, cout, u }
    }

    /// Writes `bias` plus the convolution of `input` (`[batch * 63, cin]`)
    /// to `out` (`[batch * 63, cout]`); `scratch` is reused.
    pub(crate) fn forward(
        &self,
        input: &[f32],
        bias: &[f32],
        out: &mut [f32],
        scratch: &mut WinogradScratch,
    ) {
        self.convolve(input, bias, out, scratch, false, KernelPath::active())
    }

    /// Adds `bias` plus the convolution of `input` to what `out` holds (the
    /// training pass sums several layers' gradients into one buffer).
    pub(crate) fn add_forward(
        &self,
        input: &[f32],
        bias: &[f32],
        out: &mut [f32],
        scratch: &mut WinogradScratch,
    ) {
        self.convolve(input, bias, out, scratch, true, KernelPath::active())
    }

    fn convolve(
        &self,
        input: &[f32],
        bias: &[f32],
        out: &mut [f32],
        scratch: &mut WinogradScratch,
        accumulate: bool,
        path: KernelPath,
    ) {
        let (cin, cout) = (self.cin, self.cout);
        let (cin_p, cout_p) = (lanes_up(cin), lanes_up(cout));
        let batch = input.len() / (SQUARES * cin);
        assert_eq!(
            input.len(),
            batch * SQUARES * cin,
            "[batch * 63, cin] input"
        );
        assert_eq!(
            out.len(),
            batch * SQUARES * cout,
            "[batch * 63, cout] output"
        );
        assert_eq!(bias.len(), cout, "one bias per output channel");
        // The padded board is zeroed when its channels change; then only
        // its squares on the board and real channels are written, so the
        // rest stays zero.
        if scratch.padded_channels != cin {
            scratch.padded.clear();
            scratch.padded.resize(PADDED_Y * PADDED_X * cin_p, 0.0);
            scratch.padded_channels = cin;
        }
        let most_tiles = GROUP.min(batch) * TILES;
        scratch.v.resize(POINTS * most_tiles * cin_p, 0.0);
        scratch.m.resize(POINTS * most_tiles * cout_p, 0.0);
        let inputs = input.chunks(GROUP * SQUARES * cin);
        for (input, out) in inputs.zip(out.chunks_mut(GROUP * SQUARES * cout)) {
            let tiles = input.len() / (SQUARES * cin) * TILES;
            simd::input(path, input, cin, &mut scratch.padded, &mut scratch.v);
            for point in 0..POINTS {
                product(
                    &scratch.v[point * cin_p..],
                    POINTS * cin_p,
                    &self.u[point * cin_p * cout_p..(point + 1) * cin_p * cout_p],
                    Shape {
                        rows: tiles,
                        k: cin_p,
                        n: cout_p,
                    },
                    &mut scratch.m[point * cout_p..],
                    POINTS * cout_p,
                    path,
                );
            }
            simd::output(
                path,
                &scratch.m[..POINTS * tiles * cout_p],
                bias,
                out,
                accumulate,
            );
        }
    }
}

/// Buffers of [`WinogradWeight::forward`], kept between calls.
#[derive(Default)]
pub(crate) struct WinogradScratch {
    /// One position on the padded board: `[14 * 10][cin_p]`.
    padded: Vec<f32>,
    /// The real channels (`cin`) `padded` is laid out for.
    padded_channels: usize,
    /// Transformed input: `[tiles][30][cin_p]`.
    v: Vec<f32>,
    /// Products: `[tiles][30][cout_p]`.
    m: Vec<f32>,
}

/// The transforms run on vectors of channels, as [`KernelPath`] picks:
/// AVX-512 registers of 16 (with AVX2 registers for the last 8 channels of
/// a count that is not whole 16s), AVX2 registers of 8, or plain arrays of
/// 8 that the compiler vectorises for the build's baseline. The build
/// targets baseline x86-64, so the registers are picked at run time.
mod simd {
    use super::LANES;
    use crate::backend::kernel_path::KernelPath;
    use std::ops::{Add, Sub};

    /// The widest vector, in floats.
    const MOST: usize = 16;

    /// [`Vector::WIDTH`] channels of one square, the transforms' unit.
    pub(super) trait Vector: Copy + Add<Output = Self> + Sub<Output = Self> {
        /// Channels per vector: a multiple of [`LANES`], at most 16.
        const WIDTH: usize;
        /// The `WIDTH` floats of `s` from `at`.
        fn load(s: &[f32], at: usize) -> Self;
        /// Writes the lanes to `s` from `at`.
        fn store(self, s: &mut [f32], at: usize);
        /// `self * k + o`, fused where the processor can.
        fn mul_add(self, k: f32, o: Self) -> Self;

        /// The first `n` (below `WIDTH`) floats of `s` from `at`, zeros
        /// after them.
        #[inline(always)]
        fn load_first(s: &[f32], at: usize, n: usize) -> Self {
            let mut lanes = [0.0; MOST];
            lanes[..n].copy_from_slice(&s[at..at + n]);
            Self::load(&lanes, 0)
        }

        /// Writes the first `n` (below `WIDTH`) lanes to `s` from `at`.
        #[inline(always)]
        fn store_first(self, s: &mut [f32], at: usize, n: usize) {
            let mut lanes = [0.0; MOST];
            self.store(&mut lanes, 0);
            s[at..at + n].copy_from_slice(&lanes[..n]);
        }
    }

    /// [`super::input_transform`] on `path`'s vectors.
    ///
    /// # Panics
    /// If this processor cannot run `path`.
    pub(super) fn input(
        path: KernelPath,
        input: &[f32],
        cin: usize,
        padded: &mut [f32],
        v: &mut [f32],
    ) {
        assert!(
            path.runs_here(),
            "{} kernels on this processor",
            path.name()
        );
        match path {
            // SAFETY (both arms): the processor runs the path (asserted).
            #[cfg(target_arch = "x86_64")]
            KernelPath::Avx512 => unsafe { avx512::input_transform(input, cin, padded, v) },
            #[cfg(target_arch = "x86_64")]
            KernelPath::Avx2 => unsafe { avx::input_transform(input, cin, padded, v) },
            _ => super::input_transform::<Plain, Plain>(input, cin, padded, v),
        }
    }

    /// [`super::output_transform`] on `path`'s vectors.
    ///
    /// # Panics
    /// As [`input`].
    pub(super) fn output(
        path: KernelPath,
        m: &[f32],
        bias: &[f32],
        out: &mut [f32],
        accumulate: bool,
    ) {
        assert!(
            path.runs_here(),
            "{} kernels on this processor",
            path.name()
        );
        match path {
            // SAFETY (both arms): as in `input`.
            #[cfg(target_arch = "x86_64")]
            KernelPath::Avx512 => unsafe { avx512::output_transform(m, bias, out, accumulate) },
            #[cfg(target_arch = "x86_64")]
            KernelPath::Avx2 => unsafe { avx::output_transform(m, bias, out, accumulate) },
            _ => super::output_transform::<Plain, Plain>(m, bias, out, accumulate),
        }
    }

    /// Plain arrays with the arithmetic the transforms need.
    #[derive(Clone, Copy)]
    pub(super) struct Plain([f32; LANES]);

    impl Plain {
        /// `f` applied lane by lane to `self` and `o`.
        #[inline(always)]
        fn lanewise(mut self, o: Plain, f: impl Fn(f32, f32) -> f32) -> Plain {
            for (s, o) in self.0.iter_mut().zip(o.0) {
                *s = f(*s, o);
            }
            self
        }
    }

    impl Add for Plain {
        type Output = Plain;
        #[inline(always)]
        fn add(self, o: Plain) -> Plain {
            self.lanewise(o, |a, b| a + b)
        }
    }

    impl Sub for Plain {
        type Output = Plain;
        #[inline(always)]
        fn sub(self, o: Plain) -> Plain {
            self.lanewise(o, |a, b| a - b)
        }
    }

    impl Vector for Plain {
        const WIDTH: usize = LANES;
        #[inline(always)]
        fn load(s: &[f32], at: usize) -> Self {
            Plain(s[at..at + LANES].try_into().expect("LANES floats"))
        }
        #[inline(always)]
        fn store(self, s: &mut [f32], at: usize) {
            s[at..at + LANES].copy_from_slice(&self.0);
        }
        #[inline(always)]
        fn mul_add(self, k: f32, o: Self) -> Self {
            self.lanewise(o, |a, b| a * k + b)
        }
    }

    /// A register type of `$width` floats with the arithmetic the
    /// transforms need, and the transforms on it (whole registers of it,
    /// then `$narrow` for a last 8 channels) compiled for `$features`.
    /// Values of the type exist only inside those `target_feature`
    /// functions, which run on processors with the features.
    macro_rules! register_transforms {
        ($module:ident, $name:ident, $register:ty, $width:expr, $features:literal, $narrow:ty,
         add: $add:ident, sub: $sub:ident, load: $load:ident, store: $store:ident,
         fmadd: $fmadd:ident, splat: $splat:ident) => {
            #[cfg(target_arch = "x86_64")]
            pub(super) mod $module {
                #[allow(unused_imports)]
                use super::*;
                use std::arch::x86_64::*;
                use std::ops::{Add, Sub};

                #[doc = concat!("A register of ", stringify!($width), " floats (", $features, ").")]
                #[derive(Clone, Copy)]
                pub(in super::super) struct $name($register);

                /// Floats per register.
                const WIDTH: usize = $width;

                // SAFETY (every `unsafe` block below): values are made and
                // used only inside the `target_feature` functions below,
                // called on processors with the features; loads and stores
                // go through slices of `WIDTH` floats, so they stay in
                // bounds.
                impl Add for $name {
                    type Output = $name;
                    #[inline(always)]
                    fn add(self, o: $name) -> $name {
                        $name(unsafe { $add(self.0, o.0) })
                    }
                }

                impl Sub for $name {
                    type Output = $name;
                    #[inline(always)]
                    fn sub(self, o: $name) -> $name {
                        $name(unsafe { $sub(self.0, o.0) })
                    }
                }

                impl Vector for $name {
                    const WIDTH: usize = WIDTH;
                    #[inline(always)]
                    fn load(s: &[f32], at: usize) -> Self {
                        let s = &s[at..at + WIDTH];
                        $name(unsafe { $load(s.as_ptr()) })
                    }
                    #[inline(always)]
                    fn store(self, s: &mut [f32], at: usize) {
                        let s = &mut s[at..at + WIDTH];
                        unsafe { $store(s.as_mut_ptr(), self.0) }
                    }
                    #[inline(always)]
                    fn mul_add(self, k: f32, o: Self) -> Self {
                        $name(unsafe { $fmadd(self.0, $splat(k), o.0) })
                    }
                }

                /// [`super::super::input_transform`] on these registers.
                ///
                /// # Safety
                /// The processor must have the module's features.
                #[target_feature(enable = $features)]
                pub(in super::super) unsafe fn input_transform(
                    input: &[f32],
                    cin: usize,
                    padded: &mut [f32],
                    v: &mut [f32],
                ) {
                    super::super::input_transform::<$name, $narrow>(input, cin, padded, v)
                }

                /// [`super::super::output_transform`] on these registers.
                ///
                /// # Safety
                /// As [`input_transform`].
                #[target_feature(enable = $features)]
                pub(in super::super) unsafe fn output_transform(
                    m: &[f32],
                    bias: &[f32],
                    out: &mut [f32],
                    accumulate: bool,
                ) {
                    super::super::output_transform::<$name, $narrow>(m, bias, out, accumulate)
                }
            }
        };
    }

    register_transforms!(avx, Avx, __m256, LANES, "avx2,fma", Avx,
        add: _mm256_add_ps, sub: _mm256_sub_ps, load: _mm256_loadu_ps,
        store: _mm256_storeu_ps, fmadd: _mm256_fmadd_ps, splat: _mm256_set1_ps);
    #[cfg(target_arch = "x86_64")]
    use avx::Avx;
    register_transforms!(avx512, Avx512, __m512, 16, "avx512f,avx2,fma", Avx,
        add: _mm512_add_ps, sub: _mm512_sub_ps, load: _mm512_loadu_ps,
        store: _mm512_storeu_ps, fmadd: _mm512_fmadd_ps, splat: _mm512_set1_ps);
}

use simd::Vector;

/// `[e(0), e(1), ..., e(4)]` for an expression `e` of `i`, written out:
/// an array built by a closure (`std::array::from_fn`) or zeroed first
/// would not be kept in registers in the `target_feature` functions.
macro_rules! five {
    (|$i:ident| $e:expr) => {
        [
            {
                let $i = 0;
                $e
            },
            {
                let $i = 1;
                $e
            },
            {
                let $i = 2;
                $e
            },
            {
                let $i = 3;
                $e
            },
            {
                let $i = 4;
                $e
            },
        ]
    };
}

/// [`five`] with `e(5)` too.
macro_rules! six {
    (|$i:ident| $e:expr) => {
        [
            {
                let $i = 0;
                $e
            },
            {
                let $i = 1;
                $e
            },
            {
                let $i = 2;
                $e
            },
            {
                let $i = 3;
                $e
            },
            {
                let $i = 4;
                $e
            },
            {
                let $i = 5;
                $e
            },
        ]
    };
}

/// `B^T z` of F(4, 3) (along the files) over vectors of channels.
#[inline(always)]
fn bt_x<V: Vector>(z: [V; IN_X]) -> [V; IN_X] {
    let [a0, a1, a2, a3, a4, a5] = z;
    let (d42, d31) = (a4 - a2, a3 - a1);
    [
        a0.mul_add(4.0, a2.mul_add(-5.0, a4)),
        (a1 + a2).mul_add(-4.0, a3 + a4),
        (a1 - a2).mul_add(4.0, a4 - a3),
        d31.mul_add(2.0, d42),
        d31.mul_add(-2.0, d42),
        a1.mul_add(4.0, a3.mul_add(-5.0, a5)),
    ]
}

/// `A^T m` of F(4, 3) over vectors of channels.
#[inline(always)]
fn at_x<V: Vector>(m: [V; IN_X]) -> [V; OUT_X] {
    let [a0, a1, a2, a3, a4, a5] = m;
    let (s12, d12, s34, d34) = (a1 + a2, a1 - a2, a3 + a4, a3 - a4);
    [
        a0 + s12 + s34,
        d34.mul_add(2.0, d12),
        s34.mul_add(4.0, s12),
        d34.mul_add(8.0, d12 + a5),
    ]
}

/// `B^T z` of F(3, 3) (along the ranks) over vectors of channels:
/// rows `[2 -1 -2 1 0]`, `[0 -2 -1 1 0]`, `[0 2 -3 1 0]`, `[0 -1 0 1 0]`,
/// `[0 2 -1 -2 1]`.
#[inline(always)]
fn bt_y<V: Vector>(z: [V; IN_Y]) -> [V; IN_Y] {
    let [a0, a1, a2, a3, a4] = z;
    let d31 = a3 - a1;
    [
        (a0 - a2).mul_add(2.0, d31),
        a1.mul_add(-2.0, a3 - a2),
        a1.mul_add(2.0, a2.mul_add(-3.0, a3)),
        d31,
        d31.mul_add(-2.0, a4 - a2),
    ]
}

/// `A^T m` of F(3, 3) over vectors of channels: rows `[1 1 1 1 0]`,
/// `[0 1 -1 2 0]`, `[0 1 1 4 1]`.
#[inline(always)]
fn at_y<V: Vector>(m: [V; IN_Y]) -> [V; OUT_Y] {
    let [a0, a1, a2, a3, a4] = m;
    let s12 = a1 + a2;
    [
        a0 + s12 + a3,
        a3.mul_add(2.0, a1 - a2),
        a3.mul_add(4.0, s12 + a4),
    ]
}

/// `V = B_Y^T d B_X` for every tile of every position (`input` `[batch *
/// 63, cin]`) into `v` (`[tiles][30][cin_p]`), each position copied to
/// `padded` (zero off the board and in the padding channels) first; whole
/// vectors `V` of channels, then `N` (of [`LANES`]) for what is left.
#[inline(always)]
fn input_transform<V: Vector, N: Vector>(
    input: &[f32],
    cin: usize,
    padded: &mut [f32],
    v: &mut [f32],
) {
    debug_assert_eq!(N::WIDTH, LANES, "the narrow vector fills the padding");
    let cin_p = lanes_up(cin);
    for (p, position) in input.chunks_exact(SQUARES * cin).enumerate() {
        for (s, src) in position.chunks_exact(cin).enumerate() {
            let (y, x) = (s / FILES as usize, s % FILES as usize);
            let at = ((y + 1) * PADDED_X + x + 1) * cin_p;
            padded[at..at + cin].copy_from_slice(src);
        }
        for ty in 0..TILES_Y {
            for tx in 0..TILES_X {
                let tile = TileAt {
                    position: p,
                    ty,
                    tx,
                };
                let mut c = 0;
                while c + V::WIDTH <= cin_p {
                    input_tile::<V>(padded, cin_p, tile, c, v);
                    c += V::WIDTH;
                }
                while c < cin_p {
                    input_tile::<N>(padded, cin_p, tile, c, v);
                    c += N::WIDTH;
                }
            }
        }
    }
}

/// Where a tile is: the position in the group and its tile row and column.
#[derive(Clone, Copy)]
struct TileAt {
    position: usize,
    ty: usize,
    tx: usize,
}

impl TileAt {
    /// The tile's index in the group's `[tiles]`.
    #[inline(always)]
    fn index(self) -> usize {
        self.position * TILES + self.ty * TILES_X + self.tx
    }
}

/// [`input_transform`] of the channels `c..c + V::WIDTH` of one tile.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // `i` picks the same row of six columns
fn input_tile<V: Vector>(padded: &[f32], cin_p: usize, tile: TileAt, c: usize, v: &mut [f32]) {
    let corner = tile.ty * OUT_Y * PADDED_X + tile.tx * OUT_X;
    let base = tile.index() * POINTS;
    // Columns (B_Y^T d along the ranks, d read from the padded board), then
    // rows ((B_Y^T d) B_X along the files, to the points i * 6 + j).
    let columns: [[V; IN_Y]; IN_X] = six!(|j| bt_y(five!(|i| V::load(
        padded,
        (corner + i * PADDED_X + j) * cin_p + c
    ))));
    for i in 0..IN_Y {
        for (j, lanes) in bt_x(six!(|j| columns[j][i])).into_iter().enumerate() {
            lanes.store(v, (base + i * IN_X + j) * cin_p + c);
        }
    }
}

/// `Y = A_Y^T M A_X` for every tile (`m` `[tiles][30][cout_p]`) plus `bias`,
/// written to the squares of `out` (`[batch * 63, cout]`) on the board
/// (the tiles cover each square once); vectors as in [`input_transform`].
#[inline(always)]
fn output_transform<V: Vector, N: Vector>(
    m: &[f32],
    bias: &[f32],
    out: &mut [f32],
    accumulate: bool,
) {
    let cout = bias.len();
    let cout_p = lanes_up(cout);
    let batch = out.len() / (SQUARES * cout);
    for p in 0..batch {
        for ty in 0..TILES_Y {
            for tx in 0..TILES_X {
                let tile = TileAt {
                    position: p,
                    ty,
                    tx,
                };
                let mut c = 0;
                while c + V::WIDTH <= cout_p {
                    output_tile::<V>(m, bias, tile, c, out, accumulate);
                    c += V::WIDTH;
                }
                while c < cout_p {
                    output_tile::<N>(m, bias, tile, c, out, accumulate);
                    c += N::WIDTH;
                }
            }
        }
    }
}

/// [`output_transform`] of the channels `c..c + V::WIDTH` (those below
/// `cout`) of one tile.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // as in `input_tile`
fn output_tile<V: Vector>(
    m: &[f32],
    bias: &[f32],
    tile: TileAt,
    c: usize,
    out: &mut [f32],
    accumulate: bool,
) {
    let cout = bias.len();
    let cout_p = lanes_up(cout);
    let n = V::WIDTH.min(cout - c);
    let bias_v = if n == V::WIDTH {
        V::load(bias, c)
    } else {
        V::load_first(bias, c, n)
    };
    let base = tile.index() * POINTS;
    // Columns (A_Y^T M along the ranks), then rows ((A_Y^T M) A_X).
    let columns: [[V; OUT_Y]; IN_X] =
        six!(|j| at_y(five!(|i| V::load(m, (base + i * IN_X + j) * cout_p + c))));
    for i in 0..OUT_Y {
        let y = tile.ty * OUT_Y + i;
        if y >= RANKS as usize {
            break;
        }
        for (j, lanes) in at_x(six!(|j| columns[j][i])).into_iter().enumerate() {
            let x = tile.tx * OUT_X + j;
            if x >= FILES as usize {
                break;
            }
            let at = (tile.position * SQUARES + y * FILES as usize + x) * cout + c;
            let value = lanes + bias_v;
            if n == V::WIDTH {
                if accumulate {
                    (value + V::load(out, at)).store(out, at);
                } else {
                    value.store(out, at);
                }
            } else if accumulate {
                (value + V::load_first(out, at, n)).store_first(out, at, n);
            } else {
                value.store_first(out, at, n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::kernels::{im2col, neighbourhoods, Mat};

    /// A deterministic pseudo-random vector in [-1, 1).
    fn noise(n: usize, seed: u64) -> Vec<f32> {
        let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..n)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s >> 40) as f32 / (1u64 << 23) as f32 - 1.0
            })
            .collect()
    }

    #[test]
    fn winograd_matches_the_direct_convolution() {
        // One scratch for all: its padded board changes channels between them.
        let mut scratch = WinogradScratch::default();
        for (batch, cin, cout) in [
            (1, 3, 5),
            (3, 42, 32),
            (2, 32, 32),
            (2, 42, 32),
            (5, 64, 64),
            (2, 24, 42),
            (1, 17, 17),
        ] {
            let input = noise(batch * SQUARES * cin, 1);
            let weight = noise(9 * cin * cout, 2);
            let bias = noise(cout, 3);
            let mut direct: Vec<f32> = (0..batch * SQUARES).flat_map(|_| bias.clone()).collect();
            let mut cols = Vec::new();
            im2col(&input, cin, &neighbourhoods(), &mut cols);
            crate::backend::kernels::mul(
                Mat::new(&cols, batch * SQUARES, 9 * cin),
                Mat::new(&weight, 9 * cin, cout),
                &mut direct,
                true,
            );
            // Winograd's rounding grows with the number of terms summed.
            let tolerance = 1e-4 * (cin as f32 / 42.0).max(1.0);
            let mut fast = vec![f32::NAN; batch * SQUARES * cout];
            let winograd = WinogradWeight::new(&weight, cin, cout);
            // Twice: the second pass reuses the buffers as they are.
            for _ in 0..2 {
                winograd.forward(&input, &bias, &mut fast, &mut scratch);
            }
            // Every path this processor runs (the active one above).
            for path in KernelPath::here() {
                let mut on_path = vec![f32::NAN; fast.len()];
                winograd.convolve(&input, &bias, &mut on_path, &mut scratch, false, path);
                let worst = direct
                    .iter()
                    .zip(&on_path)
                    .map(|(a, b)| (a - b).abs() / (1.0 + a.abs()))
                    .fold(0.0f32, f32::max);
                let name = path.name();
                assert!(
                    worst < tolerance,
                    "{batch}x{cin}->{cout} {name}: error {worst}"
                );
                if path == KernelPath::active() {
                    assert_eq!(on_path, fast, "{name}: the reused buffers change nothing");
                }
            }
            // Adding onto what the output holds doubles it.
            let mut twice = fast.clone();
            winograd.add_forward(&input, &bias, &mut twice, &mut scratch);
            let worst = twice
                .iter()
                .zip(&fast)
                .map(|(t, f)| (t - 2.0 * f).abs() / (1.0 + f.abs()))
                .fold(0.0f32, f32::max);
            assert!(
                worst < 1e-6,
                "{batch}x{cin}->{cout} accumulated: error {worst}"
            );
        }
    }
}
