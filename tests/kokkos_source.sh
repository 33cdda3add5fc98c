#!/usr/bin/env bash
# The bootstrap's Kokkos choice on bad input, and its deb-src lists (ctest scripts.kokkos_source).
# Bad input (a missing NBK_KOKKOS_SOURCE, a checksum mismatch, a folder that is no Kokkos, a
# Kokkos_ROOT that is no install) exits 2 with one line on stderr naming the value, before
# any package or build; apt sources in deb822 form and in the classic form both give deb-src.
# Usage: tests/kokkos_source.sh <repository root>
set -uo pipefail
# Each case sets what it tests: nothing from the caller's environment (CI exports a 4.6 source and
# its checksum for its own runs) may change the answer.
unset Kokkos_ROOT NBK_KOKKOS_SOURCE NBK_KOKKOS_SHA256 NBK_KOKKOS_DOWNLOAD NBK_CXX_STANDARD
repo=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }

# expect_usage_error <stderr regex> VAR=value...: the bootstrap exits 2, one stderr line.
expect_usage_error() {
  local want=$1; shift
  local err rc=0
  err=$(env NBK_NO_APT=1 NBK_KOKKOS_DOWNLOAD=0 NBK_CACHE="$tmp/cache" "$@" \
        bash "$repo/scripts/bootstrap.sh" openmp 2>&1 >/dev/null) || rc=$?
  if ((rc != 2)); then fail "$*: exit $rc, expected 2 ($err)"; return; fi
  if [[ $(wc -l <<<"$err") != 1 ]]; then fail "$*: more than one line on stderr: $err"; return; fi
  [[ $err =~ $want ]] || fail "$*: stderr '$err' does not match '$want'"
  echo "ok: $* -> $err"
}

echo "not a tarball" > "$tmp/junk.tar.gz"
mkdir -p "$tmp/notkokkos" "$tmp/kokkos-9.9.99"
echo "project(x)" > "$tmp/notkokkos/CMakeLists.txt"
printf 'set(Kokkos_VERSION_MAJOR 9)\nset(Kokkos_VERSION_MINOR 9)\nset(Kokkos_VERSION_PATCH 99)\n' \
  > "$tmp/kokkos-9.9.99/CMakeLists.txt"
tar -czf "$tmp/k.tar.gz" -C "$tmp" kokkos-9.9.99

expect_usage_error "NBK_KOKKOS_SOURCE=$tmp/missing.tar.gz: no such file" NBK_KOKKOS_SOURCE="$tmp/missing.tar.gz"
expect_usage_error "NBK_KOKKOS_SOURCE=$tmp/k.tar.gz: sha256 [0-9a-f]{64}, expected 00ff" \
  NBK_KOKKOS_SOURCE="$tmp/k.tar.gz" NBK_KOKKOS_SHA256=00ff
expect_usage_error "NBK_KOKKOS_SOURCE=$tmp/junk.tar.gz: not a tarball" NBK_KOKKOS_SOURCE="$tmp/junk.tar.gz"
expect_usage_error "NBK_KOKKOS_SOURCE=$tmp/notkokkos: not a Kokkos source" NBK_KOKKOS_SOURCE="$tmp/notkokkos"
expect_usage_error "Kokkos_ROOT=$tmp/notkokkos: not a Kokkos install" Kokkos_ROOT="$tmp/notkokkos"
expect_usage_error "Kokkos_ROOT=$tmp/nowhere: no such folder" Kokkos_ROOT="$tmp/nowhere"

# A Kokkos_ROOT install: no Kokkos built, its version and prefix printed per flavour.
mkdir -p "$tmp/root/lib/cmake/Kokkos"
echo 'set(PACKAGE_VERSION "4.6.1")' > "$tmp/root/lib/cmake/Kokkos/KokkosConfigVersion.cmake"
out=$(NBK_NO_APT=1 NBK_CACHE="$tmp/cache" Kokkos_ROOT="$tmp/root" bash "$repo/scripts/bootstrap.sh" mpi serial 2>/dev/null)
[[ $out == "openmp 4.6.01 $tmp/root"$'\n'"serial 4.6.01 $tmp/root" ]] || fail "Kokkos_ROOT: printed '$out'"
[[ ! -e $tmp/cache/kokkos ]] || fail "Kokkos_ROOT: the bootstrap built or linked a Kokkos"

# A Kokkos newer than the two CI tests is accepted and its version printed (issue 61); Kokkos 5
# requires C++20, so a lower standard asked for is refused; a standard that is none, too.
for version in 4.7.1 5.0.0 5.2.2; do
  mkdir -p "$tmp/root-$version/lib64/cmake/Kokkos"
  echo "set(PACKAGE_VERSION \"$version\")" > "$tmp/root-$version/lib64/cmake/Kokkos/KokkosConfigVersion.cmake"
  out=$(NBK_NO_APT=1 NBK_CACHE="$tmp/cache" Kokkos_ROOT="$tmp/root-$version" bash "$repo/scripts/bootstrap.sh" openmp 2>/dev/null)
  want="openmp ${version%.*}.$(printf %02d "${version##*.}") $tmp/root-$version"
  [[ $out == "$want" ]] && echo "ok: Kokkos_ROOT with Kokkos $version -> $out" || fail "Kokkos_ROOT $version: printed '$out', expected '$want'"
done
expect_usage_error "NBK_CXX_STANDARD=17: Kokkos 5.0.00 requires C\\+\\+20" Kokkos_ROOT="$tmp/root-5.0.0" NBK_CXX_STANDARD=17
expect_usage_error "NBK_CXX_STANDARD=14: expected 17, 20 or 23" NBK_CXX_STANDARD=14 Kokkos_ROOT="$tmp/root"

# deb-src lists from both forms of apt sources.
deb_src() {  # <etc folder>: the deb-src lines the bootstrap derives from it
  (log() { :; }; die() { echo "die: $*"; exit 1; }; repo=$repo NBK_CACHE=$tmp/cache
   source "$repo/scripts/kokkos-source.sh"; rm -rf "$tmp/parts"; mkdir -p "$tmp/parts"
   write_deb_src_lists "$tmp/parts" "$1" && cat "$tmp/parts"/*)
}
mkdir -p "$tmp/deb822/sources.list.d" "$tmp/classic/sources.list.d" "$tmp/none/sources.list.d"
printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\n' \
  > "$tmp/deb822/sources.list.d/debian.sources"
printf '# deb http://old.example/debian bookworm main\ndeb [arch=amd64] http://deb.debian.org/debian bookworm main\ndeb-src http://deb.debian.org/debian bookworm main\n' \
  > "$tmp/classic/sources.list"
[[ $(deb_src "$tmp/deb822") == *"Types: deb-src"*"URIs: http://deb.debian.org/debian"* ]] ||
  fail "deb822 sources: $(deb_src "$tmp/deb822")"
[[ $(deb_src "$tmp/classic") == "deb-src [arch=amd64] http://deb.debian.org/debian bookworm main" ]] ||
  fail "classic sources.list: $(deb_src "$tmp/classic")"
[[ $(deb_src "$tmp/none") == "die: no Debian apt source found"* ]] || fail "no sources: $(deb_src "$tmp/none")"
((failed == 0)) && echo "all passed"
exit "$failed"
