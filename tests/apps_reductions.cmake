# Exit-code tests of nbk-sum, nbk-product and nbk-device-info (seeds 001 and 004), in the
# style of the add-one ones: bad input exits 2 with one line on stderr; small runs verify
# and write JSON. Included from tests/CMakeLists.txt after nbk_app_test is defined.
foreach(bad IN ITEMS 0 -5 abc 99999999999999 2^70 "")
  string(MAKE_C_IDENTIFIER "size_${bad}" id)
  nbk_app_test(sum.bad_${id} 2 nbk-sum --size "${bad}")
  nbk_app_test(product.bad_${id} 2 nbk-product --size "${bad}")
endforeach()
nbk_app_test(sum.bad_seed 2 nbk-sum --seed abc)
nbk_app_test(sum.unknown_variant 2 nbk-sum --variant nope)
nbk_app_test(sum.bad_repetitions 2 nbk-sum --repetitions 0)
nbk_app_test(sum.unknown_option 2 nbk-sum --frobnicate)
nbk_app_test(sum.unwritable_json 2 nbk-sum --size 10 --json /nonexistent/dir/out.json)
nbk_app_test(product.bad_seed 2 nbk-product --seed -1)
nbk_app_test(product.unknown_variant 2 nbk-product --variant nope)
nbk_app_test(product.unknown_option 2 nbk-product --frobnicate)
nbk_app_test(device_info.unknown_option 2 nbk-device-info --size 3)
nbk_app_test(device_info.unwritable_json 2 nbk-device-info --json /nonexistent/dir/out.json)
nbk_app_test(sum.small_run 0 nbk-sum --size 100003 --probe-size 4096 --repetitions 2
             --json ${CMAKE_CURRENT_BINARY_DIR}/sum_small.json JSON ${CMAKE_CURRENT_BINARY_DIR}/sum_small.json)
nbk_app_test(product.small_run 0 nbk-product --size 100003 --probe-size 4096 --repetitions 2
             --json ${CMAKE_CURRENT_BINARY_DIR}/product_small.json JSON ${CMAKE_CURRENT_BINARY_DIR}/product_small.json)
nbk_app_test(product.representable_run 0 nbk-product --size 300 --probe-size 4096 --repetitions 2)
nbk_app_test(device_info.run 0 nbk-device-info
             --json ${CMAKE_CURRENT_BINARY_DIR}/device_info.json JSON ${CMAKE_CURRENT_BINARY_DIR}/device_info.json)
# Seed 002's maximum: shapes as sizes, bad shapes refused, a small run with its sweep.
foreach(bad IN ITEMS 0 7x0x3 7x9 -4 abc 2^21x2^21x2^21 "")
  string(MAKE_C_IDENTIFIER "size_${bad}" id)
  nbk_app_test(maximum.bad_${id} 2 nbk-maximum --size "${bad}")
endforeach()
nbk_app_test(maximum.unknown_variant 2 nbk-maximum --variant warp-drive)
nbk_app_test(maximum.unknown_space 2 nbk-maximum --space quantum)
nbk_app_test(maximum.bad_sweep_to 2 nbk-maximum --sweep-to 0)
nbk_app_test(maximum.small_run 0 nbk-maximum --size 7x9x13 --size 32 --probe-size 4096 --repetitions 2 --sweep-to 2^14
             --json ${CMAKE_CURRENT_BINARY_DIR}/maximum_small.json JSON ${CMAKE_CURRENT_BINARY_DIR}/maximum_small.json)

# Seed 004's sin(x) * exp(y): bad input refused, a small run with its sweep.
foreach(bad IN ITEMS 0 -5 abc 1x2 2^70)
  string(MAKE_C_IDENTIFIER "size_${bad}" id)
  nbk_app_test(sin_exp.bad_${id} 2 nbk-sin-exp --size "${bad}")
endforeach()
nbk_app_test(sin_exp.unknown_variant 2 nbk-sin-exp --variant f16)
nbk_app_test(sin_exp.small_run 0 nbk-sin-exp --size 1 --size 1025 --probe-size 4096 --repetitions 2 --sweep-to 2^12
             --json ${CMAKE_CURRENT_BINARY_DIR}/sin_exp_small.json JSON ${CMAKE_CURRENT_BINARY_DIR}/sin_exp_small.json)

# Seed 003's hypot: bad input refused, a small run.
foreach(bad IN ITEMS 0 -5 abc 2^70)
  string(MAKE_C_IDENTIFIER "size_${bad}" id)
  nbk_app_test(hypot.bad_${id} 2 nbk-hypot --size "${bad}")
endforeach()
nbk_app_test(hypot.unknown_variant 2 nbk-hypot --variant naive)
nbk_app_test(hypot.small_run 0 nbk-hypot --size 1 --size 1025 --probe-size 4096 --repetitions 2 --seed 7
             --json ${CMAKE_CURRENT_BINARY_DIR}/hypot_small.json JSON ${CMAKE_CURRENT_BINARY_DIR}/hypot_small.json)
