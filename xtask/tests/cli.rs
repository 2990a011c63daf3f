//! `cargo xtask <command> --help` prints and exits 0 without building, writing or running
//! anything; bad input exits 2 the same way. The xtask binary runs with `CARGO` pointing at a
//! stand-in that records any call (xtask builds and runs everything through `$CARGO`), and the
//! tree's files are compared before and after.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

const COMMANDS: [&str; 11] = [
    "fidelity",
    "verify",
    "soak",
    "replay",
    "list",
    "test",
    "bless",
    "show",
    "new-variant",
    "bench",
    "browser-test",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is in the workspace")
        .to_path_buf()
}

/// Every file under the folders a command could write (the sources, the kernel texts, the
/// runner's output), with its modification time.
fn snapshot() -> BTreeMap<PathBuf, Option<SystemTime>> {
    fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, Option<SystemTime>>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.filter_map(|e| e.ok()) {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.insert(p.clone(), e.metadata().ok().and_then(|m| m.modified().ok()));
            }
        }
    }
    let mut out = BTreeMap::new();
    for d in [
        "src",
        "kernel",
        "proofs",
        "claims",
        "models",
        "target/mmcheck",
        "target/criterion",
    ] {
        walk(&root().join(d), &mut out);
    }
    out
}

/// A stand-in for cargo that records that it was called.
fn fake_cargo(dir: &Path) -> (PathBuf, PathBuf) {
    std::fs::create_dir_all(dir).unwrap();
    let marker = dir.join("called");
    let _ = std::fs::remove_file(&marker);
    let script = dir.join("cargo");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho \"$@\" >> '{}'\nexit 1\n", marker.display()),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    (script, marker)
}

fn xtask(args: &[&str], cargo: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .env("CARGO", cargo)
        .current_dir(root())
        .output()
        .expect("xtask runs")
}

#[test]
fn help_of_every_command_prints_and_does_nothing() {
    let dir = std::env::temp_dir().join(format!("xtask-cli-help-{}", std::process::id()));
    let (cargo, marker) = fake_cargo(&dir);
    let before = snapshot();
    let top = xtask(&["--help"], &cargo);
    assert_eq!(top.status.code(), Some(0));
    let top_text = String::from_utf8_lossy(&top.stdout);
    for cmd in COMMANDS {
        assert!(top_text.contains(cmd), "`cargo xtask --help` lists {cmd}");
        for help in ["--help", "-h"] {
            let out = xtask(&[cmd, help], &cargo);
            let text = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(0), "{cmd} {help}: {text}");
            assert!(
                text.contains("Usage: cargo xtask"),
                "{cmd} {help} prints its usage: {text}"
            );
        }
    }
    assert!(
        !marker.exists(),
        "a --help ran cargo: {:?}",
        std::fs::read_to_string(&marker)
    );
    assert_eq!(before, snapshot(), "a --help wrote a file");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_exits_2_and_does_nothing() {
    let dir = std::env::temp_dir().join(format!("xtask-cli-bad-{}", std::process::id()));
    let (cargo, marker) = fake_cargo(&dir);
    let before = snapshot();
    for args in [
        &["frobnicate"][..],
        &["verify", "--bound", "99"],
        &["verify", "--unknown-option"],
        &["verify", "--area", "lru"],
        &["soak", "--area", "slab"],
        &["soak", "--area", "lru", "--partition", "5/4"],
        &["replay"],
        &["test", "extra"],
        &["bless", "extra"],
        &["show"],
        &["show", "no-such-variant"],
        &["new-variant", "--area", "slab", "--from", "27c73ae7", "x"],
        &[
            "new-variant",
            "--area",
            "compound",
            "--from",
            "no-such-parent",
            "27c73ae7-x",
        ],
        &[
            "new-variant",
            "--area",
            "compound",
            "--from",
            "27c73ae7",
            "Not An Id",
        ],
        &["bench", "--fast"],
    ] {
        let out = xtask(args, &cargo);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stderr.is_empty(), "{args:?} says why");
    }
    assert!(
        !marker.exists(),
        "bad input ran cargo: {:?}",
        std::fs::read_to_string(&marker)
    );
    assert_eq!(before, snapshot(), "bad input wrote a file");
    let _ = std::fs::remove_dir_all(&dir);
}
