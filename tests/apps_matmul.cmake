# Exit-code tests of seed 003's matrix product: sizes are m x n x p (one N: a cube); bad ones
# exit 2 with one line on stderr; a small run at odd and square sizes verifies and writes JSON.
# Included from tests/CMakeLists.txt after nbk_app_test is defined.
foreach(bad IN ITEMS 0 7x0x3 7x9 -4 abc 2^21 2^20 2^62x1x1 "")
  string(MAKE_C_IDENTIFIER "size_${bad}" id)
  nbk_app_test(matmul.bad_${id} 2 nbk-matmul --size "${bad}")
endforeach()
nbk_app_test(matmul.unknown_variant 2 nbk-matmul --variant strassen)
nbk_app_test(matmul.small_run 0 nbk-matmul --size 17x33x5 --size 1 --size 70 --probe-size 4096 --repetitions 2 --seed 9
             --json ${CMAKE_CURRENT_BINARY_DIR}/matmul_small.json JSON ${CMAKE_CURRENT_BINARY_DIR}/matmul_small.json)
