#!/usr/bin/env bash
# The test command: installs what it needs, then configures, builds and tests the openmp
# (Serial and OpenMP: every test), debug (Serial only, the build without OpenMP: ASan + UBSan +
# Kokkos bounds checks) and mpi (the ranks-* variants under mpiexec -n 1 and -n 2, Open MPI from
# Debian) presets. On a machine with a GPU the cuda preset's tests run too. The serial preset
# runs on request: its tests are the openmp preset's Serial tests (docs/ci.md). A preset builds
# what its tests need: its build preset's targets where it names some (mpi), else everything.
# NBK_CCACHE=1: compile through ccache (CI; cmake/Ccache.cmake). NBK_CXX_STANDARD=20: Kokkos and the
# project in C++20 (scripts/bootstrap.sh), in build/<preset>[-kokkos-<version>]-c++20.
# NBK_CTEST_ARGS: more ctest arguments for every preset (CI's second Kokkos: -LE once). The Kokkos is the bootstrap's choice (scripts/kokkos-source.sh): with
# Kokkos_ROOT or NBK_KOKKOS_SOURCE set, each preset builds in build/<preset>-kokkos-<version>.
# Usage: scripts/run-tests.sh [preset ...]     (default: openmp debug mpi [cuda])
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/.."
source "$here/common.sh"

presets=("$@")
if ((${#presets[@]} == 0)); then
  presets=(openmp debug mpi)
  have_gpu && presets+=(cuda)
fi
nbk_bootstrap "${presets[@]}"

passed=0 failed=0
for preset in "${presets[@]}"; do
  log "preset $preset: configure, build, test"
  started=$SECONDS
  dir=$(nbk_build_dir "$preset")
  nbk_configure "$preset" "$dir"
  # What the preset's tests need (its build preset's targets: the mpi preset builds three), else all.
  mapfile -t targets < <(nbk_preset_targets "$preset")
  cmake --build "$dir" ${targets[@]+--target "${targets[@]}"}
  built=$SECONDS
  log_file="$dir/ctest.log"
  set +e
  # shellcheck disable=SC2086  # NBK_CTEST_ARGS is a list of arguments
  ctest --preset "$preset" --test-dir "$dir" ${NBK_CTEST_ARGS:-} 2>&1 | tee "$log_file"
  rc=${PIPESTATUS[0]}
  set -e
  log "preset $preset: configure and build $((built - started)) s, tests $((SECONDS - built)) s"
  summary=$(grep -E "tests passed, [0-9]+ tests failed out of [0-9]+" "$log_file" | tail -1)
  total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$summary")
  bad=$(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<<"$summary")
  if [[ -z "$summary" ]]; then total=0; bad=1; fi
  passed=$((passed + total - bad))
  failed=$((failed + bad))
  ((rc == 0)) || log "preset $preset: ctest exited with $rc"
done
# (build/test-summary.txt; with a Kokkos the user named, build/test-summary-kokkos-<version>.txt)
summary_file=build/test-summary.txt
if [[ -n "${Kokkos_ROOT:-}${NBK_KOKKOS_SOURCE:-}" ]]; then
  summary_file="build/test-summary-kokkos-${NBK_KOKKOS_VERSION[$(nbk_flavour "${presets[0]}")]}$(nbk_standard_suffix).txt"
elif [[ -n $(nbk_standard_suffix) ]]; then
  summary_file="build/test-summary$(nbk_standard_suffix).txt"
fi
echo "tests: $passed passed, $failed failed (Kokkos ${NBK_KOKKOS_VERSION[$(nbk_flavour "${presets[0]}")]})" | tee "$summary_file"
((failed == 0))
