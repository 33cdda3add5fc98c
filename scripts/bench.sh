#!/usr/bin/env bash
# Runs the Google Benchmark suite of one preset and writes build/<preset>/bench.json:
# 9 repetitions per benchmark (enough for Google Benchmark's Mann-Whitney U test in
# compare.py), OpenMP threads pinned. Compare its spaces, or two backends, with
#   tools/nbk-compare build/cuda/bench.json    tools/nbk-compare build/{openmp,cuda}/bench.json --columns
# Usage: scripts/bench.sh <serial|openmp|cuda> [extra Google Benchmark flags]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/.."
source "$here/common.sh"

preset="${1:?usage: scripts/bench.sh <serial|openmp|cuda> [benchmark flags]}"; shift
case "$preset" in serial|openmp|cuda) ;; *) usage_error "unknown preset '$preset' (serial, openmp or cuda)" ;; esac
bash "$here/bootstrap.sh" "$preset"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"

export OMP_PROC_BIND="${OMP_PROC_BIND:-spread}" OMP_PLACES="${OMP_PLACES:-threads}"
"build/$preset/benchmarks/nbk_bench" \
  --benchmark_repetitions=9 --benchmark_min_time=0.1 \
  --benchmark_out="build/$preset/bench.json" --benchmark_out_format=json "$@"
log "wrote build/$preset/bench.json"
log "compare its spaces: tools/nbk-compare build/$preset/bench.json --baseline serial;" \
    "check a change: tools/nbk-compare regress OLD.json build/$preset/bench.json"
