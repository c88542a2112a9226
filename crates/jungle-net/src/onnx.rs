//! ONNX export of the network through burn's exporter (`burn-onnx`,
//! opset 18): one input (`[batch, planes, 9, 7]`, batch dynamic; 38, 42
//! or 44 planes, see [`crate::encoding::Encoding`]) named [`INPUT_NAME`],
//! and the outputs of [`Output::of`] in their order and under their names
//! (policy logits `[batch, 252]`, win/draw/loss logits `[batch, 3]`, moves
//! left `[batch, 1]`, survival logits `[batch, 32]` with the survival
//! head, short-term win/draw/loss logits `[batch, 3]` with the short-term
//! head).

use crate::export_error::{ExportCause, ExportError};
use crate::outputs::Output;
use crate::PolicyValueNet;
use burn::module::Module;
use burn::tensor::{Device, Tensor};
use burn_onnx::export::{AxisSpec, InputSpec, OnnxExporter};
use jungle_rules::{FILES, RANKS};
use onnx_ir::{Message, ModelProto};
use std::collections::HashMap;
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
    // Every output in `Output::of`'s order, `[batch, width]` each.
    let model = OnnxExporter::new().export_dynamic(
        &net,
        sample(2),
        sample(3),
        std::slice::from_ref(&spec),
        |m: &PolicyValueNet, x| {
            m.forward_outputs(x)
                .into_iter()
                .map(|(_, t)| t)
                .collect::<Vec<_>>()
        },
    )?;
    Ok(model.into_bytes())
}

/// The name of the input tensor `[batch, planes, 9, 7]` (38, 42 or 44 planes).
pub const INPUT_NAME: &str = "planes";

/// The ONNX model of `net` with the input named [`INPUT_NAME`] and the
/// outputs named as [`Output::name`] says (burn generates other names).
pub fn named_onnx(net: &PolicyValueNet, device: &Device) -> Result<ModelProto, ExportCause> {
    let bytes = onnx_bytes(net, device)?;
    let mut model =
        ModelProto::parse_from_bytes(&bytes).map_err(|e| ExportCause::Protobuf(e.to_string()))?;
    let graph = model.graph.mut_or_insert_default();
    let names: Vec<&str> = net.outputs().into_iter().map(Output::name).collect();
    if graph.input.len() != 1 || graph.output.len() != names.len() {
        return Err(ExportCause::Graph {
            inputs: graph.input.len(),
            outputs: graph.output.len(),
            outputs_expected: names.len(),
        });
    }
    let mut renames: HashMap<String, String> = HashMap::new();
    renames.insert(graph.input[0].name.clone(), INPUT_NAME.to_string());
    for (out, name) in graph.output.iter().zip(names) {
        renames.insert(out.name.clone(), name.to_string());
    }
    let rename = |name: &mut String| {
        if let Some(new) = renames.get(name.as_str()) {
            *name = new.clone();
        }
    };
    graph.input.iter_mut().for_each(|v| rename(&mut v.name));
    graph.output.iter_mut().for_each(|v| rename(&mut v.name));
    graph
        .value_info
        .iter_mut()
        .for_each(|v| rename(&mut v.name));
    for node in &mut graph.node {
        node.input.iter_mut().for_each(&rename);
        node.output.iter_mut().for_each(&rename);
    }
    // Weights no node reads (none are expected) would only bloat the file.
    let used: std::collections::HashSet<&String> =
        graph.node.iter().flat_map(|n| n.input.iter()).collect();
    graph.initializer.retain(|init| used.contains(&init.name));
    graph.name = "jungle_zero".to_string();
    model.producer_name = "jungle-zero".to_string();
    Ok(model)
}

/// Writes `net` as an ONNX file, atomically.
pub fn export_onnx(net: &PolicyValueNet, device: &Device, path: &Path) -> Result<(), ExportError> {
    let model = named_onnx(net, device).map_err(|e| e.at(path))?;
    let bytes = onnx_ir::Message::write_to_bytes(&model)
        .map_err(|e| ExportCause::Protobuf(e.to_string()).at(path))?;
    jungle_files::write_atomically(path, &bytes).map_err(|e| ExportCause::from(e).at(path))
}
