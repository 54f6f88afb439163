//! Links portkit's CRC32C static library from a CMake build directory:
//! PORTKIT_BUILD_DIR (default: build/bench-crc32c at the repository root,
//! which bench/crc32c/run.sh configures as a Release build).
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let dir = std::env::var("PORTKIT_BUILD_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| manifest.join("../../../build/bench-crc32c"));
    for sub in ["native/crc32c", "native/cpu", "native"] {
        println!("cargo:rustc-link-search=native={}", dir.join(sub).display());
    }
    for lib in ["pk_crc32c", "pk_cpu_features", "pk_common"] {
        println!("cargo:rustc-link-lib=static={lib}");
    }
    println!("cargo:rustc-link-lib=pthread");
    println!("cargo:rerun-if-env-changed=PORTKIT_BUILD_DIR");
    println!(
        "cargo:rerun-if-changed={}",
        dir.join("native/crc32c/libpk_crc32c.a").display()
    );
}
