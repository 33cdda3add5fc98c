# Exit-code tests of nbk-row-sum (seed 004) and nbk-l2-norm (seed 003): bad sizes and unknown
# variants exit 2 with one line on stderr; small runs verify and write JSON. Included from
# tests/CMakeLists.txt after nbk_app_test is defined.
foreach(name IN ITEMS row_sum l2_norm)
  string(REPLACE "_" "-" program "nbk-${name}")
  foreach(bad IN ITEMS 0 7x0 0x3 7x9x3 -4 abc 2^40x2^40 2^20x2^20 "")
    string(MAKE_C_IDENTIFIER "size_${bad}" id)
    nbk_app_test(${name}.bad_${id} 2 ${program} --size "${bad}")
  endforeach()
  nbk_app_test(${name}.unknown_variant 2 ${program} --variant tree)
endforeach()
nbk_app_test(row_sum.small_run 0 nbk-row-sum --size 17x33 --size 1x1025 --probe-size 4096 --repetitions 2 --seed 3
             --json ${CMAKE_CURRENT_BINARY_DIR}/row_sum_small.json JSON ${CMAKE_CURRENT_BINARY_DIR}/row_sum_small.json)
nbk_app_test(l2_norm.small_run 0 nbk-l2-norm --size 10x2 --size 1001x3 --probe-size 4096 --repetitions 2
             --json ${CMAKE_CURRENT_BINARY_DIR}/l2_norm_small.json JSON ${CMAKE_CURRENT_BINARY_DIR}/l2_norm_small.json)
