#!/usr/bin/env bash
# scripts/device-run.sh, the runner of the GPU machines (CI has none), checked on this build's
# programs shipped as scripts/pack-device.sh ships them: one payload.tar.gz beside run.sh.
# compute-sanitizer is a stand-in that reports errors for --inject-bug runs only (or for every
# run, with FAKE_ERRORS set), so the sanitize step's verdicts are checked both ways. A stand-in
# program, nbk-slow, sleeps while it is killed, as the device tool's time limit kills a call:
# the programs that finished before it must be in $OUT.
# Usage: device_run.sh SOURCE_DIR NBK_TESTS NBK_DEVICE_INFO NBK_COUNTER NBK_HISTOGRAM [NBK_PROGRAM...]
# (the sanitize step's programs: sum, row_sum, matmul and pi besides counter and histogram)
set -euo pipefail
source_dir=$1; shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/stage dev=$work/.device out=$work/out
mkdir -p "$stage/bin" "$stage/lib" "$dev" "$out" "$work/fake"
cp "$@" "$stage/bin/"
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
# An ncu stand-in: finds the program after its options (not run: this build has no cuda space
# to name), then prints one metric line.
cat >"$work/fake/ncu" <<'EOF'
#!/usr/bin/env bash
while [[ $# -gt 0 && $1 != */nbk-* ]]; do shift; done
[[ -x ${1:-} ]] || { echo "ncu stand-in: no program in its arguments" >&2; exit 1; }
echo "    dram__throughput.avg.pct_of_peak_sustained_elapsed   %   50.00"
EOF
chmod +x "$work/fake/ncu"

fail() { echo "device_run: $*" >&2; exit 1; }
run() {  # run EXPECTED_EXIT STEPS...: run.sh under the device tool's $OUT
  local expected=$1; shift
  rm -rf "${out:?}"/* "$dev"/{bin,lib,out,experiments.txt}
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
grep -q 'expected errors' "$out/log.txt" || fail "the injected bug's memcheck verdict is missing"

run 0 smoke  # GPU tests (none in a host build), the two memcheck verdicts, every program once
for line in 'sanitize histogram-injected (memcheck).*expected errors' 'smoke: counter at 16'; do
  grep -q "$line" "$out/log.txt" || fail "the smoke step's log lacks '$line'"
done

PROFILE_APPS=counter run 0 profile  # ncu's figures for each program, packed
tar -xzOf "$out/results.tar.gz" ./ncu-counter.txt | grep -q dram__throughput || fail "the profile step packed no ncu figures"

FAKE_ERRORS=1 run 1 sanitize  # memcheck errors where none are allowed fail the step
grep -q 'sanitize histogram (memcheck): expected clean' "$out/log.txt" || fail "a clean run's errors went unreported"

run 2 info bogus  # a misspelt step: exit 2 before anything runs
[[ -z $(ls "$out") ]] || fail "run.sh ran steps before refusing an unknown one"

# Killed mid-apps (SIGKILL: no trap runs), while nbk-slow sleeps: counter's JSON and text are
# already packed, with the log up to the kill.
rm -rf "${out:?}"/* "$dev"/{bin,lib,out,experiments.txt}
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
echo "device_run: 6 runs of run.sh as expected (one killed mid-apps, its finished programs kept)"
