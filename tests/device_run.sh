#!/usr/bin/env bash
# scripts/device-run.sh, the runner of the GPU machines (CI has none), checked on this build's
# programs shipped as scripts/pack-device.sh ships them: one payload.tar.gz beside run.sh.
# compute-sanitizer is a stand-in that reports errors for --inject-bug runs only (or for every
# run, with FAKE_ERRORS set), so the sanitize step's verdicts are checked both ways.
# Usage: device_run.sh SOURCE_DIR NBK_TESTS NBK_DEVICE_INFO NBK_COUNTER NBK_HISTOGRAM
set -euo pipefail
source_dir=$1; shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/stage dev=$work/.device out=$work/out
mkdir -p "$stage/bin" "$stage/lib" "$dev" "$out" "$work/fake"
cp "$@" "$stage/bin/"
printf 'device_info\ncounter\n' >"$stage/experiments.txt"
tar -czf "$dev/payload.tar.gz" -C "$stage" .
cp "$source_dir/scripts/device-run.sh" "$dev/run.sh"
cat >"$work/fake/compute-sanitizer" <<'EOF'
#!/usr/bin/env bash
tool=$2; shift 4  # --tool NAME --print-limit N
"$@" >/dev/null 2>&1
if [[ $tool == racecheck ]]; then echo "========= RACECHECK SUMMARY: 3 hazards displayed (0 errors, 3 warnings)"
elif [[ " $* " == *" --inject-bug "* || -n ${FAKE_ERRORS:-} ]]; then echo "========= ERROR SUMMARY: 2 errors"
else echo "========= ERROR SUMMARY: 0 errors"; fi
EOF
chmod +x "$work/fake/compute-sanitizer"

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
            sanitizer-tests-memcheck.txt sanitizer-tests-racecheck.txt; do
  grep -qx "./$file" <<<"$packed" || fail "results.tar.gz lacks $file"
done
grep -q '"name": "Ranks"' <(tar -xzOf "$out/results.tar.gz" ./tests.json) || fail "tests.json has no Ranks tests"
grep -q 'expected errors' "$out/log.txt" || fail "the injected bug's memcheck verdict is missing"

FAKE_ERRORS=1 run 1 sanitize  # memcheck errors where none are allowed fail the step
grep -q 'sanitize histogram (memcheck): expected clean' "$out/log.txt" || fail "a clean run's errors went unreported"

run 2 info bogus  # a misspelt step: exit 2 before anything runs
[[ -z $(ls "$out") ]] || fail "run.sh ran steps before refusing an unknown one"
echo "device_run: 3 runs of run.sh as expected"
