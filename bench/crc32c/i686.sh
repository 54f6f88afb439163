#!/usr/bin/env bash
# CRC32C on i686 against x86-64 on this CPU: builds bench_impls for both
# (the i686 one with the cross toolchain; it runs natively on an x86-64
# kernel) and prints the markdown table of docs/benchmarks.md's i686 section
# (with --write docs/benchmarks.md, replaces it there).
#
#   bench/crc32c/i686.sh [ROUNDS [--write docs/benchmarks.md]]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-11}
shift || true
configure=(cmake -S . -G Ninja -Wno-dev --no-warn-unused-cli --log-level=WARNING -DCMAKE_BUILD_TYPE=Release)
"${configure[@]}" -B build/bench-crc32c -DCMAKE_C_FLAGS="" >/dev/null
"${configure[@]}" -B build/bench-crc32c-i686 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/i686-linux-gnu.cmake >/dev/null
cmake --build build/bench-crc32c --target bench_impls >/dev/null
cmake --build build/bench-crc32c-i686 --target bench_impls >/dev/null
"${PYTHON:-python3}" bench/crc32c/bench_i686.py --rounds "$rounds" "$@" \
  build/bench-crc32c-i686/native/crc32c/bench_impls build/bench-crc32c/native/crc32c/bench_impls
