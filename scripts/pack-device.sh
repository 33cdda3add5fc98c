#!/usr/bin/env bash
# Packs the cuda build for a GPU machine that has a driver and CUDA 13 but none of this
# project's libraries and no network (the workplace's device machines): builds the cuda
# preset, then copies the programs, nbk_tests, nbk_bench and every shared library they load
# except glibc's and the driver's into .device/ (git-ignored, ~25 MB) with .device/run.sh,
# which runs them there and packs its results into $OUT/results.tar.gz.
#   here:  scripts/pack-device.sh
#   there: bash .device/run.sh [info] [tests] [apps] [bench] [sanitize] [report]
#          (default: all but sanitize; README, "On a GPU machine")
# The machine needs glibc 2.36 or newer (this machine's libstdc++ is carried and needs it).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/.."
source "$here/common.sh"

bash "$here/bootstrap.sh" cuda
cmake --preset cuda >/dev/null
cmake --build --preset cuda

rm -rf .device && mkdir -p .device/bin .device/lib
# The programs by name: a glob such as apps/*/nbk-* also matches CMake's apps/CMakeFiles/nbk-*.dir.
while read -r name; do cp "build/cuda/apps/$name/nbk-${name//_/-}" .device/bin/; done < <(grep -E '^[a-z][a-z0-9_]*$' experiments.txt)
cp build/cuda/tests/nbk_tests build/cuda/benchmarks/nbk_bench .device/bin/
# Every shared library the binaries load, except glibc's own and the driver's.
for lib in $(ldd .device/bin/* | awk '/=> \//{print $3}' | sort -u); do
  case "$(basename "$lib")" in
    libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|ld-linux*|libcuda.so*) ;;
    *) cp -L "$lib" .device/lib/ ;;
  esac
done
cp "$here/device-run.sh" .device/run.sh
cp experiments.txt .device/experiments.txt
mkdir -p .device/tools && cp -r tools/nbk-report tools/nbk-compare tools/nbk_compare .device/tools/ && rm -rf .device/tools/nbk_compare/__pycache__
du -sh .device
log "packed .device/; on the GPU machine: bash .device/run.sh (carry .device)"
