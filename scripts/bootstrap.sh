#!/usr/bin/env bash
# Installs everything the build needs on a fresh Debian 12 machine:
#   1. the Debian packages (compilers' helpers, test/bench/CLI/JSON/format libraries);
#   2. Kokkos 3.4.01, taken from Debian's `trilinos` source package (the only Kokkos
#      in the archive whose source we can build with OpenMP and CUDA), patched with
#      cmake/patches/kokkos-3.4.01-cuda13.patch (CUDA 13, Hopper, launch shape);
#   3. one Kokkos install per backend flavour under a cache directory keyed by all that
#      changes the build (Kokkos version, options, GPU architectures, host compiler,
#      CMake, Ninja, nvcc, the patch), so a second run costs nothing and an upgraded
#      toolchain gets a fresh install instead of an old one.
#
# Usage: scripts/bootstrap.sh [serial|openmp|cuda|debug|mpi|host|all]...   (default: host)
#   host = serial openmp debug; all = host + cuda; mpi = the openmp flavour plus Debian's
#   Open MPI (libopenmpi-dev, openmpi-bin) for the mpi preset.
# Environment:
#   NBK_CACHE      where Kokkos sources and installs live (default: ~/.cache/nbk)
#   NBK_NO_APT     set to 1 to skip apt-get (packages already installed)
#   NBK_CUDA_ARCH  the GPUs the cuda flavour carries native code for, as compute
#                  capabilities: 90, or a fat binary such as 80,90 or 80,90,100,120; the
#                  highest also gets PTX, which the driver compiles for newer GPUs. Default:
#                  those of the GPUs nvidia-smi lists, else (no GPU: CI, this VM) 80,90.
#                  Kokkos 3.4 knows 75, 80, 86 and (patched) 90; a list starting at
#                  another one also carries the nearest older one it knows.
#   CUDA_HOME, CUDAToolkit_ROOT  the CUDA toolkit for the cuda flavour; without them, nvcc
#                  on PATH, else /usr/local/cuda. Its nvcc is recorded in the install, so
#                  later builds need none of these.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

kokkos_version=3.4.01
trilinos_source=trilinos   # Debian source package that carries packages/kokkos
patch_file="$repo/cmake/patches/kokkos-$kokkos_version-cuda13.patch"
fat_cuda_arch=80,90         # A100 and H100/H200 native, PTX 9.0 for anything newer

flavours=()
want_mpi=0
for arg in "${@:-host}"; do
  case "$arg" in
    serial|openmp|cuda|debug) flavours+=("$arg") ;;
    mpi)  flavours+=(openmp); want_mpi=1 ;;
    host) flavours+=(serial openmp debug) ;;
    all)  flavours+=(serial openmp debug cuda) ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "bootstrap: unknown flavour '$arg' (expected serial, openmp, cuda, debug, mpi, host or all)" >&2; exit 2 ;;
  esac
done

apt_packages=(cmake ninja-build g++ libgtest-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libfmt-dev python3-matplotlib libopenblas-openmp-dev)
((want_mpi)) && apt_packages+=(libopenmpi-dev openmpi-bin)

install_packages() {
  [[ "${NBK_NO_APT:-0}" == 1 ]] && return
  local missing=()
  for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]} == 0)) && return
  log "installing Debian packages: ${missing[*]}"
  local sudo=""; [[ $(id -u) == 0 ]] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Kokkos as Debian ships it, extracted once and never patched. Fetched through apt with a
# private deb-src list, so the system's apt configuration is untouched and apt verifies
# the tarball against the signed index. Built in a scratch directory and renamed into
# place, so a concurrent or interrupted run never leaves a half tree behind.
fetch_pristine_source() {
  local pristine=$1
  [[ -f "$pristine/.complete" ]] && return
  mkdir -p "$NBK_CACHE/src"
  local work; work=$(mktemp -d "$NBK_CACHE/src/.fetch.XXXXXX")
  mkdir -p "$work/parts" "$work/lists/partial" "$work/dl"
  local sources=/etc/apt/sources.list.d/debian.sources
  [[ -f $sources ]] || die "cannot find $sources to derive a deb-src list from"
  sed 's/^Types:.*/Types: deb-src/' "$sources" > "$work/parts/src.sources"
  local opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$work/parts"
              -o "Dir::State::Lists=$work/lists" -o Debug::NoLocking=1)
  log "fetching Debian source package '$trilinos_source' (Kokkos $kokkos_version lives in it)"
  apt-get "${opts[@]}" update -qq > "$work/apt.log" 2>&1 ||
    { cat "$work/apt.log" >&2; die "apt-get update for the deb-src list failed"; }
  (cd "$work/dl" && apt-get "${opts[@]}" source --download-only "$trilinos_source") >> "$work/apt.log" 2>&1 ||
    { cat "$work/apt.log" >&2; die "apt-get source $trilinos_source failed"; }
  local tarball; tarball=$(ls "$work"/dl/"${trilinos_source}"_*.orig.tar.gz)
  log "extracting packages/kokkos"
  mkdir -p "$work/x"
  tar -xzf "$tarball" -C "$work/x" --wildcards '*/packages/kokkos/*'
  local tree=("$work"/x/*/packages/kokkos)
  grep -q "set(Kokkos_VERSION_PATCH 01)" "${tree[0]}/CMakeLists.txt" ||
    die "the $trilinos_source source does not carry Kokkos $kokkos_version (see ${tree[0]}/CMakeLists.txt)"
  touch "${tree[0]}/.complete"
  mv -T "${tree[0]}" "$pristine" 2>/dev/null || true   # another run may have won the race
  rm -rf "$work"
  [[ -f "$pristine/.complete" ]] || die "could not place the Kokkos source at $pristine"
}

# The patched source, one tree per patch content: a changed patch gets a fresh tree and
# never a tree patched with an older version (other checkouts may still build from that).
kokkos_source() {
  local pkey; pkey=$(sha1sum < "$patch_file" | cut -c1-10)
  local src="$NBK_CACHE/src/kokkos-$kokkos_version-patch-$pkey"
  if [[ -f "$src/.patched" ]]; then echo "$src"; return; fi
  local pristine="$NBK_CACHE/src/kokkos-$kokkos_version-debian"
  fetch_pristine_source "$pristine"
  local work; work=$(mktemp -d "$NBK_CACHE/src/.patch.XXXXXX")
  cp -a "$pristine/." "$work/"
  rm -f "$work/.complete"
  (cd "$work" && patch -p1 -s < "$patch_file") || die "$patch_file does not apply to Kokkos $kokkos_version"
  touch "$work/.patched"
  mv -T "$work" "$src" 2>/dev/null || rm -rf "$work"
  [[ -f "$src/.patched" ]] || die "could not place the patched Kokkos source at $src"
  echo "$src"
}

# Compute capabilities of the GPUs here ("90", "80,90"), or nothing without a GPU.
detected_cuda_arch() {
  command -v nvidia-smi >/dev/null 2>&1 || return 0
  nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
    tr -d ' .' | grep -E '^[0-9]+$' | sort -un | paste -sd, - || true
}

# Kokkos options for the cuda flavour's GPU code, from a list such as "80,90,100":
# Kokkos_ARCH_<GPU> for the lowest (what Kokkos' own macros describe), and the rest as
# Kokkos_CUDA_EXTRA_ARCHS (the patch turns them into one -gencode each, PTX for the top).
cuda_arch_options() {
  local list=$1 ccs=() cc
  IFS=', ' read -r -a ccs <<<"$list"
  for cc in "${ccs[@]}"; do [[ $cc =~ ^[0-9]+$ ]] || die "NBK_CUDA_ARCH: '$cc' is not a compute capability (like 80 or 90)"; done
  mapfile -t ccs < <(printf '%s\n' "${ccs[@]}" | sort -un)
  ((${#ccs[@]})) || die "NBK_CUDA_ARCH is empty"
  # Kokkos 3.4 architectures nvcc 13 can still build for (75 and up), and their flags.
  local known=(75:TURING75 80:AMPERE80 86:AMPERE86 90:HOPPER90) base="" flag="" k
  for k in "${known[@]}"; do
    ((${k%%:*} <= ccs[0])) && { base=${k%%:*}; flag=${k#*:}; }
  done
  [[ -n $flag ]] || die "NBK_CUDA_ARCH: compute capability ${ccs[0]} is older than nvcc 13 supports (7.5)"
  local extra=()
  for cc in "${ccs[@]}"; do ((cc != base)) && extra+=("$cc"); done
  local IFS=';'
  echo "-DKokkos_ARCH_${flag}=ON -DKokkos_CUDA_EXTRA_ARCHS=${extra[*]}"
}

flavour_options() {
  local common=(-DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF -DKokkos_ENABLE_SERIAL=ON)
  case "$1" in
    serial) echo "${common[*]} -DCMAKE_BUILD_TYPE=Release" ;;
    openmp) echo "${common[*]} -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_OPENMP=ON" ;;
    debug)  echo "${common[*]} -DCMAKE_BUILD_TYPE=Debug -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_DEBUG=ON -DKokkos_ENABLE_DEBUG_BOUNDS_CHECK=ON" ;;
    cuda)   echo "${common[*]} -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON $(cuda_arch_options "$cuda_arch")" ;;
  esac
}

# Everything besides the options that changes what the install contains: the tools that
# build it, by version (and, for CUDA, the toolkit's location, which the install records).
toolchain_identity() {
  cmake --version | head -1
  ninja --version
  if [[ $1 == cuda ]]; then
    "${NVCC_WRAPPER_DEFAULT_COMPILER:-g++}" --version | head -1
    echo "$cuda_root"
    "$cuda_root/bin/nvcc" --version | tail -2
  else
    "${CXX:-c++}" --version | head -1
  fi
}

build_flavour() {
  local flavour=$1 src=$2
  local options; options=$(flavour_options "$flavour")
  local key; key=$(printf '%s\n' "$kokkos_version" "$options" "$(toolchain_identity "$flavour")" \
                     "$(cat "$patch_file")" | sha1sum | cut -c1-10)
  local prefix="$NBK_CACHE/kokkos-$kokkos_version-$flavour-$key"
  local link="$NBK_CACHE/kokkos/$flavour"
  mkdir -p "$NBK_CACHE/kokkos"
  if [[ -f "$prefix/.complete" ]]; then
    ln -sfn "$prefix" "$link"
    log "Kokkos $flavour: cached at $prefix"
    return
  fi
  local extra=()
  if [[ $flavour == cuda ]]; then
    # nvcc_wrapper runs $CUDA_ROOT/bin/nvcc when CUDA_ROOT is set, and Kokkos' CMake looks
    # for the toolkit there too: one toolkit for the whole build, whatever PATH holds.
    export CUDA_ROOT="$cuda_root"
    extra=(-DCMAKE_CXX_COMPILER="$src/bin/nvcc_wrapper")
  fi
  log "building Kokkos $flavour ($options)"
  local build="$NBK_CACHE/build/kokkos-$flavour-$key"
  rm -rf "$build" "$prefix"; mkdir -p "$NBK_CACHE/build"
  # shellcheck disable=SC2086
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_INSTALL_PREFIX="$prefix" $options "${extra[@]}" > "$build.log" 2>&1 ||
    { tail -30 "$build.log" >&2; die "Kokkos $flavour: configure failed (log: $build.log)"; }
  cmake --build "$build" --target install -j "$(nproc)" >> "$build.log" 2>&1 ||
    { tail -30 "$build.log" >&2; die "Kokkos $flavour: build failed (log: $build.log)"; }
  if [[ $flavour == cuda ]]; then
    # The compiler for projects using this install: Kokkos' nvcc_wrapper with the nvcc
    # it was built with, so a plain shell without nvcc on PATH builds them too.
    cat > "$prefix/bin/nbk-nvcc-wrapper" <<EOF
#!/bin/sh
# Written by scripts/bootstrap.sh: Kokkos' nvcc_wrapper running the nvcc that built this
# Kokkos ($cuda_root/bin/nvcc).
CUDA_ROOT='$cuda_root' exec '$prefix/bin/nvcc_wrapper' "\$@"
EOF
    chmod +x "$prefix/bin/nbk-nvcc-wrapper"
  fi
  touch "$prefix/.complete"
  ln -sfn "$prefix" "$link"
  rm -rf "$build"
  log "Kokkos $flavour: installed at $prefix"
}

cuda_root="" cuda_arch=""
if [[ " ${flavours[*]} " == *" cuda "* ]]; then
  cuda_root=$(nbk_cuda_root) ||
    die "the cuda flavour needs nvcc: set CUDA_HOME or CUDAToolkit_ROOT, or put nvcc on PATH (looked in /usr/local/cuda too)"
  cuda_arch="${NBK_CUDA_ARCH:-$(detected_cuda_arch)}"
  cuda_arch="${cuda_arch:-$fat_cuda_arch}"
  log "cuda flavour: nvcc from $cuda_root/bin, GPU code for compute capability $cuda_arch"
fi

install_packages
src=$(kokkos_source)
mapfile -t flavours < <(printf '%s\n' "${flavours[@]}" | awk '!seen[$0]++')  # mpi and openmp share one
for f in "${flavours[@]}"; do build_flavour "$f" "$src"; done
