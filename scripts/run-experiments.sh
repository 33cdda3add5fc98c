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
# Usage: scripts/run-experiments.sh [--preset serial|openmp|cuda] [--runs DIR] [--no-build] [--resume RUN]
#   --no-build: run the programs already built in build/<preset> (NBK_BUILD_DIR overrides the
#   folder), no bootstrap, no CMake.
#   --resume RUN: go on with the record RUN (of this revision and preset): run only the programs that
#   did not run or whose rows are not all there, into RUN, then NumPy if it did not run, and the report.
# Stopped by SIGINT, SIGTERM or SIGHUP, it forwards the signal to the program running (in a process
# group of its own, so a terminal's Ctrl-C reaches it once, from here), which writes its finished
# rows; no other program starts; run.json says which programs were stopped or not run, the report
# is written of what finished, and the exit code is 128 + the signal's number. A job system that
# signals every process of a job (Slurm) should signal this script alone (sbatch --signal=B:TERM@60).
# The Kokkos is the bootstrap's choice (scripts/kokkos-source.sh): Kokkos_ROOT (an install: no
# Kokkos built) or NBK_KOKKOS_SOURCE (a tarball or folder) build in build/<preset>-kokkos-<version>.
set -euo pipefail
# Microseconds now into a variable, and the seconds since such a time (one decimal), with no fork: a
# child in the script's process group dies of a terminal's Ctrl-C and, under set -e, would end the
# script with it (an assignment of a command substitution has its status).
now_us() { printf -v "$1" '%s' "${EPOCHREALTIME/[.,]/}"; }
seconds_since() {
  local now=${EPOCHREALTIME/[.,]/}
  printf -v "$1" '%d.%d' $(((now - $2) / 1000000)) $(((now - $2) / 100000 % 10))
}
now_us started
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/.."
source "$here/common.sh"

usage="usage: scripts/run-experiments.sh [--preset serial|openmp|cuda] [--runs DIR] [--no-build] [--resume RUN]"
preset="" runs="" build=1 resume="" command="$0 $*"
while (($#)); do
  case "$1" in
    --preset|--runs|--resume)
      (($# >= 2)) || usage_error "$1 needs a value ($usage)"
      case "$1" in --preset) preset="$2" ;; --runs) runs="$2" ;; *) resume="$2" ;; esac
      shift 2 ;;
    --no-build) build=0; shift ;;
    *) usage_error "unknown argument '$1' ($usage)" ;;
  esac
done
# Debian's python3 first: bootstrap.sh installed python3-matplotlib for it.
python="$(command -v /usr/bin/python3 || command -v python3 || true)"
[[ -n "$python" ]] || die "no python3: it writes the run's record (tools/nbk-run-record)"
if [[ -n "$resume" ]]; then
  [[ -z "$runs" ]] || usage_error "--resume '$resume' with --runs: the record is RUN itself ($usage)"
  [[ -f "$resume/run.json" ]] || usage_error "--resume '$resume': not a run record (no run.json there)"
  # What the record lacks: "preset P", then "program EXPERIMENT" and "numpy" lines (its error: one line).
  plan="$("$python" tools/nbk-run-record resume "$resume" --command "$command")" || exit 2
  recorded="$(sed -n 's/^preset //p' <<<"$plan")"
  [[ -z "$preset" || "$preset" == "$recorded" ]] ||
    usage_error "--preset '$preset': the record '$resume' is of preset $recorded"
  preset="$recorded"
fi
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
if [[ -n "$resume" ]]; then
  run="$resume" numpy_wanted=0
  mapfile -t experiments < <(sed -n 's/^program //p' <<<"$plan")
  grep -qx numpy <<<"$plan" && numpy_wanted=1
  log "resuming $run: ${#experiments[@]} program(s) to run${experiments:+ (${experiments[*]})}$( ((numpy_wanted)) && echo ", then NumPy")"
else
  run="$("$python" tools/nbk-run-record start --root "${runs:-$build_dir/runs}" --preset "$preset" \
           --build-dir "$build_dir" --command "$command")"
  read -r -d "" -a experiments < experiments.txt || true  # one name a line
  numpy_wanted=1
fi

# A signal stops the job (see the head): forwarded to the program running, and no program starts
# after it. The record and the report are written then, shielded from it; a second signal while
# they are ends the job at once (what they had written is whole: record.written_whole).
stop="" stop_number=0 child="" shielded=0
on_signal() {  # the signal's name and number (no `kill -l` here: a fork, see now_us)
  if [[ -n "$stop" ]] && ((shielded)); then log "a second signal (SIG$1): ending now"; exit $((128 + $2)); fi
  [[ -n "$stop" ]] || { log "stopped by SIG$1: the program running writes what it finished; no other starts"; stop_number=$2; }
  stop="${stop:-$1}"
  ((shielded)) || [[ -z "$child" ]] || kill -s "$1" "$child" 2>/dev/null || true
}
for signal in INT TERM HUP; do trap "on_signal $signal $(kill -l "$signal")" "$signal"; done
# A nap that forks nothing and that a trapped signal cuts short: a timed read of a fifo no one writes.
nap_fifo=$(mktemp -u) && mkfifo "$nap_fifo" && exec {nap}<>"$nap_fifo" && rm -f "$nap_fifo"
# Runs a step in a process group of its own and polls it through the signals trapped meanwhile;
# returns the step's exit code. Polled, not waited for: bash 5.2's `wait`, interrupted by a trapped
# signal as the child exits, can lose the child and block for ever on any other (the log's tee).
# Bash reaps the child as it exits and keeps its status for the `wait` that follows.
step() {
  local code=0
  set -m
  "$@" &
  child=$!
  set +m
  while kill -0 "$child" 2>/dev/null; do read -r -t 0.02 -u "$nap" _ || true; done
  wait "$child" || code=$?
  child=""
  return "$code"
}

# Pin OpenMP threads for timing, as Kokkos advises (the user's own settings win).
export OMP_PROC_BIND="${OMP_PROC_BIND:-spread}" OMP_PLACES="${OMP_PLACES:-threads}"
status=0 statuses=() numpy_record=()
read -ra numpy_args <<<"${NBK_NUMPY_ARGS:-}"
now_us programs_started
mkdir -p "$run/probes"  # not read by the report: a subfolder it does not list
# The log: tee ignores the signals, so the lines a stopped program prints after one are kept.
exec {log}> >(trap '' INT TERM HUP; exec tee -a "$run/run.log")
tee_pid=$!
{
  for experiment in "${experiments[@]}"; do
    [[ -z "$stop" ]] || break
    program="$build_dir/apps/$experiment/nbk-${experiment//_/-}"
    echo
    echo "=== $experiment ($preset preset) ==="
    code=0 probes=()
    now_us program_started
    # The run's references, probed once (device_info has no rows to judge: no --probes).
    [[ $experiment == device_info ]] || probes=(--probes "$run/probes/probes.json")
    step "$program" --json "$run/$experiment.json" "${probes[@]}" || {
      code=$?; status=$code
      if [[ -n "$stop" ]]; then log "$experiment stopped (exit $code)"; else log "$experiment exited with $code"; fi
    }
    seconds_since took "$program_started"
    echo "--- $experiment: $took s (exit $code)"
    statuses+=(--status "$experiment=$code")
  done
  echo
  seconds_since took "$programs_started"
  echo "--- the programs: $took s"
  if [[ -z "$stop" ]] && ((numpy_wanted)); then
    echo "=== NumPy reference (tools/nbk-numpy, 1 thread) ==="
    numpy_code=0
    now_us numpy_started
    step "$python" "${NBK_NUMPY:-tools/nbk-numpy}" --threads 1 --out "$run/numpy" "${numpy_args[@]}" || numpy_code=$?
    seconds_since took "$numpy_started"
    echo "--- NumPy reference: $took s (exit $numpy_code)"
    numpy_record=(--numpy "$numpy_code")
    case "$numpy_code" in
      0) ;;
      1) status=1; log "the NumPy reference failed a check (exit 1)" ;;
      *) log "the NumPy reference exited with $numpy_code (its output is above): not counted against the run" ;;
    esac
  fi
} >&"$log" 2>&1
exec {log}>&-
wait "$tee_pid"  # for tee to write the last lines
stopped=()
[[ -z "$stop" ]] || stopped=(--signal "SIG$stop")
shielded=1
step "$python" tools/nbk-run-record finish "$run" "${statuses[@]}" "${numpy_record[@]}" "${stopped[@]}" || status=$?
echo
log "this run's record: $run/ (run.json, <experiment>.json, numpy/, run.log)"
# The report: no benchmarks are run here (that is scripts/bench.sh's job), it only reads.
now_us report_started
step "$python" tools/nbk-report "$run" ||
  { rc=$?; log "the report could not be written (exit $rc)"; ((status)) || status=$rc; }
# No row above its ceiling (issue 58): a row that beats it is a bug, in the row or its probe.
"$python" tools/nbk-check-ceilings "$run" ||
  { rc=$?; log "rows above their ceiling (exit $rc; listed above)"; ((status)) || status=$rc; }
seconds_since all "$started"
seconds_since programs "$programs_started"
seconds_since report "$report_started"
elapsed="elapsed: $all s in all; the programs, NumPy and the report $programs s,"
elapsed+=" of which the report $report s (each program's time is in run.log)"
log "$elapsed"
echo "[nbk] $elapsed" >>"$run/run.log"
if [[ -n "$stop" ]]; then
  if ((${#stopped[@]})); then
    log "stopped by SIG$stop: $run/run.json names the programs stopped and not run; go on with" \
        "scripts/run-experiments.sh --resume $run"
  else  # the signal came after the last step had run: nothing is missing
    log "SIG$stop came after the last program: the record is complete"
  fi
  exit $((128 + stop_number))
fi
exit "$status"
