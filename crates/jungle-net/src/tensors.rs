//! A network's float tensors (parameters and batch-norm running
//! statistics) by path, and the check that all of them are finite: a
//! checkpoint of a training run that diverged is refused wherever it is
//! written or read.

use burn::module::{Module, ModuleVisitor, Param};
use burn::tensor::Tensor;

/// Every float tensor of `module` with its path, named as burn's optimiser
/// names it for parameter-group matching (`blocks.3.conv2.weight`,
/// `stem_bn.running_var`), in visiting order.
pub fn parameters_by_path<M: Module>(module: &M) -> Vec<(String, Vec<f32>)> {
    let mut visitor = PathVisitor::default();
    module.visit(&mut visitor);
    visitor.parameters
}

/// Collects the float tensors, tracking each one's path.
#[derive(Default)]
struct PathVisitor {
    path: Vec<String>,
    parameters: Vec<(String, Vec<f32>)>,
}

impl ModuleVisitor for PathVisitor {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.push(name.to_string());
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.pop();
    }

    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let values = param
            .val()
            .into_data()
            .try_to_vec::<f32>()
            .expect("f32 parameters");
        self.parameters.push((self.path.join("."), values));
    }
}

/// A tensor holding values that are not finite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonFinite {
    /// Its path ([`parameters_by_path`]).
    pub tensor: String,
    /// How many of its values are NaN or infinite.
    pub count: usize,
    /// How many values it has.
    pub len: usize,
}

impl std::fmt::Display for NonFinite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "tensor `{}` holds {} non-finite values (NaN or infinity) of {}",
            self.tensor, self.count, self.len
        )
    }
}

/// The first tensor of `module` with a NaN or an infinity, if any.
pub fn first_non_finite<M: Module>(module: &M) -> Option<NonFinite> {
    parameters_by_path(module)
        .into_iter()
        .find_map(|(tensor, values)| {
            let count = values.iter().filter(|v| !v.is_finite()).count();
            (count > 0).then_some(NonFinite {
                tensor,
                count,
                len: values.len(),
            })
        })
}
