#!/usr/bin/env bash
# Installs everything the build needs on a fresh Debian 12 machine:
#   1. the Debian packages (compilers' helpers, test/bench/CLI/JSON/format libraries);
#   2. a Kokkos source, chosen in one place (scripts/kokkos-source.sh): your installed Kokkos
#      (Kokkos_ROOT: nothing is built), your tarball or folder (NBK_KOKKOS_SOURCE), the
#      pinned release 4.6.01 (cached, or downloaded with its sha256 where the network allows),
#      else Kokkos 3.4.01 from Debian's `trilinos` source package; patched with
#      cmake/patches/kokkos-<version>-cuda13.patch where there is one (CUDA 13, Hopper,
#      launch shape);
#   3. one Kokkos install per backend flavour under a cache directory keyed by all that
#      changes the build (Kokkos version and source, options, GPU architectures, host
#      compiler, CMake, Ninja, nvcc, the patch), so a second run costs nothing and an
#      upgraded toolchain gets a fresh install instead of an old one.
# Prints one line per flavour on stdout, "<flavour> <version> <Kokkos_ROOT to configure with>"; the
# presets find the default choice's installs by themselves ($NBK_CACHE/kokkos/<flavour>).
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
#                  (Kokkos 4.x knows 75, 80, 86, 89, 90, 100 and 120.)
#   Kokkos_ROOT    an installed Kokkos: the packages only, no Kokkos built
#   NBK_KOKKOS_SOURCE  a Kokkos source tarball or folder to build (NBK_KOKKOS_SHA256: the
#                  tarball's sha256, checked); its installs get their own cache keys and
#                  never replace the presets' default ones
#   NBK_KOKKOS_DOWNLOAD  0: do not download the pinned release (CI's Kokkos 3.4 runs)
#   NBK_KOKKOS_OPTIONS   further CMake options for Kokkos (part of the cache key); 4.x is
#                  built with -DKokkos_ENABLE_DEPRECATED_CODE_4=OFF unless they say ON
#   NBK_CXX_STANDARD  the C++ standard Kokkos is built in, and the project with it: 17 (the
#                  default; Kokkos 3.4 knows no other), 20 or 23 (part of the cache key). Kokkos 5
#                  requires 20: its default there, and 17 is refused
#   CUDA_HOME, CUDAToolkit_ROOT  the CUDA toolkit for the cuda flavour; without them, nvcc
#                  on PATH, else /usr/local/cuda. Its nvcc is recorded in the install, so
#                  later builds need none of these.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

# shellcheck source=scripts/kokkos-source.sh
source "$here/kokkos-source.sh"
fat_cuda_arch=80,90         # A100 and H100/H200 native, PTX 9.0 for anything newer

flavours=()
want_mpi=0
for arg in "${@:-host}"; do
  case "$arg" in
    serial|openmp|cuda|debug) flavours+=("$arg") ;;
    mpi)  flavours+=(openmp); want_mpi=1 ;;
    host) flavours+=(serial openmp debug) ;;
    all)  flavours+=(serial openmp debug cuda) ;;
    -h|--help) sed -n '2,40p' "$0"; exit 0 ;;
    *) echo "bootstrap: unknown flavour '$arg' (expected serial, openmp, cuda, debug, mpi, host or all)" >&2; exit 2 ;;
  esac
done

apt_packages=(cmake ninja-build g++ libgtest-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libfmt-dev libopenblas-openmp-dev
              python3-matplotlib python3-scipy python3-jinja2 python3-markdown python3-threadpoolctl)
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
  # The architectures nvcc 13 can still build for (75 and up) that this Kokkos knows (3.4
  # patched: up to 90; 4.x: up to 120), and their flags.
  local known=(75:TURING75 80:AMPERE80 86:AMPERE86 90:HOPPER90) base="" flag="" k
  [[ $kokkos_version == 3.* ]] || known=(75:TURING75 80:AMPERE80 86:AMPERE86 89:ADA89 90:HOPPER90 100:BLACKWELL100 120:BLACKWELL120)
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
  local common=(-DCMAKE_CXX_STANDARD="$cxx_standard" -DCMAKE_CXX_EXTENSIONS=OFF -DKokkos_ENABLE_SERIAL=ON)
  local lambda=-DKokkos_ENABLE_CUDA_LAMBDA=ON   # always on, and deprecated, from 4.0; 5.2 refuses it
  # 4.x without the code deprecated in 4 (what CI tests); NBK_KOKKOS_OPTIONS comes last and
  # may turn it back on (-DKokkos_ENABLE_DEPRECATED_CODE_4=ON). 5.0 turns it off by default and
  # 5.2 removes it: nothing is passed there.
  [[ $kokkos_version == 3.* ]] || lambda=""
  [[ $kokkos_version != 4.* ]] || common+=(-DKokkos_ENABLE_DEPRECATED_CODE_4=OFF)
  local extra=${NBK_KOKKOS_OPTIONS:-}
  case "$1" in
    serial) echo "${common[*]} -DCMAKE_BUILD_TYPE=Release${extra:+ $extra}" ;;
    openmp) echo "${common[*]} -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_OPENMP=ON${extra:+ $extra}" ;;
    # Serial only: the debug preset is also the suite's build without OpenMP (the openmp preset
    # runs every Serial test; CI builds no serial preset, docs/ci.md).
    debug)  echo "${common[*]} -DCMAKE_BUILD_TYPE=Debug -DKokkos_ENABLE_DEBUG=ON -DKokkos_ENABLE_DEBUG_BOUNDS_CHECK=ON${extra:+ $extra}" ;;
    cuda)   echo "${common[*]} -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_CUDA=ON${lambda:+ $lambda} $(cuda_arch_options "$cuda_arch")${extra:+ $extra}" ;;
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
  # (Debian's 3.4.01 keeps the key it had before other sources existed: no cache rebuilt.)
  local key; key=$(printf '%s\n' "$kokkos_version" "$options" "$(toolchain_identity "$flavour")" \
                     "$(if [[ -n $patch_file ]]; then cat "$patch_file"; fi)" ${source_key:+"$source_key"} |
                   sha1sum | cut -c1-10)
  local prefix="$NBK_CACHE/kokkos-$kokkos_version-$flavour-$key"
  # The presets' link follows the default choice (release or Debian), never a source the
  # user named for one build: other checkouts sharing this cache keep their Kokkos.
  local link=""
  [[ $kokkos_origin == source ]] || link="$NBK_CACHE/kokkos/$flavour"
  mkdir -p "$NBK_CACHE/kokkos"
  if [[ -f "$prefix/.complete" ]]; then
    [[ -z $link ]] || ln -sfn "$prefix" "$link"
    log "Kokkos $kokkos_version $flavour: cached at $prefix"
    echo "$flavour $kokkos_version ${link:-$prefix}"
    return
  fi
  local extra=()
  if [[ $flavour == cuda ]]; then
    # nvcc_wrapper runs $CUDA_ROOT/bin/nvcc when CUDA_ROOT is set, and Kokkos' CMake looks
    # for the toolkit there too: one toolkit for the whole build, whatever PATH holds.
    export CUDA_ROOT="$cuda_root"
    extra=(-DCMAKE_CXX_COMPILER="$src/bin/nvcc_wrapper")
  fi
  log "building Kokkos $kokkos_version $flavour from $src ($options)"
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
  [[ -z $link ]] || ln -sfn "$prefix" "$link"
  rm -rf "$build"
  log "Kokkos $kokkos_version $flavour: installed at $prefix"
  echo "$flavour $kokkos_version ${link:-$prefix}"
}

install_packages
choose_kokkos_source
# The C++ standard (NBK_CXX_STANDARD): 17 unless asked, 20 for Kokkos 5, which requires it (and
# CMake 3.22, which the presets' CMake 3.25 already is).
cxx_standard=${NBK_CXX_STANDARD:-17}
[[ $cxx_standard =~ ^(17|20|23)$ ]] || usage_error "NBK_CXX_STANDARD=$cxx_standard: expected 17, 20 or 23"
if [[ ! $kokkos_version =~ ^[34]\. ]]; then
  if [[ -z ${NBK_CXX_STANDARD:-} ]]; then
    cxx_standard=20
    log "Kokkos $kokkos_version requires C++20 and CMake 3.22: C++20"
  elif ((cxx_standard < 20)); then
    usage_error "NBK_CXX_STANDARD=$cxx_standard: Kokkos $kokkos_version requires C++20 (NBK_CXX_STANDARD=20, or leave it unset)"
  fi
fi
mapfile -t flavours < <(printf '%s\n' "${flavours[@]}" | awk '!seen[$0]++')  # mpi and openmp share one
if [[ $kokkos_origin == root ]]; then
  log "Kokkos $kokkos_version from Kokkos_ROOT=$Kokkos_ROOT: none built"
  for f in "${flavours[@]}"; do echo "$f $kokkos_version $Kokkos_ROOT"; done
  exit 0
fi
log "Kokkos $kokkos_version from $(origin_text)${patch_file:+, patched with ${patch_file#"$repo"/}}"

cuda_root="" cuda_arch=""
if [[ " ${flavours[*]} " == *" cuda "* ]]; then
  cuda_root=$(nbk_cuda_root) ||
    die "the cuda flavour needs nvcc: set CUDA_HOME or CUDAToolkit_ROOT, or put nvcc on PATH (looked in /usr/local/cuda too)"
  cuda_arch="${NBK_CUDA_ARCH:-$(detected_cuda_arch)}"
  cuda_arch="${cuda_arch:-$fat_cuda_arch}"
  log "cuda flavour: nvcc from $cuda_root/bin, GPU code for compute capability $cuda_arch"
fi

for f in "${flavours[@]}"; do build_flavour "$f" "$kokkos_src"; done
