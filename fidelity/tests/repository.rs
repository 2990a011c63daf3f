//! The repository's own kernel/ texts against its Rust: every C statement of every modelled
//! function mirrored or marked LEFT OUT, every Rust statement matched or marked MODEL.
//! (`cargo xtask fidelity --show` prints the alignment; the unit tests in lib.rs show that
//! each rule fails when broken.)

use std::path::Path;

#[test]
fn every_kernel_statement_is_mirrored_or_left_out() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let r = mmcheck_fidelity::check(&root, None).expect("kernel/ and src/ read");
    assert!(
        r.variants.len() >= 19,
        "variants read: {}",
        r.variants.len()
    );
    let problems = mmcheck_fidelity::problem_lines(&r);
    assert!(
        problems.is_empty(),
        "{} fidelity problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
