#!/usr/bin/env bash
# Installs everything the build needs on a fresh Debian 12 machine:
#   1. the Debian packages (compilers' helpers, test/bench/CLI/JSON/format libraries);
#   2. Kokkos 3.4.01, taken from Debian's `trilinos` source package (the only Kokkos
#      in the archive whose source we can build with OpenMP and CUDA), patched for CUDA 13;
#   3. one Kokkos install per backend flavour under a cache directory keyed by version
#      and options, so a second run costs nothing and a fresh machine still works.
#
# Usage: scripts/bootstrap.sh [serial|openmp|cuda|debug|host|all]...   (default: host)
#   host = serial openmp debug; all = host + cuda.
# Environment:
#   NBK_CACHE   where Kokkos sources and installs live (default: ~/.cache/nbk)
#   NBK_NO_APT  set to 1 to skip apt-get (packages already installed)
#   NBK_CUDA_ARCH  Kokkos architecture flag for the cuda flavour (default: AMPERE80;
#                  Kokkos 3.4 has no Hopper flag, sm_80 code runs on an H100 through PTX JIT)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

kokkos_version=3.4.01
trilinos_source=trilinos   # Debian source package that carries packages/kokkos
cuda_arch="${NBK_CUDA_ARCH:-AMPERE80}"

flavours=()
for arg in "${@:-host}"; do
  case "$arg" in
    serial|openmp|cuda|debug) flavours+=("$arg") ;;
    host) flavours+=(serial openmp debug) ;;
    all)  flavours+=(serial openmp debug cuda) ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "bootstrap: unknown flavour '$arg' (expected serial, openmp, cuda, debug, host or all)" >&2; exit 2 ;;
  esac
done

apt_packages=(cmake ninja-build g++ libgtest-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libfmt-dev python3-matplotlib)

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

# Fetch the trilinos source through apt with a private deb-src list, so the system's
# apt configuration is untouched and apt verifies the tarball against the signed index.
fetch_kokkos_source() {
  local src="$NBK_CACHE/src/kokkos-$kokkos_version"
  if [[ -f "$src/.patched" ]]; then echo "$src"; return; fi
  local work="$NBK_CACHE/src/apt"
  rm -rf "$work" "$src"; mkdir -p "$work/parts" "$work/lists/partial" "$work/dl"
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
  mv "$work"/x/*/packages/kokkos "$src"
  grep -q "set(Kokkos_VERSION_PATCH 01)" "$src/CMakeLists.txt" ||
    die "the $trilinos_source source does not carry Kokkos $kokkos_version (see $src/CMakeLists.txt)"
  (cd "$src" && patch -p1 -s < "$repo/cmake/patches/kokkos-$kokkos_version-cuda13.patch")
  touch "$src/.patched"
  rm -rf "$work"
  echo "$src"
}

flavour_options() {
  local common=(-DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF -DKokkos_ENABLE_SERIAL=ON)
  case "$1" in
    serial) echo "${common[*]} -DCMAKE_BUILD_TYPE=Release" ;;
    openmp) echo "${common[*]} -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_OPENMP=ON" ;;
    debug)  echo "${common[*]} -DCMAKE_BUILD_TYPE=Debug -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_DEBUG=ON -DKokkos_ENABLE_DEBUG_BOUNDS_CHECK=ON" ;;
    cuda)   echo "${common[*]} -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ARCH_${cuda_arch}=ON" ;;
  esac
}

build_flavour() {
  local flavour=$1 src=$2
  local options; options=$(flavour_options "$flavour")
  local key; key=$(printf '%s\n' "$kokkos_version" "$options" "$(cat "$repo/cmake/patches/kokkos-$kokkos_version-cuda13.patch")" | sha1sum | cut -c1-10)
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
    command -v nvcc >/dev/null || [[ -x /usr/local/cuda/bin/nvcc ]] || die "the cuda flavour needs nvcc (not on PATH nor in /usr/local/cuda/bin)"
    export PATH="/usr/local/cuda/bin:$PATH"
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
  touch "$prefix/.complete"
  ln -sfn "$prefix" "$link"
  rm -rf "$build"
  log "Kokkos $flavour: installed at $prefix"
}

install_packages
src=$(fetch_kokkos_source)
for f in "${flavours[@]}"; do build_flavour "$f" "$src"; done
