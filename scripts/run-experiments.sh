#!/usr/bin/env bash
# The main job: build the best backend this machine has and run every experiment on it.
#   GPU (nvidia-smi lists one, nvcc present, the cuda preset builds) -> cuda preset, which
#   also runs the CPU variants (Serial, OpenMP) side by side; otherwise -> openmp preset.
# Text reports go to stdout; JSON to build/<preset>/results/<experiment>.json; a report of
# those (and of build/<preset>/bench.json if scripts/bench.sh wrote one) to
# build/<preset>/report/index.md.
# The experiments, in order, are those of experiments.txt (the list CMake builds a program
# for); each runs at the document's size. Run a program yourself for other sizes (every one has --help).
# Usage: scripts/run-experiments.sh [--preset serial|openmp|cuda]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/.."
source "$here/common.sh"

preset=""
case "${1:-}" in
  "") ;;
  --preset) preset="${2:?--preset needs a name}" ;;
  *) usage_error "unknown argument '$1' (usage: scripts/run-experiments.sh [--preset serial|openmp|cuda])" ;;
esac
if [[ -z "$preset" ]]; then
  preset=openmp
  if have_gpu; then
    if bash "$here/bootstrap.sh" cuda && cmake --preset cuda >/dev/null && cmake --build --preset cuda; then
      preset=cuda
    else
      log "a GPU is present but the cuda preset did not build; falling back to openmp"
    fi
  else
    log "no GPU found (nvidia-smi); using the openmp preset"
  fi
fi
case "$preset" in serial|openmp|cuda) ;; *) usage_error "unknown preset '$preset' (serial, openmp or cuda)" ;; esac

bash "$here/bootstrap.sh" "$preset"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"

# Pin OpenMP threads for timing, as Kokkos advises (the user's own settings win).
export OMP_PROC_BIND="${OMP_PROC_BIND:-spread}" OMP_PLACES="${OMP_PLACES:-threads}"
results="build/$preset/results"
mkdir -p "$results"
status=0
for experiment in $(cat experiments.txt); do
  program="build/$preset/apps/$experiment/nbk-${experiment//_/-}"
  echo
  echo "=== $experiment ($preset preset) ==="
  "$program" --json "$results/$experiment.json" || { status=$?; log "$experiment exited with $status"; }
done
echo
log "JSON results in $results/"
# The report: no benchmarks are run here (that is scripts/bench.sh's job), it only reads.
# Debian's python3 first: bootstrap.sh installed python3-matplotlib for it.
python="$(command -v /usr/bin/python3 || command -v python3 || true)"
if [[ -n "$python" ]]; then
  "$python" tools/nbk-report --preset-dir "build/$preset" ||
    { rc=$?; log "the report could not be written (exit $rc)"; ((status)) || status=$rc; }
else
  log "no python3: no report (tools/nbk-report)"
fi
exit "$status"
