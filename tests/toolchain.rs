//! The set-up holds: `rust-version` in Cargo.toml is not lower than what any crate locked in
//! Cargo.lock declares it needs, so that a toolchain of that version builds the lock as it is.
//! (This crate's own use of newer standard library items is clippy's `incompatible_msrv`.)
//!
//! Unix only: the lock file is the same for every system, and under Wine (where the suite is
//! run for Windows here) the Linux `cargo` this asks cannot be started.

#![cfg(unix)]

use std::process::Command;

/// `1.89` or `1.89.0` as numbers to compare.
fn version(text: &str) -> Vec<u32> {
    let mut parts: Vec<u32> = text.split('.').map(|p| p.parse().unwrap()).collect();
    parts.resize(3, 0);
    parts
}

#[test]
fn every_locked_crate_builds_with_the_declared_rust_version() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = Command::new(cargo)
        .args(["metadata", "--locked", "--format-version", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    let ours = packages
        .iter()
        .find(|p| p["name"] == env!("CARGO_PKG_NAME"))
        .and_then(|p| p["rust_version"].as_str())
        .expect("Cargo.toml declares rust-version");
    let newer: Vec<String> = packages
        .iter()
        .filter_map(|p| {
            let needs = p["rust_version"].as_str()?;
            (version(needs) > version(ours))
                .then(|| format!("{} {} needs {needs}", p["name"], p["version"]))
        })
        .collect();
    assert!(
        newer.is_empty(),
        "rust-version is {ours}, but the lock holds: {newer:?}"
    );
}
