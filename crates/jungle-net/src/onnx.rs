//! ONNX export of the network through burn's exporter (`burn-onnx`,
//! opset 18): one input (`[batch, planes, 9, 7]`, batch dynamic; 38 or
//! 42 planes, see [`crate::encoding::Encoding`]) and
//! three outputs in this order: policy logits `[batch, 252]`, win/draw/loss
//! logits `[batch, 3]`, moves left `[batch, 1]`, named `planes`, `policy`,
//! `wdl` and `moves_left` in the written file.

use crate::export::{ExportCause, ExportError};
use crate::PolicyValueNet;
use burn::module::Module;
use burn::tensor::{Device, Tensor};
use burn_onnx::export::{AxisSpec, ExportOutput, InputSpec, OnnxExporter, OnnxModel};
use jungle_rules::{FILES, RANKS};
use std::path::Path;

/// The ONNX protobuf of `net` (in inference mode) with a dynamic batch axis.
pub fn onnx_bytes(net: &PolicyValueNet, device: &Device) -> Result<Vec<u8>, ExportCause> {
    let net = net.valid();
    let planes = net.encoding().planes();
    let sample =
        |batch: usize| Tensor::<4>::zeros([batch, planes, RANKS as usize, FILES as usize], device);
    let spec = InputSpec::new([
        AxisSpec::dynamic("batch"),
        AxisSpec::Static,
        AxisSpec::Static,
        AxisSpec::Static,
    ]);
    let model = if net.has_survival_head() {
        export_outputs(&net, sample, &spec, |m: &PolicyValueNet, x| {
            let (out, survival) = m.forward_with_survival(x);
            let survival = survival.expect("the network has the survival head");
            (out.policy, out.wdl, out.moves_left, survival)
        })
    } else {
        export_outputs(&net, sample, &spec, |m: &PolicyValueNet, x| {
            let out = m.forward(x);
            (out.policy, out.wdl, out.moves_left)
        })
    }?;
    Ok(model.into_bytes())
}

/// Traces `forward` on `net` into an ONNX model, the batch axis dynamic
/// (sample batches of 2 and 3 positions from `sample`).
fn export_outputs<O: ExportOutput>(
    net: &PolicyValueNet,
    sample: impl Fn(usize) -> Tensor<4>,
    spec: &InputSpec,
    forward: impl Fn(&PolicyValueNet, Tensor<4>) -> O,
) -> Result<OnnxModel, burn_onnx::export::ExportError> {
    OnnxExporter::new().export_dynamic(
        net,
        sample(2),
        sample(3),
        std::slice::from_ref(spec),
        forward,
    )
}

/// Writes `net` as an ONNX file, atomically.
pub fn export_onnx(net: &PolicyValueNet, device: &Device, path: &Path) -> Result<(), ExportError> {
    let model = crate::export::named_onnx(net, device).map_err(|e| e.at(path))?;
    let bytes = onnx_ir::Message::write_to_bytes(&model)
        .map_err(|e| ExportCause::Protobuf(e.to_string()).at(path))?;
    jungle_files::write_atomically(path, &bytes).map_err(|e| ExportCause::from(e).at(path))
}
