#!/usr/bin/env bash
# cmake/CxxStandard.cmake's answers (ctest scripts.cxx_standard) without a Kokkos 5 to configure
# against: each case runs it in CMake's script mode with what find_package(Kokkos) would have set
# (Kokkos_VERSION; Kokkos_CXX_STANDARD, which 4.x records and 3.4 does not) and the standard asked
# for, and checks the standard chosen or the one-line refusal.
# Usage: tests/cxx_standard.sh <repository root>
set -uo pipefail
repo=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'include("%s/cmake/CxxStandard.cmake")\nmessage("C++${CMAKE_CXX_STANDARD}")\n' "$repo" > "$tmp/driver.cmake"
failed=0
# expect <Kokkos_VERSION> <Kokkos_CXX_STANDARD> <CMAKE_CXX_STANDARD asked> <output regex>
expect() {
  local args=(-DKokkos_VERSION="$1" -DKokkos_DIR=/opt/kokkos) out
  [[ -z $2 ]] || args+=(-DKokkos_CXX_STANDARD="$2")
  [[ -z $3 ]] || args+=(-DCMAKE_CXX_STANDARD="$3")
  out=$(cmake "${args[@]}" -P "$tmp/driver.cmake" 2>&1 | sed -n '/[^ ]/p' | tr -s ' \n' ' ')
  if [[ $out =~ $4 ]]; then echo "ok: Kokkos $1 (built in C++${2:-?}), asked ${3:-nothing}: $out"
  else echo "FAIL: Kokkos $1 (built in C++${2:-?}), asked ${3:-nothing}: '$out' does not match '$4'"; failed=1; fi
}
expect 3.4.01 "" "" '^C\+\+17 $'
expect 4.6.1 17 "" '^C\+\+17 $'
expect 4.6.1 20 "" '^C\+\+20 $'            # its targets would compile users in C++20 anyway
expect 4.6.1 17 20 '^C\+\+20 $'
expect 5.0.0 20 "" '^C\+\+20 $'            # Kokkos 5 requires C++20: chosen without being asked
expect 5.2.2 "" "" '^C\+\+20 $'
expect 5.2.2 20 17 'CMAKE_CXX_STANDARD=17: Kokkos 5.2.2 at /opt/kokkos needs C\+\+20; configure with -DCMAKE_CXX_STANDARD=20 or leave it unset'
expect 4.6.1 20 17 'needs C\+\+20'
expect 4.6.1 17 14 'CMAKE_CXX_STANDARD=14: expected 17, 20 or 23'
((failed == 0)) && echo "all passed"
exit $failed
