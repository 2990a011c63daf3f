//! Lists every litmus file under `models/litmus/` (the kernel's, copied verbatim, and mmcheck's
//! own) into `$OUT_DIR/litmus_files.rs`, which `litmus.rs` includes as `FILES`, each file's text
//! compiled in with `include_str!`. Adding a test is adding its file.

use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "litmus") {
            out.push(p);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("litmus");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    let mut src = String::from("&[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        src.push_str(&format!(
            "    File {{ path: {rel:?}, text: include_str!({:?}) }},\n",
            f.display().to_string()
        ));
    }
    src.push(']');
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("litmus_files.rs");
    std::fs::write(out, src).unwrap();
}
