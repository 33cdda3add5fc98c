#!/usr/bin/env bash
# CI's check of register_tiled's PTX (no GPU needed: nvcc writes the PTX here), issue 53.
# 1. Its main loop (scripts/ptx_matmul.py) has at least 4 fma.rn.f32 per shared load (the design:
#    16, four 16-byte loads for an 8 x 8 outer product a k), 16-byte shared loads
#    (ld.shared.v4.f32), and ptxas -v for sm_90 reports no spills (its registers are printed).
# 2. The check can fail: the document's tiled kernel (4 x 4 a thread, 4-byte loads: 2 FMAs a
#    shared load) must fail the same thresholds.
# Usage: tests/ptx_matmul.sh BUILD_DIR      (a configured build whose Kokkos has CUDA)
set -euo pipefail
build=$1
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
check="$here/../scripts/ptx_matmul.py"
[[ -d $build/lib/ptx ]] || { echo "ptx_matmul: $build/lib/ptx missing: not a CUDA build?" >&2; exit 2; }
cmake --build "$build" --target nbk_matmul >/dev/null
python3 "$check" "$build/lib/ptx/matmul" --kernel nbk::matmul::detail::RegisterTileProduct \
  --min-fma-per-load 4 --require-v4 --ptxas sm_90
set +e
out=$(python3 "$check" "$build/lib/ptx/matmul" --kernel nbk::matmul::detail::TileProduct --min-fma-per-load 4 --require-v4)
rc=$?
set -e
if ((rc != 1)) || ! grep -q 'fewer than 4 FMAs a shared load' <<<"$out"; then
  echo "$out" >&2
  echo "ptx_matmul: the check did not reject the document's tiled kernel (exit $rc): it cannot fail" >&2
  exit 1
fi
echo "ptx_matmul: and it rejects the document's tiled kernel: $(grep -m1 -o '[0-9]*[.][0-9] FMAs a shared load' <<<"$out" | head -1)"
