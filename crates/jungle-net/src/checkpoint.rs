//! Checkpoints: `<prefix>.bpk` (the weights, burnpack) and `<prefix>.json`
//! (architecture, encoding version, rule set, step), each written to a
//! temporary name and renamed, the JSON last, so a checkpoint whose JSON
//! exists is whole.

use crate::encoding::{Encoding, POLICY_SLOTS};
use crate::tensors::first_non_finite;
use crate::{NetConfig, PolicyValueNet};
use burn::module::Module;
use burn::tensor::Device;
use jungle_rules::{rules_name, MixtureError, RuleMixture, RuleSet, Rules, WeightedRuleSet};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The value of the `format` field.
pub const FORMAT: &str = "jungle-zero checkpoint";
/// Version of the checkpoint layout.
pub const FORMAT_VERSION: u32 = 1;

/// The JSON half of a checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckpointMeta {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`FORMAT_VERSION`] when written.
    pub format_version: u32,
    /// The architecture.
    pub net: NetConfig,
    /// The network's [`Encoding::version`].
    pub encoding_version: u32,
    /// Input planes.
    pub planes: usize,
    /// Policy slots.
    pub policy_slots: usize,
    /// The rule set the network is trained for (with several, the first of
    /// `trained_variants`).
    pub rules: Rules,
    /// Every rule set its self-play games were played under, when it was
    /// trained on a mixture (`[run] variants`); empty when it was trained
    /// on `rules` alone (and in checkpoints older than the key).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trained_variants: Vec<TrainedVariant>,
    /// Training steps taken.
    pub step: u64,
    /// Training samples seen.
    pub samples_seen: u64,
    /// Seconds since the Unix epoch when written.
    pub created_unix: u64,
}

/// One rule set of a training mixture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainedVariant {
    /// Its name in the config (a preset name or a toml path).
    pub variant: String,
    /// Its weight in the mixture (games are drawn in proportion).
    pub weight: f64,
    /// Its switches.
    pub rules: Rules,
}

impl CheckpointMeta {
    /// The rule sets the network was trained under, with their weights:
    /// the mixture's, or its `rules` alone (weight 1). A mixture that does
    /// not check out is refused by [`parse_meta`].
    pub fn checked_mixture(&self) -> Result<RuleMixture, MixtureError> {
        if self.trained_variants.is_empty() {
            return Ok(RuleMixture::single(RuleSet::named(self.rules.clone())));
        }
        RuleMixture::new(
            self.trained_variants
                .iter()
                .map(|v| WeightedRuleSet::new(v.variant.clone(), v.rules.clone(), v.weight))
                .collect(),
        )
    }

    /// [`CheckpointMeta::checked_mixture`] of a meta read by [`parse_meta`]
    /// (or written by the trainer, from a checked mixture).
    pub fn trained_mixture(&self) -> RuleMixture {
        self.checked_mixture()
            .expect("a checkpoint's mixture is checked when it is read")
    }

    /// The rule sets the network was trained under: the mixture's, or
    /// `rules` alone.
    pub fn trained_rules(&self) -> Vec<&Rules> {
        if self.trained_variants.is_empty() {
            vec![&self.rules]
        } else {
            self.trained_variants.iter().map(|v| &v.rules).collect()
        }
    }

    /// Whether the network was trained under `rules` (equal switches, by
    /// whatever name).
    pub fn trained_on(&self, rules: &Rules) -> bool {
        self.trained_rules().contains(&rules)
    }

    /// The names of the rule sets it was trained under, comma separated.
    pub fn trained_names(&self) -> String {
        if self.trained_variants.is_empty() {
            rules_name(&self.rules)
        } else {
            self.trained_variants
                .iter()
                .map(|v| v.variant.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        }
    }

    /// Metadata for a network with config `net` under `rules` at `step`.
    pub fn new(net: NetConfig, rules: Rules, step: u64, samples_seen: u64) -> CheckpointMeta {
        CheckpointMeta {
            format: FORMAT.to_string(),
            format_version: FORMAT_VERSION,
            encoding_version: net.encoding().version(),
            planes: net.encoding().planes(),
            net,
            policy_slots: POLICY_SLOTS,
            rules,
            trained_variants: Vec::new(),
            step,
            samples_seen,
            created_unix: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
        }
    }
}

/// Why a checkpoint could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// A file could not be read or written.
    #[error("checkpoint file `{path}`: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        error: std::io::Error,
    },
    /// The JSON is malformed or has wrong fields.
    #[error("checkpoint metadata `{path}`: {message}")]
    Meta {
        /// The JSON file.
        path: PathBuf,
        /// What was wrong.
        message: String,
    },
    /// The checkpoint was made for other input planes or move slots.
    #[error("checkpoint `{path}` uses {what}; this build uses {expected}: it cannot be loaded")]
    Encoding {
        /// The JSON file.
        path: PathBuf,
        /// What the checkpoint has.
        what: String,
        /// What this build has.
        expected: String,
    },
    /// The weights hold NaN or infinite values: the training that made
    /// them diverged.
    #[error("checkpoint `{path}`: {found}: the training that made it diverged; use an earlier checkpoint")]
    NonFinite {
        /// The weights file.
        path: PathBuf,
        /// The first tensor found with such values.
        found: crate::tensors::NonFinite,
    },
    /// The weights do not fit the architecture, or the architecture is not the one expected.
    #[error("checkpoint `{path}`: architecture mismatch: {message}")]
    Architecture {
        /// The file.
        path: PathBuf,
        /// Which field differs, or what burn reported.
        message: String,
    },
}

/// A loaded checkpoint.
#[derive(Debug)]
pub struct Checkpoint {
    /// Its metadata.
    pub meta: CheckpointMeta,
    /// The network.
    pub net: PolicyValueNet,
}

/// `prefix` without a `.json` or `.bpk` ending.
pub fn checkpoint_prefix(path: &Path) -> PathBuf {
    match path.extension().and_then(|e| e.to_str()) {
        Some("json") | Some("bpk") => path.with_extension(""),
        _ => path.to_path_buf(),
    }
}

fn with_suffix(prefix: &Path, suffix: &str) -> PathBuf {
    let mut s = prefix.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// Publishes `path` atomically ([`jungle_files::publish`]); `write`
/// creates the temporary file it is given.
fn write_atomically(
    path: &Path,
    write: impl FnOnce(&Path) -> Result<(), CheckpointError>,
) -> Result<(), CheckpointError> {
    jungle_files::publish(path, write).map_err(|e| {
        e.into_inner(|error| CheckpointError::Io {
            path: path.to_path_buf(),
            error,
        })
    })
}

/// Saves `net` with `meta` as `<prefix>.bpk` and `<prefix>.json`.
pub fn save_checkpoint(
    prefix: &Path,
    net: &PolicyValueNet,
    meta: &CheckpointMeta,
) -> Result<(), CheckpointError> {
    let prefix = checkpoint_prefix(prefix);
    if let Some(dir) = prefix.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|error| CheckpointError::Io {
            path: dir.to_path_buf(),
            error,
        })?;
    }
    let weights = with_suffix(&prefix, ".bpk");
    if let Some(found) = first_non_finite(net) {
        return Err(CheckpointError::NonFinite {
            path: weights,
            found,
        });
    }
    write_atomically(&weights, |tmp| {
        net.clone().save_file(tmp).map_err(|e| CheckpointError::Io {
            path: tmp.to_path_buf(),
            error: std::io::Error::other(e.to_string()),
        })
    })?;
    let json = with_suffix(&prefix, ".json");
    let text = serde_json::to_string_pretty(meta).expect("metadata serialises");
    write_atomically(&json, |tmp| {
        std::fs::write(tmp, text).map_err(|error| CheckpointError::Io {
            path: tmp.to_path_buf(),
            error,
        })
    })
}

/// Reads a checkpoint's metadata (`path` may name the prefix, the `.json` or the `.bpk`).
pub fn read_meta(path: &Path) -> Result<CheckpointMeta, CheckpointError> {
    let json = with_suffix(&checkpoint_prefix(path), ".json");
    let text = jungle_files::read_text_bounded(&json, jungle_files::MAX_SETTINGS_BYTES).map_err(
        |error| CheckpointError::Io {
            path: json.clone(),
            error,
        },
    )?;
    parse_meta(&json, &text)
}

/// Reads checkpoint metadata from the text of its `.json` file `json`
/// (named in errors) and checks it as [`read_meta`] does.
pub fn parse_meta(json: &Path, text: &str) -> Result<CheckpointMeta, CheckpointError> {
    let json = json.to_path_buf();
    let meta: CheckpointMeta = serde_json::from_str(text).map_err(|e| CheckpointError::Meta {
        path: json.clone(),
        message: e.to_string(),
    })?;
    if meta.format != FORMAT {
        return Err(CheckpointError::Meta {
            path: json,
            message: format!("field `format` is `{}`, expected `{FORMAT}`", meta.format),
        });
    }
    let encoding = meta.net.encoding();
    if meta.encoding_version != encoding.version()
        || meta.planes != encoding.planes()
        || meta.policy_slots != POLICY_SLOTS
    {
        let known = Encoding::ALL
            .map(|e| format!("{} ({} planes)", e.version(), e.planes()))
            .join(" or ");
        return Err(CheckpointError::Encoding {
            path: json,
            what: format!(
                "encoding version {} ({} planes, {} policy slots) with `tactical_planes` {} \
                 and `exchange_planes` {}",
                meta.encoding_version,
                meta.planes,
                meta.policy_slots,
                meta.net.tactical_planes == Some(true),
                meta.net.exchange_planes == Some(true)
            ),
            expected: format!(
                "encoding version {known} as `tactical_planes` and `exchange_planes` say, \
                 {POLICY_SLOTS} policy slots"
            ),
        });
    }
    meta.net
        .validate()
        .map_err(|message| CheckpointError::Meta {
            path: json.clone(),
            message: format!("field `net`: {message}"),
        })?;
    meta.rules
        .validate()
        .map_err(|message| CheckpointError::Meta {
            path: json.clone(),
            message: format!("field `rules`: {message}"),
        })?;
    meta.checked_mixture().map_err(|e| CheckpointError::Meta {
        path: json,
        message: format!("field `trained_variants`: {e}"),
    })?;
    Ok(meta)
}

/// Loads a checkpoint onto `device`.
pub fn load_checkpoint(path: &Path, device: &Device) -> Result<Checkpoint, CheckpointError> {
    let meta = read_meta(path)?;
    let weights = with_suffix(&checkpoint_prefix(path), ".bpk");
    if !weights.exists() {
        return Err(CheckpointError::Io {
            path: weights,
            error: std::io::Error::new(std::io::ErrorKind::NotFound, "weights file missing"),
        });
    }
    let net = meta.net.init(device).try_load_file(&weights).map_err(|e| {
        CheckpointError::Architecture {
            path: weights.clone(),
            message: format!("the weights do not fit {:?}: {e}", meta.net),
        }
    })?;
    if let Some(found) = first_non_finite(&net) {
        return Err(CheckpointError::NonFinite {
            path: weights,
            found,
        });
    }
    Ok(Checkpoint { meta, net })
}

impl Checkpoint {
    /// Checks that the checkpoint has the architecture `expected`; the
    /// error names every field that differs.
    pub fn expect_architecture(
        &self,
        path: &Path,
        expected: &NetConfig,
    ) -> Result<(), CheckpointError> {
        let have = &self.meta.net;
        let fields = [
            ("blocks", have.blocks, expected.blocks),
            ("filters", have.filters, expected.filters),
            (
                "global_pool_every",
                have.global_pool_every,
                expected.global_pool_every,
            ),
            (
                "policy_filters",
                have.policy_filters,
                expected.policy_filters,
            ),
            ("value_filters", have.value_filters, expected.value_filters),
            ("value_hidden", have.value_hidden, expected.value_hidden),
        ];
        let mut diffs: Vec<String> = fields
            .iter()
            .filter(|(_, h, e)| h != e)
            .map(|(k, h, e)| format!("{k} is {h}, expected {e}"))
            .collect();
        for ((key, h), (_, e)) in have.switches().into_iter().zip(expected.switches()) {
            if h != e {
                diffs.push(format!("{key} is {h}, expected {e}"));
            }
        }
        if diffs.is_empty() {
            Ok(())
        } else {
            Err(CheckpointError::Architecture {
                path: path.to_path_buf(),
                message: diffs.join("; "),
            })
        }
    }
}
