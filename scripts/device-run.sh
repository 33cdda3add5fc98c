#!/usr/bin/env bash
# Runs the packed cuda build on a GPU machine (see scripts/pack-device.sh). Reports go to
# $OUT (or .device/out): log.txt, tests.json, bench.json, <experiment>.json for each
# experiment of experiments.txt (packed beside this script), and report/ (index.md from
# those files when python3 is there; plots too when matplotlib is).
# Usage: bash .device/run.sh [info] [tests] [apps] [bench] [report]
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-$here/out}"
mkdir -p "$out"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
steps=("$@"); ((${#steps[@]})) || steps=(info tests apps bench report)
status=0
note() { echo "== $*" | tee -a "$out/log.txt"; }
run() { "$@" 2>&1 | tee -a "$out/log.txt"; local rc=${PIPESTATUS[0]}; ((rc == 0)) || { status=$rc; note "exit $rc: $*"; }; }

for step in "${steps[@]}"; do
  case "$step" in
    info)  note "device info"; nvidia-smi -L 2>&1 | tee -a "$out/log.txt"
           run "$here/bin/nbk-device-info" --json "$out/device_info.json" ;;
    tests) note "tests"; OMP_PROC_BIND=false run "$here/bin/nbk_tests" --gtest_output="json:$out/tests.json" --gtest_brief=1 ;;
    apps)  export OMP_PROC_BIND=spread OMP_PLACES=threads
           for app in $(grep -v '^device_info$' "$here/experiments.txt"); do
             note "$app"; run "$here/bin/nbk-${app//_/-}" --json "$out/$app.json"
           done ;;
    bench) export OMP_PROC_BIND=spread OMP_PLACES=threads
           note "benchmarks"
           run "$here/bin/nbk_bench" --benchmark_repetitions="${REPS:-3}" --benchmark_min_time=0.1 \
               --benchmark_out="$out/bench.json" --benchmark_out_format=json ;;
    report) if command -v python3 >/dev/null && [[ -f "$here/tools/nbk-report" ]]; then
              note "report"; run python3 "$here/tools/nbk-report" --results "$out" --out "$out/report"
            else
              note "report skipped: no python3 or no $here/tools (pack-device.sh copies it)"
            fi ;;
    *) echo "device-run: unknown step '$step' (info, tests, apps, bench, report)" >&2; exit 2 ;;
  esac
done
exit "$status"
