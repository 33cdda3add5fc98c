# Shared helpers for the project's scripts (sourced, not run).
NBK_CACHE="${NBK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/nbk}"
export NBK_CACHE

log() { echo "[nbk] $*" >&2; }
die() { echo "[nbk] error: $*" >&2; exit 1; }

# True when this machine can run the CUDA build: a working GPU and nvcc to build for it.
have_gpu() {
  command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 &&
    { command -v nvcc >/dev/null 2>&1 || [[ -x /usr/local/cuda/bin/nvcc ]]; }
}
# Bad command-line input: one line, exit code 2 (the project's convention).
usage_error() { echo "[nbk] error: $*" >&2; exit 2; }
