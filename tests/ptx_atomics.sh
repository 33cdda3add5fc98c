#!/usr/bin/env bash
# CI's check of a CUDA build's integer atomics (no GPU needed: nvcc writes the PTX here).
# 1. Every nbk kernel's PTX is free of compare-and-swap, and the counter's, the histogram's
#    and pi's kernels exist with native integer adds (scripts/ptx_atomics.py).
#    add-one's PlusOne, add's and the flat mat-add's Plus, the built-in and tree sums, the flat
#    maximum, the histogram's team kernels and row sums' vector lanes load 16 bytes at once (nbk/core/packed.hpp), and
#    the built-in sum issues four such loads before it adds one (64 bytes in flight a thread), on
#    every trip of its grid-stride loop (--require-in-loop).
# 2. The check can fail: the same script rejects tests/ptx/cas_loop.cpp (a long long
#    atomic_add), compiled by this build's nvcc and Kokkos, and the double-accumulator sum's loop
#    as a loop of 16-byte loads (it reads a float at a time).
# Usage: tests/ptx_atomics.sh BUILD_DIR      (a configured build whose Kokkos has CUDA)
set -euo pipefail
build=$1
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
check="$here/../scripts/ptx_atomics.py"
[[ -d $build/lib/ptx ]] || { echo "ptx_atomics: $build/lib/ptx missing: not a CUDA build?" >&2; exit 2; }
cmake --build "$build" --target nbk_counter nbk_histogram nbk_pi nbk_add_one nbk_add nbk_sum nbk_maximum nbk_mat_add nbk_row_sum nbk_ptx_cas_loop >/dev/null
python3 "$check" "$build/lib/ptx" \
  --require nbk::counter::AtomicIncrement --require nbk::histogram::AtomicCount \
  --require nbk::histogram::ScatterCount --require nbk::histogram::TeamCount \
  --require nbk::histogram::PrivateTeamCount --require nbk::histogram::UncheckedDocumentCount \
  --require-v4 nbk::PlusOne --require-v4 nbk::add::Plus --require-v4 nbk::sum::LaunchedSum --require-v4 nbk::sum::TreePartials --require-v4 nbk::maximum --require-v4 nbk::mat_add::Plus \
  --require-v4 nbk::histogram::TeamCount --require-v4 nbk::histogram::PrivateTeamCount \
  --require-v4 nbk::row_sum::VectorRowSums \
  --require-in-flight nbk::sum::LaunchedSum=4 --require-in-loop nbk::sum::LaunchedSum=4
set +e
out=$(python3 "$check" "$build/tests/ptx/cas_loop")
rc=$?
set -e
if ((rc != 1)) || ! grep -q '^CAS .*nbk::ptx_fixture' <<<"$out"; then
  echo "$out" >&2
  echo "ptx_atomics: the check did not reject a long long atomic_add (exit $rc): it cannot fail" >&2
  exit 1
fi
echo "ptx_atomics: and it rejects a long long atomic_add: $(grep -m1 -o '\[.*\]' <<<"$out")"
set +e
out=$(python3 "$check" "$build/lib/ptx/sum" --require-in-loop nbk::sum::DoubleSum=1)
rc=$?
set -e
if ((rc != 1)) || ! grep -q "^MISSING .*nbk::sum::DoubleSum.*in a loop's body" <<<"$out"; then
  echo "$out" >&2
  echo "ptx_atomics: the loop check passed a sum that reads a float at a time (exit $rc): it cannot fail" >&2
  exit 1
fi
echo "ptx_atomics: and it rejects a loop of 4-byte loads: $(grep -m1 '^MISSING' <<<"$out")"
