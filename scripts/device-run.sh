#!/usr/bin/env bash
# Runs the packed cuda build on a GPU machine (see scripts/pack-device.sh).
# Usage: bash .device/run.sh [smoke] [info] [tests] [apps] [bench] [profile] [sanitize] [mpi] [parity] [report]
#        (default: info tests apps bench report; mpi needs scripts/pack-device.sh --mpi)
#        smoke first on a fresh machine: the GPU tests, the sanitizer's verdicts and every program
#        once at a small size, in under 3 minutes on an H100: whether the build is sound.
#        parity: every program's CPU rows (Serial, OpenMP) from the CUDA build and from the host-only
#        build packed beside it (host/bin), one after the other, and their ratio per row (parity.txt).
# Environment:
#   APPS="matmul histogram"   experiments for the apps step (default: every line of experiments.txt)
#   APP_ARGS="--repetitions 3"  extra arguments for every program of the apps step
#   ALL_ROWS=1                the apps step's Serial rows of pi and matmul too (left out by default: below)
#   BENCH_FILTER='^matmul/'   --benchmark_filter for the bench step (default: every benchmark)
#   REPS=3                    --benchmark_repetitions
#   TESTS_FILTER='*/cuda.*'   --gtest_filter for the tests step (default: every test)
#   PROFILE_APPS="maximum"    experiments for the profile step (default: the memory-bound ones)
#   PROFILE_SPACE=cuda        the space the profile step runs (tests/device_run.sh: a host space)
#   PARITY_APPS="add sum"     experiments for the parity step (default: every line of experiments.txt)
#   PARITY_ARGS="--budget 1"  extra arguments for both builds' programs in the parity step
#   MPI_ARGS="--size 2^31"    arguments of the mpi step's two-rank runs (default: add-one 2^28, sum at
#                             its document's 2^27 - 157, 3 repetitions, probes of 2^24: the step in 2 minutes)
#
# Results (log.txt, run.json, device_info.json, tests.json, <experiment>.json and .txt, bench.json,
# ncu-*.txt, sanitizer-*.txt, parity.txt and parity/, report/) are written to .device/out/ and, when
# $OUT is set (the workplace's device tool), packed into $OUT/results.tar.gz with log.txt (and
# parity.txt, when the step ran) beside it: that tool
# brings back at most 8 files from $OUT, and one run writes more than 20. The pack is made
# again after every program and every step, and on exit, so a call that a time limit kills
# (SIGKILL included) keeps everything that finished before it. Each call packs only its own
# results, so a session that runs the steps in several calls keeps each call's tarball.
# A call stopped by SIGTERM, SIGINT or SIGHUP (a time limit that warns before it kills) forwards
# the signal to the command running, once (a process group of its own: run_into): a program then
# ends its row in flight and writes its finished rows and what it did not run (docs/experiments.md);
# no command or step starts after it, the log says which step and command it stopped and which
# steps did not run, and the results are packed; exit 128 + the signal's number.
set -u
started=$(date +%s.%N)
# Seconds since $1 (a `date +%s.%N`), with one decimal.
seconds_since() { awk -v from="$1" -v to="$(date +%s.%N)" 'BEGIN { printf "%.1f", to - from }'; }
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$here/out"
rm -rf "$work" && mkdir -p "$work"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# cuBLAS is not in the pack (pack-device.sh): the machine's CUDA 13 toolkit, or the Python
# wheel nvidia-cublas, has it.
cublas_wheel=$(python3 -c 'import nvidia.cublas as m; print(list(m.__path__)[0] + "/lib")' 2>/dev/null)
for dir in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib "$cublas_wheel"; do
  [[ -n $dir && -d $dir ]] && LD_LIBRARY_PATH+=":$dir"
done
steps=("$@"); ((${#steps[@]})) || steps=(info tests apps bench report)
# Every step named is checked before any runs: device time is scarce.
for step in "${steps[@]}"; do
  case "$step" in
    smoke|info|tests|apps|bench|profile|sanitize|mpi|parity|report) ;;
    *) echo "device-run: unknown step '$step' (smoke, info, tests, apps, bench, profile, sanitize, mpi, parity, report)" >&2; exit 2 ;;
  esac
done
# pack-device.sh ships the binaries as one tarball (see there): unpacked here, beside this script.
if [[ -f $here/payload.tar.gz ]]; then
  tar -xzf "$here/payload.tar.gz" -C "$here" || { echo "device-run: cannot unpack $here/payload.tar.gz" >&2; exit 1; }
fi
status=0 stop="" child="" current=""
note() { echo "== $*" | tee -a "$work/log.txt"; }
run() { run_into /dev/null "$@"; }
# A nap that forks nothing and that a trapped signal cuts short: a timed read of a fifo no one writes.
nap_fifo=$(mktemp -u) && mkfifo "$nap_fifo" && exec {nap}<>"$nap_fifo" && rm -f "$nap_fifo"
# run, its output also into FILE (a program's own text beside its JSON). The command runs in a
# process group of its own, polled through the signals trapped meanwhile (on_stop forwards them
# to it; scripts/run-experiments.sh's step says why it is not waited for), and its output goes
# through a tee that ignores them, so a stopped program's last lines (its table of the finished
# rows) are kept.
run_into() {
  local file=$1 rc=0 out tee_pid; shift
  exec {out}> >(trap '' INT TERM HUP; exec tee -a "$work/log.txt" "$file")
  tee_pid=$!
  set -m
  "$@" >&"$out" 2>&1 &
  child=$! current=$(basename "$1")
  set +m
  exec {out}>&-
  while kill -0 "$child" 2>/dev/null; do read -r -t 0.02 -u "$nap" _ || true; done
  wait "$child" || rc=$?
  wait "$tee_pid" 2>/dev/null || true
  child="" current=""
  ((rc == 0)) && return 0
  status=$rc
  if [[ -n $stop ]]; then note "stopped (exit $rc): $*"; else note "exit $rc: $*"; fi
}
# $OUT/results.tar.gz as $work stands now: written beside and renamed, so that a kill during
# the tar leaves the previous pack whole.
pack() {
  [[ -n "${OUT:-}" ]] || return 0
  cp "$work/log.txt" "$OUT/log.txt" 2>/dev/null
  [[ ! -f $work/parity.txt ]] || cp "$work/parity.txt" "$OUT/parity.txt"
  tar -czf "$OUT/.results.tar.gz" -C "$work" . && mv -f "$OUT/.results.tar.gz" "$OUT/results.tar.gz"
}
trap 'pack' EXIT
# A signal (see the head): forwarded to the command running; a second one ends the call at once.
on_stop() {
  if [[ -n $stop ]]; then note "a second signal (SIG$1): ending now"; exit $((128 + $(kill -l "$1"))); fi
  stop=$1
  note "stopped by SIG$1 in step ${step:-none}${current:+ while $current ran}: it writes what it finished;" \
       "no command starts after it"
  [[ -z $child ]] || kill -s "$1" -- "-$child" 2>/dev/null || true
}
for signal in INT TERM HUP; do trap "on_stop $signal" "$signal"; done
touch "$work/log.txt"

# The run's record, run.json (tools/nbk-run-record, as scripts/run-experiments.sh writes one): this
# machine's CPU, core count and GPUs now, the revision, preset, compiler and Kokkos from the pack's
# built.json (this machine has no checkout), and, after each step, the programs' Kokkos and threads.
python=$(command -v python3 || true)
record() {
  [[ -n $python && -f $here/tools/nbk-run-record ]] || return 0
  "$python" "$here/tools/nbk-run-record" "$@" >/dev/null || note "run.json: nbk-run-record $1 failed"
}
if [[ -n $python && -f $here/tools/nbk-run-record ]]; then
  built=(); [[ ! -f $here/built.json ]] || built=(--built "$here/built.json")
  record start --into "$work" --preset cuda "${built[@]}" --command "bash .device/run.sh ${steps[*]}"
else
  note "no run.json: no python3 or no $here/tools (pack-device.sh copies it)"
fi

# Open MPI's launcher from .device/mpi (pack-device.sh --mpi), relocated there, local ranks
# only: shared memory between them (no network stack is probed), root allowed, and ranks
# beyond the cores allowed. PMIx looks for its plugins in the folder it was built for (/usr/lib/
# x86_64-linux-gnu/pmix2/lib/pmix, its pkglibdir) whatever PMIX_INSTALL_PREFIX says: on a machine
# with a PMIx of its own there, orterun and every rank loaded that one's zlib plugin and printed
# "dlopen error" lines (H100 runs of 33739fb and fbf7cc7). A component path only adds a folder to
# that search; PMIX_PKGLIBDIR moves the folder itself, in orterun and in the ranks, which inherit
# it (tests/pmix_namespace.sh shows both, with a foreign plugin mounted at the system's path).
mpirun_packed() {
  local m="$here/mpi" pmix="$here/mpi/openmpi/lib/x86_64-linux-gnu/pmix2"
  env OPAL_PREFIX="$m/openmpi" PMIX_INSTALL_PREFIX="$pmix" PMIX_PKGLIBDIR="$pmix/lib/pmix" \
      PMIX_MCA_mca_base_component_path="$pmix/lib/pmix" \
      LD_LIBRARY_PATH="$m/lib:$LD_LIBRARY_PATH" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none \
      "$m/openmpi/bin/orterun" -q --oversubscribe "$@"
}

# compute-sanitizer's verdict on one command: its full output to $work/sanitizer-<name>.txt,
# and a line in the log. `expect` is "errors" (the command must make memcheck report) or
# "clean" (0 errors). memcheck pads every allocation with 4 KiB that belong to none: the injected
# histogram write lands up to ~800 bytes below its counts, which without the padding is memory
# another allocation owns, where memcheck sees nothing wrong (H100 run of fbf7cc7: 0 errors).
sanitize() {
  local name=$1 expect=$2 tool=$3; shift 3
  local file="$work/sanitizer-$name.txt" padding=()
  [[ $tool == memcheck ]] && padding=(--padding 4096)
  "$sanitizer" --tool "$tool" "${padding[@]}" --print-limit 20 "$@" >"$file" 2>&1
  local summary; summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$file" | tail -1)
  # memcheck: "ERROR SUMMARY: 0 errors"; racecheck: "RACECHECK SUMMARY: 499 hazards displayed
  # (0 errors, 499 warnings)", whose warnings (inside Kokkos' own reductions) are not errors.
  local errors; errors=$(grep -oE '[0-9]+ errors?' <<<"$summary" | head -1 | cut -d' ' -f1)
  if [[ -z "$errors" ]]; then
    status=1; note "sanitize $name ($tool): no summary from compute-sanitizer (see $(basename "$file"))"
  elif [[ $expect == errors && $errors -eq 0 ]] || [[ $expect == clean && $errors -ne 0 ]]; then
    status=1; note "sanitize $name ($tool): expected $expect, got: $summary"
  else
    note "sanitize $name ($tool): $summary (expected $expect)"
  fi
}

for step in "${steps[@]}"; do
  [[ -z $stop ]] || { note "not run (stopped): step $step"; continue; }
  step_started=$(date +%s.%N)
  case "$step" in
    info)  note "device info"; nvidia-smi -L 2>&1 | tee -a "$work/log.txt"
           # A library the pack leaves to the machine (cuBLAS) and the machine lacks: said at once.
           missing=$(ldd "$here"/bin/* 2>/dev/null | grep "not found" | sort -u)
           [[ -z $missing ]] || { note "libraries not found (LD_LIBRARY_PATH=$LD_LIBRARY_PATH):"; echo "$missing" | tee -a "$work/log.txt"; status=1; }
           run "$here/bin/nbk-device-info" --json "$work/device_info.json" ;;
    tests) note "tests"; OMP_PROC_BIND=false run "$here/bin/nbk_tests" --gtest_output="json:$work/tests.json" \
               --gtest_brief=1 --gtest_filter="${TESTS_FILTER:-*}" ;;
    apps)  export OMP_PROC_BIND=spread OMP_PLACES=threads
           # The documents' sizes, in under 6 of the device tool's 10 minutes: on a GPU machine the
           # Serial rows of pi (2^30 points from Kokkos' pools on one core, ~20 s) and of matmul
           # (the naive product on one core, ~15 s) are left out. One host thread's rows stay (pi's
           # mt19937, matmul's OpenBLAS: the documents' references), and so do OpenMP's and CUDA's;
           # on a CPU build nothing is left out (scripts/run-experiments.sh).
           declare -A rows=([pi]="--space host --space openmp --space cuda" [matmul]="--space host --space openmp --space cuda")
           # Each space's references are probed once for the step: the first program that needs a
           # space writes it into probes.json, the programs after it read it (--probes; 15 minutes).
           apps_started=$(date +%s.%N)
           mkdir -p "$work/probes"  # a subfolder, which the report step does not read as results
           for app in ${APPS:-$(grep -v '^device_info$' "$here/experiments.txt")}; do
             [[ -z $stop ]] || { note "not run (stopped): $app"; continue; }
             note "$app"
             only=${rows[$app]:-}; [[ -z ${ALL_ROWS:-} ]] || only=""
             probes=(--probes "$work/probes/probes.json"); [[ $app != device_info ]] || probes=()
             app_started=$(date +%s.%N)
             # shellcheck disable=SC2086  # APP_ARGS and the rows are lists of arguments
             run_into "$work/$app.txt" "$here/bin/nbk-${app//_/-}" --json "$work/$app.json" "${probes[@]}" $only ${APP_ARGS:-}
             note "$app: $(seconds_since "$app_started") s"
             pack
           done
           note "apps: $(seconds_since "$apps_started") s" ;;
    bench) export OMP_PROC_BIND=spread OMP_PLACES=threads
           note "benchmarks"
           run "$here/bin/nbk_bench" --benchmark_repetitions="${REPS:-3}" --benchmark_min_time=0.1 \
               --benchmark_filter="${BENCH_FILTER:-.}" --benchmark_out="$work/bench.json" --benchmark_out_format=json ;;
    profile)
           # Nsight Compute on the memory-bound kernels, the evidence a row below memcpy needs: DRAM
           # throughput, the launch's shape and sectors per load request (4 is a coalesced warp's
           # 128 bytes; 32 is a lane a sector). One run of each variant on cuda, at the documents'
           # sizes (add-one's 2^28 instead of 2^31: the same per-byte figures, a 16th of the replays).
           # The programs probe their references before their kernels, and those probes took every one
           # of the 60 launches (H200 run of ede4246): here the references are probed once, outside
           # ncu, into a probe file that the profiled runs read (--probes), so no probe kernel runs
           # under ncu; a program whose profile holds no kernel of its own is named as not reached.
           ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
           if [[ ! -x $ncu ]]; then note "profile skipped: no ncu"; status=1; continue; fi
           space=${PROFILE_SPACE:-cuda} probe_file="$work/probes/profile.json"
           mkdir -p "$work/probes"
           metrics=dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,launch__block_size
           metrics+=,launch__grid_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
           metrics+=,l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio
           declare -A sizes=([maximum]="256x256x256 --no-sweep" [mat_add]=4096x4096 [row_sum]=16384x4096
                             [add_one]=2^28 [sum]=134217571 [product]=2^27
                             [histogram]="10000000 --variant atomic-100 --variant scatter-100 --variant team-100 --variant private-100")
           for app in ${PROFILE_APPS:-maximum mat_add row_sum add_one sum histogram product}; do
             [[ -z $stop ]] || break
             program="$here/bin/nbk-${app//_/-}"
             # A probe file stands for 15 minutes (the programs' rule): made again after 10.
             if [[ ! -s $probe_file || -n $(find "$probe_file" -mmin +10) ]]; then
               rm -f "$probe_file"; size=16; [[ $app == pi ]] && size=16x16
               note "profile: the references of $space into probes/profile.json ($app at $size, not profiled)"
               run "$program" --space "$space" --size "$size" --repetitions 1 --probe-size 4096 --probes "$probe_file"
             fi
             note "profile $app"
             # shellcheck disable=SC2086  # a size and its options
             run_into "$work/ncu-$app.txt" "$ncu" --metrics "$metrics" --kernel-name-base demangled \
                 --kernel-name "regex:nbk::" --launch-count 60 "$program" --space "$space" \
                 --repetitions 1 --probe-size 4096 --probes "$probe_file" ${sizes[$app]:+--size ${sizes[$app]}}
             # ncu names each launch it profiles: '==PROF== Profiling "<kernel>" - <n>: ...'.
             profiled=$(grep -c '^==PROF== Profiling "' "$work/ncu-$app.txt" || true)
             probe_launches=$(grep '^==PROF== Profiling "' "$work/ncu-$app.txt" | grep -cE 'StreamProbe|fma_chains|nbk::probe' || true)
             if ((profiled - probe_launches > 0)); then
               note "profile $app: $((profiled - probe_launches)) launches of its kernels profiled ($probe_launches of probes)"
             else
               note "profile $app: no kernel of $app reached ($profiled launches profiled, $probe_launches of them probes)"
               status=1
             fi
             pack
           done ;;
    smoke) # One short call that says whether the build is sound: the GPU tests, the sanitizer's
           # two verdicts on the injected histogram write, and every program once at a small size.
           note "smoke: GPU tests"
           OMP_PROC_BIND=false run "$here/bin/nbk_tests" --gtest_output="json:$work/tests.json" --gtest_brief=1 \
               --gtest_filter='*/cuda.*:*Cuda*'
           sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
           if [[ -x $sanitizer ]]; then
             histogram=("$here/bin/nbk-histogram" --space cuda --size 100000 --repetitions 1 --probe-size 4096)
             sanitize histogram-injected errors memcheck "${histogram[@]}" --inject-bug
             sanitize histogram clean memcheck "${histogram[@]}"
           else
             note "smoke: no compute-sanitizer"; status=1
           fi
           for app in $(grep -v '^device_info$' "$here/experiments.txt"); do
             [[ -z $stop ]] || break
             size=16; [[ $app == pi ]] && size=16x16
             note "smoke: $app at $size"
             sweep=(); "$here/bin/nbk-${app//_/-}" --help 2>/dev/null | grep -q -- --no-sweep && sweep=(--no-sweep)
             run "$here/bin/nbk-${app//_/-}" --size "$size" --repetitions 1 --probe-size 4096 "${sweep[@]}"
           done ;;
    sanitize)
           # Seed 003's cuda-memcheck section: memcheck must find the injected out-of-range
           # write and nothing in the same program without it; then memcheck and racecheck over
           # the kernels that share scratch memory or use atomics, each program once at a small
           # size (racecheck replays every shared-memory access: the GPU tests took over a minute
           # under it on an H100, these take seconds).
           sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
           if [[ ! -x $sanitizer ]]; then note "sanitize skipped: no compute-sanitizer"; status=1; continue; fi
           note "compute-sanitizer ($sanitizer)"
           histogram=("$here/bin/nbk-histogram" --space cuda --size 100000 --repetitions 1 --probe-size 4096)
           sanitize histogram-injected errors memcheck "${histogram[@]}" --inject-bug
           sanitize histogram clean memcheck "${histogram[@]}"
           small=(--space cuda --repetitions 1 --probe-size 4096)
           declare -A shared=([histogram]="--size 100003" [sum]="--size 100003" [row_sum]="--size 257x1029"
                              [matmul]="--size 129" [pi]="--size 1024x64" [counter]="--size 10007")
           for app in histogram sum row_sum matmul pi counter; do
             [[ -z $stop ]] || break
             for tool in memcheck racecheck; do
               # shellcheck disable=SC2086  # a size and its option
               sanitize "$app-$tool" clean "$tool" "$here/bin/nbk-${app//_/-}" "${small[@]}" ${shared[$app]}
             done
           done ;;
    mpi)   # Issue "two devices and beyond": add-one and sum split across two ranks that share
           # this machine's GPU (correct, not faster: they take turns), then as one rank, then
           # bad input, which every rank must answer with exit 2.
           if [[ ! -x $here/mpi/bin/nbk-add-one ]]; then
             note "mpi skipped: pack with scripts/pack-device.sh --mpi"; status=1; continue
           fi
           export OMP_PROC_BIND=false OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
           for ranks in 2 1; do
             [[ -z $stop ]] || break
             for app in add_one sum; do
               # shellcheck disable=SC2206  # MPI_ARGS is a list of arguments
               args=(${MPI_ARGS:---repetitions 3 --probe-size 2^24}); [[ -z ${MPI_ARGS:-} && $app == add_one ]] && args+=(--size 2^28)
               ((ranks == 1)) && args=(--size 1000003 --repetitions 3 --probe-size 2^24)
               note "mpi: $app on $ranks rank(s)"
               run mpirun_packed -n "$ranks" "$here/mpi/bin/nbk-${app//_/-}" \
                   --json "$work/mpi-n$ranks-$app.json" "${args[@]}"
             done
           done
           noise=$(grep -cE "dlopen error|usable compression library" "$work/log.txt")
           ((noise == 0)) || { status=1; note "mpi: $noise 'dlopen error' lines from PMIx (its plugins: run.sh's mpirun_packed)"; }
           note "mpi: bad input on 2 ranks (expect exit 2)"
           mpirun_packed -n 2 "$here/mpi/bin/nbk-add-one" --size -5 2>&1 | tee -a "$work/log.txt"
           rc=${PIPESTATUS[0]}; ((rc == 2)) || { status=1; note "mpi: bad input gave exit $rc, not 2"; } ;;
    parity)
           # Issue 48: the CUDA build's CPU rows against the host-only build's on this host. Each
           # program runs its Serial and OpenMP rows from the CUDA build, then at once from the
           # host-only build (pack-device.sh builds it for x86-64-v3, as the CUDA build's host code),
           # at sizes that keep the step under two minutes on 16 cores: the documents' sizes where a
           # row takes milliseconds, smaller where one Serial call would take seconds (add-one 2^26,
           # not 2^31; sum 2^25 - 157; pi the document's 1536x10000 points, not the GPU's 2^30; matmul
           # 256^3), 5 timed calls, the sweeps left out, in two rounds in the order cuda, host, host,
           # cuda (a disturbance of one process, such as the last program's exit on a shared core,
           # falls on both builds alike): 37.6 s for one round of 3 calls on the H200 host. Both builds
           # read one probe file (references of 2^20 elements: the ratio is of times, not of
           # fractions). parity.txt: one line per row, each build's best of both rounds, their ratio.
           if [[ ! -d $here/host/bin ]]; then
             note "parity skipped: no host-only build in $here/host/bin (scripts/pack-device.sh packs one)"; status=1; continue
           fi
           export OMP_PROC_BIND=spread OMP_PLACES=threads
           mkdir -p "$work/parity"  # a subfolder: the report reads the apps step's JSON, not these
           declare -A parity_sizes=([add_one]=2^26 [sum]=33554275 [pi]=1536x10000 [matmul]=256)
           for app in ${PARITY_APPS:-$(grep -v '^device_info$' "$here/experiments.txt")}; do
             [[ -z $stop ]] || break
             name="nbk-${app//_/-}"
             [[ -x $here/host/bin/$name ]] || { note "parity $app: no host-only $name"; status=1; continue; }
             args=(--space serial --space openmp --repetitions 5 --probe-size 2^20
                   --probes "$work/parity/probes.json")
             [[ -z ${parity_sizes[$app]:-} ]] || args+=(--size "${parity_sizes[$app]}")
             "$here/bin/$name" --help 2>/dev/null | grep -q -- --no-sweep && args+=(--no-sweep)
             app_started=$(date +%s.%N)
             for build in cuda host host2 cuda2; do
               [[ -z $stop ]] || break
               bin="$here/bin"; [[ $build == cuda* ]] || bin="$here/host/bin"
               note "parity $app: $build build"
               # shellcheck disable=SC2086  # PARITY_ARGS is a list of arguments
               run_into "$work/parity/$build-$app.txt" "$bin/$name" --json "$work/parity/$build-$app.json" \
                   "${args[@]}" ${PARITY_ARGS:-}
             done
             note "parity $app: $(seconds_since "$app_started") s"
             pack
           done
           if [[ -n $python && -f $here/parity.py ]]; then
             "$python" "$here/parity.py" "$work/parity" >"$work/parity.txt" || status=1
             tee -a "$work/log.txt" <"$work/parity.txt"
           else
             note "parity: no python3 or no $here/parity.py for the table (the JSON is in parity/)"; status=1
           fi ;;
    report) if command -v python3 >/dev/null && [[ -f "$here/tools/nbk-report" ]]; then
              note "report"; run python3 "$here/tools/nbk-report" --results "$work" --out "$work/report"
            else
              note "report skipped: no python3 or no $here/tools (pack-device.sh copies it)"
            fi ;;
  esac
  note "$step: $(seconds_since "$step_started") s"
  record finish "$work"
  pack
done

note "elapsed: $(seconds_since "$started") s (steps: ${steps[*]})"
[[ -z $stop ]] || note "stopped by SIG$stop: what finished is packed; the step it stopped and those after it did not finish"
if [[ -n "${OUT:-}" ]]; then
  note "packing $(ls "$work" | wc -l) results into \$OUT/results.tar.gz (exit $status)"
  pack || status=1
fi
trap - EXIT
[[ -z $stop ]] || exit $((128 + $(kill -l "$stop")))
exit "$status"
