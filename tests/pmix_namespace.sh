#!/usr/bin/env bash
# run.sh's mpi step (scripts/device-run.sh) with Open MPI packed as scripts/pack-device.sh --mpi
# packs it, on a machine whose own PMIx keeps a foreign plugin where PMIx was built to look
# (/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix): the GPU machines of the H100 runs, whose PMIx
# plugins printed "dlopen error" from orterun and every rank. A mount namespace puts a plugin
# that cannot load (an undefined symbol, as there) over the system's folder; the step must pass:
# both rank counts verified, bad input exit 2 from every rank, and no PMIx load error.
# Usage: pmix_namespace.sh SOURCE_DIR NBK_ADD_ONE NBK_SUM   (the mpi preset's programs; needs
# root, unshare and Open MPI; exit 77, skipped, without them)
set -euo pipefail
source_dir=$1 add_one=$2 sum=$3
source "$source_dir/scripts/common.sh"
system_plugins=/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix
if [[ $(id -u) != 0 ]] || ! command -v unshare >/dev/null || ! command -v orterun >/dev/null || [[ ! -d $system_plugins ]]; then
  echo "pmix_namespace: skipped (needs root, unshare, Open MPI and $system_plugins)"; exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dev=$work/.device stage=$work/stage
mkdir -p "$dev/mpi/bin" "$stage/lib" "$work/foreign"
cp "$add_one" "$sum" "$dev/mpi/bin/"
pack_open_mpi "$dev/mpi"
cp "$source_dir/scripts/device-run.sh" "$dev/run.sh"
printf 'extern int pmix_foreign_symbol;\nint f(void) { return pmix_foreign_symbol; }\n' >"$work/foreign.c"
cc -shared -fPIC -o "$work/foreign/pmix_mca_pcompress_zlib.so" "$work/foreign.c"
rc=0
unshare -m bash -c "mount --bind '$work/foreign' '$system_plugins' &&
  OMP_NUM_THREADS=1 MPI_ARGS='--size 100003 --repetitions 1 --probe-size 4096' bash '$dev/run.sh' mpi" \
  >"$work/log" 2>&1 || rc=$?
fail() { tail -30 "$work/log" >&2; echo "pmix_namespace: $*" >&2; exit 1; }
((rc == 0)) || fail "run.sh mpi exited $rc"
grep -q "mpi: add_one on 2 rank(s)" "$work/log" || fail "the step did not run the two-rank add-one"
! grep -qE "dlopen error|unable to open .*pmix_mca|usable compression library" "$work/log" ||
  fail "PMIx loaded the system's plugin folder: $(grep -m1 -E 'dlopen error|unable to open' "$work/log")"
echo "pmix_namespace: run.sh mpi passed with a foreign PMIx plugin at $system_plugins, no load error"
