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
