#!/usr/bin/env bash
# Packs the cuda build for a GPU machine that has a driver and CUDA 13 but none of this
# project's libraries and no network (the workplace's device machines): builds the cuda
# preset, then gathers the programs, nbk_tests, nbk_bench and every shared library they load
# except glibc's and the driver's in build/device/ and packs them into .device/payload.tar.gz
# (git-ignored) beside .device/run.sh, which unpacks them there, runs them and packs its
# results into $OUT/results.tar.gz. One gzip'd tarball because each program holds every
# workload's GPU code: with --mpi the files take ~163 MB and .device/ ~41 MB (cuBLAS left to the
# machine's CUDA toolkit), the host-only programs ~8 MB more packed, and the workplace's device
# tool carries at most 64 MiB.
#   here:  scripts/pack-device.sh [--mpi]
#   there: bash .device/run.sh [smoke] [info] [tests] [apps] [bench] [profile] [sanitize] [mpi] [parity] [report]
#          (default: info tests apps bench report; docs/gpu.md, "On a GPU machine")
# Beside the CUDA build: the same revision's host-only build (the openmp preset in build/device-host,
# its host code for x86-64-v3 as the CUDA build's, not -march=native: the GPU machine's CPU is not
# this one), its programs in host/bin, for `run.sh parity`: the two builds' CPU rows side by side.
# --mpi also builds add-one and sum with NBK_MPI=ON (preset cuda-mpi) and packs them into
# mpi/ with Open MPI's runtime from this machine (Debian's, relocated: see pack_open_mpi),
# for `run.sh mpi`: the documents' two-device rows as two ranks on the machine's GPU.
# The machine needs glibc 2.36 or newer (this machine's libstdc++ is carried and needs it).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/.."
source "$here/common.sh"

mpi=0
for arg in "$@"; do
  case "$arg" in
    --mpi) mpi=1 ;;
    *) usage_error "pack-device: unknown argument '$arg' (expected --mpi)" ;;
  esac
done

# copy_loaded_libraries and pack_open_mpi: scripts/common.sh (tests/pmix_namespace.sh packs Open MPI too).

if ((mpi)); then bash "$here/bootstrap.sh" cuda openmp mpi; else bash "$here/bootstrap.sh" cuda openmp; fi
cmake --preset cuda >/dev/null
cmake --build --preset cuda
mapfile -t experiments < <(grep -E '^[a-z][a-z0-9_]*$' experiments.txt)
programs=("${experiments[@]//_/-}") && programs=("${programs[@]/#/nbk-}")
cmake --preset openmp -B build/device-host -DNBK_HOST_ARCH_OVERRIDE=x86-64-v3 -DNBK_BUILD_TESTS=OFF \
      -DNBK_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build/device-host --target "${programs[@]}"

stage=build/device
rm -rf "$stage" .device && mkdir -p "$stage/bin" "$stage/host/bin" "$stage/lib" .device
# The programs by name: a glob such as apps/*/nbk-* also matches CMake's apps/CMakeFiles/nbk-*.dir.
for name in "${experiments[@]}"; do
  cp "build/cuda/apps/$name/nbk-${name//_/-}" "$stage/bin/"
  cp "build/device-host/apps/$name/nbk-${name//_/-}" "$stage/host/bin/"
done
cp build/cuda/tests/nbk_tests build/cuda/benchmarks/nbk_bench "$stage/bin/"
copy_loaded_libraries "$stage/lib" "$stage"/bin/*
copy_loaded_libraries "$stage/lib" "$stage"/host/bin/*
if ((mpi)); then
  # The cuda-mpi preset: apart from build/cuda, so that the programs above stay free of MPI.
  cmake --preset cuda-mpi >/dev/null
  cmake --build --preset cuda-mpi
  mkdir -p "$stage/mpi/bin"
  cp build/cuda-mpi/apps/add_one/nbk-add-one build/cuda-mpi/apps/sum/nbk-sum "$stage/mpi/bin/"
  pack_open_mpi "$stage/mpi"
fi
cp experiments.txt "$stage/experiments.txt"
cp scripts/device-parity.py "$stage/parity.py"
# What the GPU machine cannot know (no checkout there): revision, compiler, Kokkos, for its run.json.
python3 tools/nbk-run-record built --preset cuda --build-dir build/cuda >"$stage/built.json"
stage_device_tools . "$stage"
tar -czf .device/payload.tar.gz -C "$stage" .
cp "$here/device-run.sh" .device/run.sh
size=$(du -sm .device | cut -f1)
((size < 64)) || log "warning: .device/ is $size MB; the workplace's device tool carries at most 64 MiB"
log "packed .device/ ($size MB: run.sh and payload.tar.gz, $(du -sm "$stage" | cut -f1) MB unpacked);" \
    "on the GPU machine: bash .device/run.sh (carry .device)"
