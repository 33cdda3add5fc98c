#!/usr/bin/env bash
# The main job: build the best backend this machine has and run every experiment on it.
#   GPU (nvidia-smi lists one, nvcc present, the cuda preset builds) -> cuda preset, which
#   also runs the CPU variants (Serial, OpenMP) side by side; otherwise -> openmp preset.
# Each run is a record of its own: a new folder build/<preset>/runs/<host>-<preset>-<rev>-<UTC
# date-time>/ (or under --runs DIR) holding run.json (machine, GPUs, revision, Kokkos, compiler,
# command, dates), every program's JSON (<experiment>.json), the NumPy reference's (numpy/), their
# text output (run.log) and a report (report/index.html). No run overwrites another. Text reports
# also go to stdout.
# The references (memory, FMA) are probed once per space and run: the first program that needs a
# space probes it and writes it into the run's probes/probes.json (--probes), which the programs after
# it read, each saying where its figures came from; a file older than 15 minutes is probed again.
# Each program's elapsed time is in run.log, and the run's, with its parts, is printed at the end.
# After the programs, the NumPy reference (tools/nbk-numpy --threads 1, issue 25): NumPy's
# expression of the same workloads on one thread, a numpy column beside serial and openmp. Without
# NumPy it says so in one line and the run goes on; a failed check fails the run as a program's
# does; any other NumPy problem is logged, never fatal. NBK_NUMPY_ARGS adds arguments to it
# (e.g. "--only sum,sin_exp"); NBK_NUMPY names another script to run in its place (the tests' stand-in).
# Compare runs, of this machine or others: tools/nbk-report RUN... --out DIR. A row above its
# ceiling fails the run (tools/nbk-check-ceilings, after the report).
# The experiments, in order, are those of experiments.txt (the list CMake builds a program
# for); each runs at the document's size. Run a program yourself for other sizes (every one has --help).
# Usage: scripts/run-experiments.sh [--preset serial|openmp|cuda] [--runs DIR] [--no-build]
#   --no-build: run the programs already built in build/<preset> (NBK_BUILD_DIR overrides the
#   folder), no bootstrap, no CMake.
# The Kokkos is the bootstrap's choice (scripts/kokkos-source.sh): Kokkos_ROOT (an install: no
# Kokkos built) or NBK_KOKKOS_SOURCE (a tarball or folder) build in build/<preset>-kokkos-<version>.
set -euo pipefail
started=$(date +%s.%N)
# Seconds since $1 (a `date +%s.%N`), with one decimal.
seconds_since() { awk -v from="$1" -v to="$(date +%s.%N)" 'BEGIN { printf "%.1f", to - from }'; }
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/.."
source "$here/common.sh"

usage="usage: scripts/run-experiments.sh [--preset serial|openmp|cuda] [--runs DIR] [--no-build]"
preset="" runs="" build=1 command="$0 $*"
while (($#)); do
  case "$1" in
    --preset|--runs)
      (($# >= 2)) || usage_error "$1 needs a value ($usage)"
      if [[ "$1" == --preset ]]; then preset="$2"; else runs="$2"; fi
      shift 2 ;;
    --no-build) build=0; shift ;;
    *) usage_error "unknown argument '$1' ($usage)" ;;
  esac
done
if [[ -z "$preset" && "$build" == 0 ]]; then
  usage_error "--no-build needs --preset ($usage)"
fi
if [[ -z "$preset" ]]; then
  preset=openmp
  if have_gpu; then
    if nbk_bootstrap cuda && nbk_configure cuda "$(nbk_build_dir cuda)" && cmake --build "$(nbk_build_dir cuda)"; then
      preset=cuda
    else
      log "a GPU is present but the cuda preset did not build; falling back to openmp"
    fi
  else
    log "no GPU found (nvidia-smi); using the openmp preset"
  fi
fi
case "$preset" in serial|openmp|cuda) ;; *) usage_error "unknown preset '$preset' (serial, openmp or cuda)" ;; esac

if ((build)); then
  nbk_bootstrap "$preset"
  build_dir="${NBK_BUILD_DIR:-$(nbk_build_dir "$preset")}"
  nbk_configure "$preset" "$build_dir"
  cmake --build "$build_dir"
fi
build_dir="${build_dir:-${NBK_BUILD_DIR:-build/$preset}}"
# Debian's python3 first: bootstrap.sh installed python3-matplotlib for it.
python="$(command -v /usr/bin/python3 || command -v python3 || true)"
[[ -n "$python" ]] || die "no python3: it writes the run's record (tools/nbk-run-record)"
run="$("$python" tools/nbk-run-record start --root "${runs:-$build_dir/runs}" --preset "$preset" \
         --build-dir "$build_dir" --command "$command")"

# Pin OpenMP threads for timing, as Kokkos advises (the user's own settings win).
export OMP_PROC_BIND="${OMP_PROC_BIND:-spread}" OMP_PLACES="${OMP_PLACES:-threads}"
status=0 statuses=()
read -ra numpy_args <<<"${NBK_NUMPY_ARGS:-}"
programs_started=$(date +%s.%N)
mkdir -p "$run/probes"  # not read by the report: a subfolder it does not list
{
  for experiment in $(cat experiments.txt); do
    program="$build_dir/apps/$experiment/nbk-${experiment//_/-}"
    echo
    echo "=== $experiment ($preset preset) ==="
    code=0 probes=() program_started=$(date +%s.%N)
    # The run's references, probed once (device_info has no rows to judge: no --probes).
    [[ $experiment == device_info ]] || probes=(--probes "$run/probes/probes.json")
    "$program" --json "$run/$experiment.json" "${probes[@]}" || { code=$?; status=$code; log "$experiment exited with $code"; }
    echo "--- $experiment: $(seconds_since "$program_started") s (exit $code)"
    statuses+=(--status "$experiment=$code")
  done
  echo
  echo "--- the programs: $(seconds_since "$programs_started") s"
  echo "=== NumPy reference (tools/nbk-numpy, 1 thread) ==="
  numpy_code=0 numpy_started=$(date +%s.%N)
  "$python" "${NBK_NUMPY:-tools/nbk-numpy}" --threads 1 --out "$run/numpy" "${numpy_args[@]}" || numpy_code=$?
  echo "--- NumPy reference: $(seconds_since "$numpy_started") s (exit $numpy_code)"
  case "$numpy_code" in
    0) ;;
    1) status=1; log "the NumPy reference failed a check (exit 1)" ;;
    *) log "the NumPy reference exited with $numpy_code (its output is above): not counted against the run" ;;
  esac
} > >(tee -a "$run/run.log") 2>&1
wait $!  # for tee to write the last lines
"$python" tools/nbk-run-record finish "$run" "${statuses[@]}" --numpy "$numpy_code" || status=$?
echo
log "this run's record: $run/ (run.json, <experiment>.json, numpy/, run.log)"
# The report: no benchmarks are run here (that is scripts/bench.sh's job), it only reads.
report_started=$(date +%s.%N)
"$python" tools/nbk-report "$run" ||
  { rc=$?; log "the report could not be written (exit $rc)"; ((status)) || status=$rc; }
# No row above its ceiling (issue 58): a row that beats it is a bug, in the row or its probe.
"$python" tools/nbk-check-ceilings "$run" ||
  { rc=$?; log "rows above their ceiling (exit $rc; listed above)"; ((status)) || status=$rc; }
elapsed="elapsed: $(seconds_since "$started") s in all; the programs, NumPy and the report $(seconds_since "$programs_started") s,"
elapsed+=" of which the report $(seconds_since "$report_started") s (each program's time is in run.log)"
log "$elapsed"
echo "[nbk] $elapsed" >>"$run/run.log"
exit "$status"
