//! Bad input to the `mmcheck` runner (what `cargo xtask verify|soak|replay` run) gets a clear
//! error and exit status 2, never a panic or a silent default. Runs the std build of the
//! binary: every input is validated before the runner asks for its checker, and before it
//! writes anything.

use std::path::PathBuf;
use std::process::Command;

fn mmcheck(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mmcheck"))
        .args(args)
        .output()
        .expect("runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !text.contains("panicked"),
        "mmcheck {args:?} panicked:\n{text}"
    );
    (out.status.code().expect("exit code"), text)
}

fn refused(args: &[&str], needle: &str) {
    let (code, text) = mmcheck(args);
    assert_eq!(code, 2, "mmcheck {args:?}: exit {code}\n{text}");
    assert!(
        text.contains(needle),
        "mmcheck {args:?}: error does not say '{needle}':\n{text}"
    );
}

fn tmpdir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn unknown_claim_suggests_near_ids() {
    // compound.13 and compound.3 are both one edit away.
    refused(
        &["verify", "--claim", "compound.33"],
        "unknown claim 'compound.33'; did you mean compound.13, compound.3",
    );
    refused(&["verify", "--claim", "s7"], "unknown claim 's7'");
}

#[test]
fn a_claim_of_another_checker_is_refused_by_verify() {
    refused(
        &["verify", "--claim", "compound.soak"],
        "compound.soak is a shuttle claim",
    );
}

#[test]
fn bad_bounds() {
    refused(&["verify", "--bound", "x"], "'x' is not a bound");
    refused(&["verify", "--bound", "-1"], "'-1' is not a bound");
    refused(&["verify", "--bound", "99"], "bound 99 is too large");
    refused(
        &["verify", "--bound", "3", "--unbounded"],
        "cannot be used with",
    );
}

#[test]
fn bad_seed_ranges_and_partitions() {
    refused(
        &["soak", "--area", "compound", "--seeds", "5..2"],
        "'5..2' is not a seed range",
    );
    refused(
        &["soak", "--area", "compound", "--seeds", "a..b"],
        "--seeds",
    );
    refused(
        &["soak", "--area", "compound", "--partition", "3/2"],
        "K outside 1..=N",
    );
    refused(
        &["soak", "--area", "compound", "--partition", "1/0"],
        "N = 0",
    );
    refused(
        &["soak", "--area", "compound", "--partition", "half"],
        "is not K/N",
    );
    refused(
        &["soak", "--area", "compound", "--iterations", "0"],
        "--iterations",
    );
    refused(&["soak", "--area", "compound", "--depth", "0"], "--depth");
    refused(
        &["soak", "--area", "s9"],
        "no area 's9' (known: compound, lru, vma)",
    );
    refused(
        &["soak", "--area", "compound", "--scheduler", "dfs"],
        "invalid value 'dfs'",
    );
}

#[test]
fn std_build_says_which_build_soak_needs() {
    refused(&["soak", "--area", "lru"], "soak needs the shuttle build");
}

#[test]
fn bad_schedule_files() {
    let d = tmpdir("cli-replay");
    refused(
        &["replay", d.join("missing.json").to_str().unwrap()],
        "cannot read",
    );
    let garbage = d.join("garbage.json");
    std::fs::write(&garbage, "this is not json").unwrap();
    refused(
        &["replay", garbage.to_str().unwrap()],
        "is not a saved mmcheck failure",
    );
    let foreign = d.join("foreign.json");
    std::fs::write(&foreign, r#"{"mmcheck":"0.1.0","shuttle":"0.9.9","claim":"compound.soak-7cb2ef56","variant":"7cb2ef56","model":"thp_soak","config_debug_vm":false,"scheduler":"pct","seed":0,"failure":{"cause":{"kernel":"oops"},"func":"x","message":"","trace":[]},"schedule":"91020000"}"#).unwrap();
    refused(
        &["replay", foreign.to_str().unwrap()],
        "recorded with shuttle 0.9.9",
    );
}

#[test]
fn corrupt_and_foreign_checkpoints_are_refused_and_kept() {
    let d = tmpdir("cli-checkpoints");
    let dir = d.to_str().unwrap();
    // corrupt loom checkpoint with our metadata
    std::fs::write(d.join("compound.3-bound-4.loom.json"), "{ truncated").unwrap();
    std::fs::write(
        d.join("compound.3-bound-4.meta.json"),
        r#"{"mmcheck":"0.1.0","claim":"compound.3","variant":"7cb2ef56","model":"thp_put_vs_split_private","bound":{"preemption":4}}"#,
    )
    .unwrap();
    let verify = |claim: &str| {
        vec![
            "verify".to_string(),
            "--claim".to_string(),
            claim.to_string(),
            "--checkpoint".to_string(),
            "--checkpoint-dir".to_string(),
            dir.to_string(),
        ]
    };
    let args = verify("compound.3");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(&args, "corrupt checkpoint");
    assert_eq!(
        std::fs::read_to_string(d.join("compound.3-bound-4.loom.json")).unwrap(),
        "{ truncated",
        "not overwritten"
    );
    // a checkpoint of another claim under this name
    std::fs::write(d.join("compound.4-bound-4.loom.json"), r#"{"branches":{}}"#).unwrap();
    std::fs::write(
        d.join("compound.4-bound-4.meta.json"),
        r#"{"mmcheck":"0.1.0","claim":"compound.2","variant":"7cb2ef56","model":"hugetlb_get_put","bound":{"preemption":4}}"#,
    )
    .unwrap();
    let args = verify("compound.4");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(&args, "belongs to claim compound.2");
    // a loom file nobody wrote metadata for
    std::fs::write(d.join("compound.5-bound-4.loom.json"), r#"{"branches":{}}"#).unwrap();
    let args = verify("compound.5");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(&args, "has no metadata file");
}

#[test]
fn checkpoint_metadata_is_not_written_by_a_build_that_cannot_run() {
    let d = tmpdir("cli-checkpoint-nowrite");
    refused(
        &[
            "verify",
            "--claim",
            "compound.3",
            "--checkpoint",
            "--checkpoint-dir",
            d.to_str().unwrap(),
        ],
        "verify needs the loom build",
    );
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        0,
        "nothing written before the refusal"
    );
}

#[test]
fn report_paths_are_checked_before_running() {
    refused(
        &["verify", "--json", "/nonexistent-dir/r.json"],
        "no directory /nonexistent-dir",
    );
}

#[test]
fn unknown_command_and_options() {
    refused(&["frobnicate"], "unrecognized subcommand");
    refused(&["verify", "--bogus"], "unexpected argument '--bogus'");
}

#[test]
fn std_build_says_which_build_verify_needs() {
    refused(
        &["verify", "--claim", "compound.3"],
        "verify needs the loom build",
    );
}

#[test]
fn list_names_every_claim() {
    let (code, text) = mmcheck(&["list"]);
    assert_eq!(code, 0);
    for c in mmcheck_claims::table::all() {
        assert!(text.contains(c.id), "list misses {}", c.id);
    }
}

#[test]
fn bad_matrix_variant_and_jobs_arguments() {
    refused(
        &["verify", "--matrix", "--area", "s9"],
        "no area 's9' (known: compound, lru, vma)",
    );
    refused(&["verify", "--area", "lru"], "--matrix");
    refused(
        &["verify", "--variant", "deadbeef"],
        "no variant 'deadbeef' (known:",
    );
    refused(&["verify", "--jobs", "0"], "--jobs");
    refused(&["verify", "--jobs", "x"], "--jobs");
    refused(
        &["verify", "--matrix", "--claim", "compound.1"],
        "cannot be used with",
    );
    refused(
        &["verify", "--html", "/nonexistent-dir/r.html"],
        "no directory /nonexistent-dir",
    );
}

#[test]
fn safeguards_report_runs_without_a_checker() {
    let (code, text) = mmcheck(&["verify", "--safeguards"]);
    assert!(code == 0 || code == 1, "exit {code}:\n{text}");
    assert!(text.contains("| variant | safeguard |"), "{text}");
    assert!(text.contains("safeguards: "), "{text}");
    assert_eq!(
        code == 1,
        text.contains("MISSING"),
        "exit 1 exactly when a safeguard is missing:\n{text}"
    );
}

#[test]
fn calibration_arguments() {
    refused(
        &["verify", "--calibration", "--claim", "compound.1"],
        "cannot be used with",
    );
    refused(&["verify", "--calibration"], "verify needs the loom build");
    refused(
        &["verify", "--litmus", "x.litmus"],
        "the following required arguments were not provided",
    );
    let dir = tmpdir("litmus");
    refused(
        &[
            "verify",
            "--calibration",
            "--litmus",
            "/nonexistent/x.litmus",
        ],
        "cannot read /nonexistent/x.litmus",
    );
    // A file the interpreter refuses names its line and reason, before the build is checked.
    for (name, text, why) in [
        (
            "rcu.litmus",
            "C T\n\n{}\n\nP0(int *x)\n{\n\trcu_read_lock();\n}\n\nexists (x=1)\n",
            "line 7: `rcu_read_lock` is not supported",
        ),
        ("arm.litmus", "AArch64 T\n", "line 1: a C litmus test starts with `C <name>`"),
        (
            "result.litmus",
            "C T\n(*\n * Result: Maybe\n *)\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\nexists (x=1)\n",
            "`Result: Maybe` is not Never, Sometimes or DEADLOCK",
        ),
    ] {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        refused(&["verify", "--calibration", "--litmus", p.to_str().unwrap()], why);
    }
    // A good file passes the interpreter and reaches the build check.
    let p = dir.join("good.litmus");
    std::fs::write(
        &p,
        "C T\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\nexists (x=1)\n",
    )
    .unwrap();
    refused(
        &["verify", "--calibration", "--litmus", p.to_str().unwrap()],
        "verify needs the loom build",
    );
}

#[test]
fn bad_shards_and_merges() {
    refused(
        &["verify", "--claim", "compound.1", "--shard", "0/3"],
        "K outside",
    );
    refused(
        &["verify", "--claim", "compound.1", "--shard", "4/3"],
        "K outside",
    );
    refused(
        &["verify", "--claim", "compound.1", "--shard", "x"],
        "is not K/N",
    );
    refused(&["verify", "--shard-depth", "4"], "--shard");
    refused(
        &["verify", "--shard", "1/2", "--matrix"],
        "cannot be used with",
    );
    refused(
        &["verify", "--merge", "/nonexistent/shard-1.json"],
        "cannot read",
    );
    let dir = tmpdir("merge");
    let bad = dir.join("not-a-report.json");
    std::fs::write(&bad, "{}").unwrap();
    refused(
        &["verify", "--merge", bad.to_str().unwrap()],
        "is not a claims report",
    );
    let empty = dir.join("empty.json");
    std::fs::write(&empty, "[]").unwrap();
    refused(
        &["verify", "--merge", empty.to_str().unwrap()],
        "no shard reports",
    );
}
