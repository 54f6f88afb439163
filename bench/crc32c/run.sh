#!/usr/bin/env bash
# Side-by-side CRC32C benchmark: portkit vs the crc-fast and crc32c crates
# (Rust harness, portkit linked over FFI) and vs the google-crc32c and crc32c
# Python packages. Prints markdown tables; the CRC32C section of docs/benchmarks.md holds the last run.
#
#   bench/crc32c/run.sh [ROUNDS]
#
# Needs cargo (crates.io) and a Python where `portkit` (with its _crc32c
# extension), google-crc32c and crc32c are installed: PYTHON=.venv/bin/python.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-31}
build=build/bench-crc32c
python=${PYTHON:-python3}

cmake -S . -B "$build" -G Ninja -Wno-dev --log-level=WARNING \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS=""
cmake --build "$build" --target pk_crc32c bench_impls
CARGO_TARGET_DIR="$PWD/$build/cargo" PORTKIT_BUILD_DIR="$PWD/$build" \
  cargo build --quiet --release --manifest-path bench/crc32c/rust/Cargo.toml

echo "## machine"
grep -m1 'model name' /proc/cpuinfo
echo "cores: $(nproc); kernel: $(uname -r)"
grep -o -w -E 'avx512f|avx512vl|vpclmulqdq|avx2|sse4_2|pclmulqdq' /proc/cpuinfo | sort -u | tr '\n' ' '
echo
echo
echo "## C: portkit vs Rust crates (throughput of back-to-back calls)"
"$build/cargo/release/crc32c-bench" --rounds "$rounds" --markdown
echo
echo "## C: every portkit implementation (each call extends the previous CRC)"
"$build/native/crc32c/bench_impls" -r "$rounds" 64 4k 64k 1m 64m
echo
echo "## Python: portkit.crc32c vs google-crc32c and crc32c"
"$python" bench/crc32c/bench_python.py --rounds "$rounds" --markdown
