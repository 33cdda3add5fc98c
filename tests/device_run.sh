#!/usr/bin/env bash
# scripts/device-run.sh, the runner of the GPU machines (CI has none), checked on this build's
# programs shipped as scripts/pack-device.sh ships them: one payload.tar.gz beside run.sh.
# compute-sanitizer is a stand-in that reports errors for --inject-bug runs only (or for every
# run, with FAKE_ERRORS set), so the sanitize step's verdicts are checked both ways. A stand-in
# program, nbk-slow, sleeps while it is killed, as the device tool's time limit kills a call:
# the programs that finished before it must be in $OUT. The same programs serve as the host-only
# build of the parity step (host/bin), and run.json is written from a built.json made here.
# Usage: device_run.sh SOURCE_DIR NBK_TESTS NBK_DEVICE_INFO NBK_COUNTER NBK_HISTOGRAM [NBK_PROGRAM...]
# (the sanitize step's programs: sum, row_sum, matmul and pi besides counter and histogram)
set -euo pipefail
source_dir=$1; shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/stage dev=$work/.device out=$work/out
mkdir -p "$stage/bin" "$stage/host/bin" "$stage/lib" "$stage/tools" "$dev" "$out" "$work/fake"
cp "$@" "$stage/bin/"
cp "$@" "$stage/host/bin/"
cp "$source_dir/scripts/device-parity.py" "$stage/parity.py"
source "$source_dir/scripts/common.sh"
stage_device_tools "$source_dir" "$stage"
python3 "$source_dir/tools/nbk-run-record" built --preset cuda --build-dir "$(dirname "$(dirname "$1")")" >"$stage/built.json"
printf '#!/usr/bin/env bash\necho "slow: started"\nsleep "${SLOW_SECONDS:-0}"\n' >"$stage/bin/nbk-slow"
chmod +x "$stage/bin/nbk-slow"
printf 'device_info\ncounter\nslow\n' >"$stage/experiments.txt"
tar -czf "$dev/payload.tar.gz" -C "$stage" .
cp "$source_dir/scripts/device-run.sh" "$dev/run.sh"
cat >"$work/fake/compute-sanitizer" <<'EOF'
#!/usr/bin/env bash
# --tool NAME, then options up to the program; memcheck must pad allocations (docs/gpu.md).
tool=$2; shift 2; options=()
while [[ $# -gt 0 && $1 != */nbk* ]]; do options+=("$1"); shift; done
[[ -x ${1:-} ]] || { echo "compute-sanitizer stand-in: no program ${1:-} in the pack"; exit 1; }
[[ $tool != memcheck || " ${options[*]} " == *" --padding "* ]] || { echo "stand-in: memcheck without --padding"; exit 1; }
"$@" >/dev/null 2>&1
if [[ $tool == racecheck ]]; then echo "========= RACECHECK SUMMARY: 3 hazards displayed (0 errors, 3 warnings)"
elif [[ " $* " == *" --inject-bug "* || -n ${FAKE_ERRORS:-} ]]; then echo "========= ERROR SUMMARY: 2 errors"
else echo "========= ERROR SUMMARY: 0 errors"; fi
EOF
chmod +x "$work/fake/compute-sanitizer"
# An ncu stand-in: checks the kernel filter (nbk:: kernels, demangled names) among its options and
# that the program reads its references from a probe file that holds them (so that no probe kernel
# runs under ncu), then names one profiled launch as ncu does (a probe's, with FAKE_PROBES_ONLY set)
# and prints one metric line. The program is not run.
cat >"$work/fake/ncu" <<'EOF'
#!/usr/bin/env bash
options=()
while [[ $# -gt 0 && $1 != */nbk-* ]]; do options+=("$1"); shift; done
[[ -x ${1:-} ]] || { echo "ncu stand-in: no program in its arguments" >&2; exit 1; }
[[ " ${options[*]} " == *" --kernel-name regex:nbk:: "* && " ${options[*]} " == *" --kernel-name-base demangled "* ]] ||
  { echo "ncu stand-in: no --kernel-name filter on nbk:: kernels in: ${options[*]}" >&2; exit 1; }
program=("$@") probes=""
for ((i = 1; i < ${#program[@]}; ++i)); do [[ ${program[i-1]} != --probes ]] || probes=${program[i]}; done
[[ -n $probes ]] || { echo "ncu stand-in: the program probes under ncu (no --probes FILE)" >&2; exit 1; }
space=$(sed -n 's/.*--space \([a-z]*\).*/\1/p' <<<"${program[*]}")
grep -q "\"$space\"" "$probes" 2>/dev/null || { echo "ncu stand-in: $probes holds no $space probes" >&2; exit 1; }
if [[ -n ${FAKE_PROBES_ONLY:-} ]]; then
  echo '==PROF== Profiling "void Kokkos::Impl::ParallelFor<nbk::StreamProbe<Kokkos::Cuda>::copy()::{lambda(long)#1}>" - 0: 0%....100% - 9 passes'
else
  echo "==PROF== Profiling \"void Kokkos::Impl::ParallelFor<nbk::$(basename "$1")::kernel>\" - 0: 0%....100% - 9 passes"
fi
echo "    dram__throughput.avg.pct_of_peak_sustained_elapsed   %   50.00"
EOF
chmod +x "$work/fake/ncu"

fail() { echo "device_run: $*" >&2; exit 1; }
run() {  # run EXPECTED_EXIT STEPS...: run.sh under the device tool's $OUT
  local expected=$1; shift
  rm -rf "${out:?}"/* "${dev:?}"/{bin,host,lib,tools,out,experiments.txt,parity.py,built.json}
  local rc=0
  (cd "$work" && OUT=$out PATH="$work/fake:$PATH" TESTS_FILTER='Ranks.*' OMP_NUM_THREADS=1 \
     APP_ARGS='--size 1000 --probe-size 4096 --repetitions 2' bash .device/run.sh "$@") >"$work/log" 2>&1 || rc=$?
  ((rc == expected)) || { tail -20 "$work/log" >&2; fail "run.sh $* exited $rc, expected $expected"; }
}

run 0 info tests apps sanitize
[[ $(ls "$out") == $'log.txt\nresults.tar.gz' ]] || fail "\$OUT holds $(ls "$out" | tr '\n' ' '), not log.txt and results.tar.gz"
packed=$(tar -tzf "$out/results.tar.gz")
for file in log.txt device_info.json tests.json counter.json sanitizer-histogram-injected.txt sanitizer-histogram.txt \
            sanitizer-sum-memcheck.txt sanitizer-matmul-racecheck.txt sanitizer-counter-racecheck.txt; do
  grep -qx "./$file" <<<"$packed" || fail "results.tar.gz lacks $file"
done
grep -q '"name": "Ranks"' <(tar -xzOf "$out/results.tar.gz" ./tests.json) || fail "tests.json has no Ranks tests"
# run.json: the pack's revision, this machine's CPU, the programs' Kokkos (tools/nbk-run-record).
record=$(tar -xzOf "$out/results.tar.gz" ./run.json) || fail "results.tar.gz lacks run.json"
revision=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["git_revision"])' "$stage/built.json")
python3 -c 'import json, sys; r = json.loads(sys.argv[2]); sys.exit(not (
  r["git_revision"] == sys.argv[1] and r["preset"] == "cuda" and r["cpu_model"] and r["cpu_count"] >= 1
  and r["kokkos_version"] and "counter.json" in r["programs"]))' "$revision" "$record" ||
  fail "run.json lacks the revision, the CPU or the Kokkos version: $record"
grep -q 'expected errors' "$out/log.txt" || fail "the injected bug's memcheck verdict is missing"

run 0 smoke  # GPU tests (none in a host build), the two memcheck verdicts, every program once
for line in 'sanitize histogram-injected (memcheck).*expected errors' 'smoke: counter at 16'; do
  grep -q "$line" "$out/log.txt" || fail "the smoke step's log lacks '$line'"
done

# ncu's figures for each program, packed; the references probed outside ncu, into a probe file
PROFILE_APPS=counter PROFILE_SPACE=serial run 0 profile
tar -xzOf "$out/results.tar.gz" ./ncu-counter.txt | grep -q dram__throughput || fail "the profile step packed no ncu figures"
grep -q 'profile counter: 1 launches of its kernels profiled' "$out/log.txt" || fail "the profile step counted no kernel"
FAKE_PROBES_ONLY=1 PROFILE_APPS=counter PROFILE_SPACE=serial run 1 profile  # only probes profiled: said, and exit 1
grep -q 'profile counter: no kernel of counter reached' "$out/log.txt" || fail "a profile of probes only went unreported"

# Both builds' CPU rows (here the same programs twice) and their ratio per row, in $OUT/parity.txt
PARITY_APPS=counter PARITY_ARGS='--size 1000' run 0 parity
[[ $(ls "$out") == $'log.txt\nparity.txt\nresults.tar.gz' ]] || fail "\$OUT holds $(ls "$out" | tr '\n' ' ') after parity"
for space in serial openmp; do
  # a ratio, then a rounds verdict where it is over 1.10 (the same program twice, on a loaded CI machine)
  grep -qE "^counter +\| [a-z0-9-]+ +\| $space +\| 1000 .*\| [0-9.]+x *( \| (differs by round|slower in each))?\$" "$out/parity.txt" ||
    fail "parity.txt has no ratio of a counter row on $space: $(cat "$out/parity.txt")"
done
packed=$(tar -tzf "$out/results.tar.gz")
for file in parity.txt parity/cuda-counter.json parity/host-counter.json parity/host2-counter.json parity/cuda2-counter.json; do
  grep -qx "./$file" <<<"$packed" || fail "results.tar.gz lacks $file after parity"
done

FAKE_ERRORS=1 run 1 sanitize  # memcheck errors where none are allowed fail the step
grep -q 'sanitize histogram (memcheck): expected clean' "$out/log.txt" || fail "a clean run's errors went unreported"

run 2 info bogus  # a misspelt step: exit 2 before anything runs
[[ -z $(ls "$out") ]] || fail "run.sh ran steps before refusing an unknown one"

# Killed mid-apps (SIGKILL: no trap runs), while nbk-slow sleeps: counter's JSON and text are
# already packed, with the log up to the kill.
rm -rf "${out:?}"/* "${dev:?}"/{bin,host,lib,tools,out,experiments.txt,parity.py,built.json}
(cd "$work" && exec setsid env OUT="$out" SLOW_SECONDS=300 OMP_NUM_THREADS=1 \
   APP_ARGS='--size 1000 --probe-size 4096 --repetitions 2' bash .device/run.sh apps >"$work/log" 2>&1) &
runner=$!
for _ in $(seq 600); do grep -q "slow: started" "$work/log" 2>/dev/null && break; sleep 0.1; done
grep -q "slow: started" "$work/log" || { kill -KILL -- -"$runner" 2>/dev/null; fail "nbk-slow never started"; }
kill -KILL -- -"$runner"
{ wait "$runner"; } 2>/dev/null || true
[[ -f $out/results.tar.gz ]] || fail "a killed run left no results.tar.gz"
packed=$(tar -tzf "$out/results.tar.gz")
for file in counter.json counter.txt log.txt; do
  grep -qx "./$file" <<<"$packed" || fail "a killed run's results.tar.gz lacks $file: $(tr '\n' ' ' <<<"$packed")"
done
grep -q "== counter" "$out/log.txt" || fail "the log in \$OUT lacks the program that finished"
# Stopped mid-apps by SIGTERM to its process group, as a time limit's `timeout` sends it, while
# nbk-sum runs its rows: the signal reaches sum once (forwarded), which keeps its finished rows and
# says what it did not run; counter and the report step do not run; the log says so; exit 143.
rm -rf "${out:?}"/* "${dev:?}"/{bin,host,lib,tools,out,experiments.txt,parity.py,built.json}
(cd "$work" && exec setsid env OUT="$out" OMP_NUM_THREADS=1 APPS="sum counter" \
   APP_ARGS='--size 100003 --probe-size 4096 --repetitions 1000' bash .device/run.sh apps report >"$work/log" 2>&1) &
runner=$!
for _ in $(seq 600); do grep -q "running builtin on serial" "$work/log" 2>/dev/null && break; sleep 0.1; done
grep -q "running builtin on serial" "$work/log" || { kill -KILL -- -"$runner" 2>/dev/null; fail "nbk-sum never ran its rows"; }
kill -TERM -- -"$runner"
rc=0; wait "$runner" || rc=$?
((rc == 143)) || { tail -20 "$work/log" >&2; fail "run.sh stopped by SIGTERM exited $rc, not 143"; }
packed=$(tar -tzf "$out/results.tar.gz")
grep -qx "./sum.json" <<<"$packed" || fail "a stopped run's results.tar.gz lacks sum.json: $(tr '\n' ' ' <<<"$packed")"
! grep -qx "./counter.json" <<<"$packed" || fail "counter ran after the signal"
tar -xzOf "$out/results.tar.gz" ./sum.json | python3 -c 'import json, sys; d = json.load(sys.stdin)
sys.exit(not (d["interrupted"]["signal"] == "SIGTERM" and d["results"] and d["interrupted"]["not_run"]))' ||
  fail "sum.json does not keep its finished rows and name those not run"
for line in "stopped by SIGTERM in step apps while nbk-sum ran" "stopped (exit 143)" "not run (stopped): counter" \
            "not run (stopped): step report" "Stopped by SIGTERM: "; do
  grep -qF "$line" "$out/log.txt" || fail "the stopped run's log lacks '$line'"
done
echo "device_run: 10 runs of run.sh as expected (one killed mid-apps, one stopped by SIGTERM: their finished programs and rows kept)"
