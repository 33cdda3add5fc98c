# Shared helpers for the project's scripts (sourced, not run).
NBK_CACHE="${NBK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/nbk}"
export NBK_CACHE

log() { echo "[nbk] $*" >&2; }
die() { echo "[nbk] error: $*" >&2; exit 1; }

# Prints the CUDA toolkit to build with (the directory whose bin/ holds nvcc), found the
# usual ways, in this order: CUDA_HOME, CUDAToolkit_ROOT, nvcc on PATH, /usr/local/cuda.
# Fails, printing nothing, when there is none; a CUDA_HOME or CUDAToolkit_ROOT that is set
# but has no bin/nvcc is reported, not skipped, since the user asked for that toolkit.
nbk_cuda_root() {
  local var dir nvcc
  for var in CUDA_HOME CUDAToolkit_ROOT; do
    dir="${!var:-}"
    [[ -n "$dir" ]] || continue
    if [[ -x "$dir/bin/nvcc" ]]; then echo "$dir"; return 0; fi
    log "$var=$dir has no bin/nvcc"
    return 1
  done
  if nvcc=$(command -v nvcc 2>/dev/null); then
    nvcc=$(readlink -f "$nvcc")            # /usr/local/cuda -> /usr/local/cuda-13.0
    dirname "$(dirname "$nvcc")"
    return 0
  fi
  [[ -x /usr/local/cuda/bin/nvcc ]] || return 1
  echo /usr/local/cuda
}

# True when this machine can run the CUDA build: a working GPU and nvcc to build for it.
have_gpu() {
  command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 &&
    nbk_cuda_root >/dev/null
}
# Bad command-line input: one line, exit code 2 (the project's convention).
usage_error() { echo "[nbk] error: $*" >&2; exit 2; }

# The bootstrap flavour (Kokkos install) a preset builds with.
nbk_flavour() { case "$1" in mpi) echo openmp ;; cuda-mpi) echo cuda ;; *) echo "$1" ;; esac; }

# Runs scripts/bootstrap.sh for these presets and keeps, per flavour, the Kokkos version and
# the Kokkos_ROOT to configure with. With Kokkos_ROOT set the bootstrap builds no Kokkos.
declare -gA NBK_KOKKOS_ROOT NBK_KOKKOS_VERSION
nbk_bootstrap() {
  local out flavour version root
  out=$(bash "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh" "$@") || return $?
  while read -r flavour version root; do
    [[ -n $root ]] || continue
    NBK_KOKKOS_ROOT[$flavour]=$root NBK_KOKKOS_VERSION[$flavour]=$version
  done <<<"$out"
}

# "-c++20" where NBK_CXX_STANDARD asks for another standard than the default 17, else nothing: a
# build folder's and a test summary's name, so that two standards never share one.
nbk_standard_suffix() {
  [[ -z ${NBK_CXX_STANDARD:-} || $NBK_CXX_STANDARD == 17 ]] || echo "-c++$NBK_CXX_STANDARD"
}

# Where a preset builds: build/<preset> with the default Kokkos, build/<preset>-kokkos-<version>
# with one the user named (Kokkos_ROOT or NBK_KOKKOS_SOURCE), so the two never share a folder;
# either with nbk_standard_suffix.
nbk_build_dir() {
  if [[ -n "${Kokkos_ROOT:-}${NBK_KOKKOS_SOURCE:-}" ]]; then
    echo "build/$1-kokkos-${NBK_KOKKOS_VERSION[$(nbk_flavour "$1")]}$(nbk_standard_suffix)"
  else
    echo "build/$1$(nbk_standard_suffix)"
  fi
}

# Configures a preset into a folder with the Kokkos nbk_bootstrap found; a folder configured
# with another Kokkos is configured afresh (CMake would keep the old one's paths).
nbk_configure() {
  local preset=$1 dir=$2 root cached fresh=()
  root=${NBK_KOKKOS_ROOT[$(nbk_flavour "$preset")]:-}
  [[ -n $root ]] || die "no Kokkos for preset $preset (did nbk_bootstrap run for it?)"
  if [[ -f $dir/CMakeCache.txt ]]; then
    cached=$(sed -nE 's/^Kokkos_ROOT:[A-Z]+=//p' "$dir/CMakeCache.txt")
    [[ $cached == "$root" ]] || fresh=(--fresh)
  fi
  # NBK_CCACHE=1 (CI) compiles through ccache, 0 without it; unset: as the folder was (cmake/Ccache.cmake).
  local ccache=() standard=()
  [[ -z ${NBK_CCACHE:-} ]] || ccache=(-DNBK_CCACHE="$([[ $NBK_CCACHE == 1 ]] && echo ON || echo OFF)")
  # NBK_CXX_STANDARD: the project in the standard its Kokkos was built in (unset: cmake/CxxStandard.cmake decides).
  [[ -z ${NBK_CXX_STANDARD:-} ]] || standard=(-DCMAKE_CXX_STANDARD="$NBK_CXX_STANDARD")
  cmake --preset "$preset" -B "$dir" -DKokkos_ROOT="$root" "${ccache[@]}" "${standard[@]}" "${fresh[@]}" >/dev/null
}

# The targets a preset's build preset names, one a line (none: it builds everything): the mpi
# preset's tests need nbk_tests and two programs (presets/mpi.json).
nbk_preset_targets() {
  python3 -c 'import glob, json, sys
for path in glob.glob(sys.argv[2] + "/*.json"):
    for build in json.load(open(path)).get("buildPresets", []):
        if build["name"] == sys.argv[1] and build.get("targets"):
            print(*build["targets"], sep="\n")' "$1" "$(dirname "${BASH_SOURCE[0]}")/../presets"
}

# pack-device.sh's packing, shared with tests/pmix_namespace.sh.
# Copies into $1 every shared library that the files after it load, except glibc's own, the
# driver's and those the pack already holds in $stage/lib (the caller's $stage).
copy_loaded_libraries() {
  local to=$1 lib; shift
  for lib in $( { ldd "$@" 2>/dev/null || true; } | awk '/=> \//{print $3}' | sort -u); do
    case "$(basename "$lib")" in
      libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|ld-linux*|libcuda.so*) ;;
      # cuBLAS (580 MB, nine times what the device tool carries) comes with the GPU machine's
      # CUDA 13 toolkit; run.sh finds it there.
      libcublas.so*|libcublasLt.so*) ;;
      *) [[ -e $stage/lib/$(basename "$lib") ]] || cp -L "$lib" "$to/" ;;
    esac
  done
}

# Open MPI's runtime, relocated into $1: orterun, the Open MPI and PMIx trees as Debian lays
# them out under /usr (libraries, plugins, help texts), and every library those and the MPI
# programs load that the target may lack. OPAL_PREFIX and PMIX_INSTALL_PREFIX point Open MPI
# there (run.sh sets them); checked here in a mount namespace with the system's copies hidden.
pack_open_mpi() {
  local to=$1 multiarch=lib/x86_64-linux-gnu
  local orterun; orterun=$(readlink -f "$(command -v orterun)") || die "no orterun: bootstrap.sh mpi installs Open MPI"
  local prefix; prefix=$(dirname "$(dirname "$orterun")")  # /usr
  mkdir -p "$to/openmpi/bin" "$to/openmpi/$multiarch" "$to/openmpi/share" "$to/lib"
  cp "$orterun" "$to/openmpi/bin/"
  cp -a "$prefix/$multiarch/openmpi" "$prefix/$multiarch/pmix2" "$to/openmpi/$multiarch/"
  cp -a "$prefix/share/openmpi" "$to/openmpi/share/"
  rm -rf "$to/openmpi/$multiarch"/{openmpi,pmix2}/include "$to/openmpi/$multiarch"/{openmpi,pmix2}/lib/*.a
  local plugins; mapfile -t plugins < <(find "$to/openmpi" -name '*.so*' -type f)
  copy_loaded_libraries "$to/lib" "$to/openmpi/bin/orterun" "$to/bin"/* "${plugins[@]}"  # run.sh loads $stage/lib too
}

# The tools a device pack carries (run.sh's run.json, report and parity): pack-device.sh and its
# test (tests/device_run.sh) both stage this list, so a tool left out fails the test, not the GPU run
# (the H200 run of 6549d37 wrote no run.json: nbk-run-record was not in the pack).
stage_device_tools() {
  local source=$1 to=$2
  mkdir -p "$to/tools"
  cp -r "$source"/tools/{nbk-report,nbk-compare,nbk-run-record,nbk_compare,nbk_numpy} "$to/tools/"
  rm -rf "$to"/tools/*/__pycache__
}
