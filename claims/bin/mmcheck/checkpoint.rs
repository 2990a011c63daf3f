//! loom checkpoints of `verify --checkpoint`: a metadata file beside loom's own, so a file
//! from another claim, bound or build is refused instead of silently resumed. Validation
//! ([`inspect`]) reads only; [`create`] writes, after every input was validated.

use mmcheck_claims::report::Before;
use mmcheck_claims::{Bound, Claim};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Meta {
    mmcheck: String,
    claim: String,
    variant: String,
    model: String,
    bound: Bound,
}

/// A claim's checkpoint files.
pub struct Checkpoint {
    pub loom_file: PathBuf,
    meta_file: PathBuf,
    meta: Meta,
    /// A valid checkpoint exists: the run resumes from it.
    pub resume: bool,
    /// What the runs before it did, if the checkpoint records it (vendor/loom's `progress`:
    /// a checkpoint written before loom recorded it has none).
    pub before: Option<Before>,
}

/// loom's record of the runs before a checkpoint (vendor/loom, `model::Progress`).
#[derive(Deserialize)]
struct Progress {
    iterations: u64,
    probes: u64,
    seconds: f64,
}

/// The checkpoint of claim `c` at `bound` under `dir`: checks an existing one (corrupt,
/// foreign or metadata-less files are refused and left alone). Writes nothing.
pub fn inspect(dir: &Path, c: &Claim, bound: Bound) -> Result<Checkpoint, String> {
    let stem = format!("{}-bound-{bound}", c.id);
    let loom_file = dir.join(format!("{stem}.loom.json"));
    let meta_file = dir.join(format!("{stem}.meta.json"));
    let meta = Meta {
        mmcheck: env!("CARGO_PKG_VERSION").to_string(),
        claim: c.id.to_string(),
        variant: c.variant.to_string(),
        model: c.model.to_string(),
        bound,
    };
    let resume = loom_file.exists();
    let mut before = None;
    if resume {
        let meta_text = std::fs::read_to_string(&meta_file).map_err(|_| {
            format!(
                "checkpoint {} has no metadata file {}: not written by mmcheck; remove it to start over",
                loom_file.display(),
                meta_file.display()
            )
        })?;
        let found: Meta = serde_json::from_str(&meta_text).map_err(|e| {
            format!(
                "corrupt checkpoint metadata {}: {e}; remove it to start over",
                meta_file.display()
            )
        })?;
        if found != meta {
            return Err(format!(
                "checkpoint {} belongs to claim {} bound {} (mmcheck {}), not {} bound {bound}; remove it to start over",
                loom_file.display(),
                found.claim,
                found.bound,
                found.mmcheck,
                c.id,
            ));
        }
        let text = std::fs::read_to_string(&loom_file)
            .map_err(|e| format!("cannot read checkpoint {}: {e}", loom_file.display()))?;
        let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            format!(
                "corrupt checkpoint {}: {e}; remove it to start over",
                loom_file.display()
            )
        })?;
        if !v.is_object() || v.get("branches").is_none() {
            return Err(format!(
                "corrupt checkpoint {}: not a loom execution path",
                loom_file.display()
            ));
        }
        before = match v.get("progress") {
            None | Some(serde_json::Value::Null) => None,
            Some(p) => {
                let p: Progress = serde_json::from_value(p.clone()).map_err(|e| {
                    format!(
                        "corrupt checkpoint {}: its progress record: {e}; remove it to start over",
                        loom_file.display()
                    )
                })?;
                Some(Before {
                    executions: p.iterations.saturating_sub(p.probes),
                    seconds: p.seconds,
                })
            }
        };
    }
    Ok(Checkpoint {
        loom_file,
        meta_file,
        meta,
        resume,
        before,
    })
}

impl Checkpoint {
    /// Write the metadata of a new checkpoint (loom writes its own file as it explores).
    pub fn create(&self) -> Result<(), String> {
        if self.resume {
            return Ok(());
        }
        if let Some(dir) = self.meta_file.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let text = serde_json::to_string_pretty(&self.meta).expect("metadata serializes");
        std::fs::write(&self.meta_file, text)
            .map_err(|e| format!("cannot write {}: {e}", self.meta_file.display()))
    }

    /// The claim finished: its checkpoint is no longer needed.
    pub fn remove(&self) {
        let _ = std::fs::remove_file(&self.loom_file);
        // loom writes `<file>.tmp` and renames it over the checkpoint (vendor/loom.diff).
        let mut tmp = self.loom_file.as_os_str().to_owned();
        tmp.push(".tmp");
        let _ = std::fs::remove_file(std::path::PathBuf::from(tmp));
        let _ = std::fs::remove_file(&self.meta_file);
    }
}
