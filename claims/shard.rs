//! Joining the shards of a claim (`verify --merge`): the reports that `verify --shard K/N`
//! wrote, one per shard, give the claim's verdict, executions and completeness.
//!
//! The shards of one claim walk the same prefixes (vendor/loom, `Builder::shard`) and each
//! explores the subtrees of its own, so the claim's executions are the sum of the shards'
//! and the claim is complete when every shard is. A merge refuses (an error, not a verdict)
//! reports that cannot be the shards of one run: a shard missing or given twice, shards of
//! different counts, depths or bounds, or of different prefix walks.

use crate::explore::{meets, Verdict};
use crate::report::{ClaimReport, Shards};
use crate::table;
use std::collections::BTreeMap;

/// Join shard reports into one report per claim (in the order the claims first appear).
pub fn merge(reports: Vec<ClaimReport>) -> Result<Vec<ClaimReport>, String> {
    let mut order: Vec<String> = Vec::new();
    let mut by_claim: BTreeMap<String, Vec<ClaimReport>> = BTreeMap::new();
    for r in reports {
        if r.shards.as_ref().and_then(|s| s.index).is_none() {
            return Err(format!(
                "claim {}: the report is not a shard's (written without --shard, or already merged)",
                r.id
            ));
        }
        if !by_claim.contains_key(&r.id) {
            order.push(r.id.clone());
        }
        by_claim.entry(r.id.clone()).or_default().push(r);
    }
    if order.is_empty() {
        return Err("no shard reports to merge".to_string());
    }
    order
        .into_iter()
        .map(|id| {
            let shards = by_claim.remove(&id).expect("grouped");
            merge_claim(&id, shards)
        })
        .collect()
}

fn merge_claim(id: &str, mut shards: Vec<ClaimReport>) -> Result<ClaimReport, String> {
    let claim = table::all()
        .find(|c| c.id == id)
        .ok_or_else(|| format!("claim {id}: no such claim in this mmcheck"))?;
    shards.sort_by_key(|r| r.shards.as_ref().and_then(|s| s.index));
    let first = shards[0].shards.clone().expect("checked: a shard");
    for r in &shards {
        let s = r.shards.as_ref().expect("checked: a shard");
        if s.count != first.count || s.depth != first.depth || r.bound != shards[0].bound {
            return Err(format!(
                "claim {id}: shards of different runs ({} depth {} bound {:?} and {} depth {} bound {:?})",
                first.label(),
                first.depth,
                shards[0].bound,
                s.label(),
                s.depth,
                r.bound
            ));
        }
    }
    let indices: Vec<u64> = shards
        .iter()
        .filter_map(|r| r.shards.as_ref().and_then(|s| s.index))
        .collect();
    let want: Vec<u64> = (1..=first.count).collect();
    if indices != want {
        let missing: Vec<String> = want
            .iter()
            .filter(|k| !indices.contains(k))
            .map(|k| format!("{k}/{}", first.count))
            .collect();
        return Err(format!(
            "claim {id}: shards {} are missing or given twice (have {:?} of {})",
            if missing.is_empty() {
                "none".to_string()
            } else {
                missing.join(", ")
            },
            indices,
            first.count
        ));
    }
    // A shard that stopped at a failure has not walked every prefix: only finished shards
    // must agree on the walk.
    let finished: Vec<&ClaimReport> = shards
        .iter()
        .filter(|r| r.failure.is_none() && r.error.is_none())
        .collect();
    if let Some(a) = finished.first() {
        let p = a.shards.as_ref().expect("a shard").prefixes;
        if let Some(b) = finished
            .iter()
            .find(|r| r.shards.as_ref().expect("a shard").prefixes != p)
        {
            return Err(format!(
                "claim {id}: {} walked {p} prefixes, {} walked {}: not shards of one model",
                a.shards.as_ref().expect("a shard").label(),
                b.shards.as_ref().expect("a shard").label(),
                b.shards.as_ref().expect("a shard").prefixes
            ));
        }
    }
    // The verdict: the first shard's failure if any shard found one, else an error if any
    // shard had one, else SAFE only if every shard is complete.
    let failed = shards.iter().find(|r| r.failure.is_some());
    let errored = shards.iter().find(|r| r.error.is_some());
    let complete = shards.iter().all(|r| r.complete);
    let verdict = if let Some(f) = failed {
        f.verdict
    } else if errored.is_some() {
        Verdict::Error
    } else if complete {
        Verdict::Safe
    } else {
        Verdict::Incomplete
    };
    let base = failed.or(errored).unwrap_or(&shards[0]).clone();
    let seconds: f64 = shards.iter().map(|r| r.seconds).sum();
    let slowest = shards.iter().map(|r| r.seconds).fold(0.0, f64::max);
    Ok(ClaimReport {
        verdict,
        matches: meets(claim.expected, verdict),
        executions: shards.iter().map(|r| r.executions).sum(),
        complete,
        seconds,
        resumed: shards.iter().any(|r| r.resumed),
        // A shard is never resumed: `--shard` and `--checkpoint` do not combine.
        before: None,
        replay: format!(
            "cargo xtask verify --claim {id} --bound {} --shard K/{} --shard-depth {} (K = 1..{}), then verify --merge",
            base.bound.map_or("none".to_string(), |b| b.to_string()),
            first.count,
            first.depth,
            first.count
        ),
        shards: Some(Shards {
            index: None,
            probes: shards
                .iter()
                .map(|r| r.shards.as_ref().expect("a shard").probes)
                .sum(),
            slowest_seconds: slowest,
            ..first
        }),
        ..base
    })
}
