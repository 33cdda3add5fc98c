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
