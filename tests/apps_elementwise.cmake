# Exit-code tests of the element-wise programs (seeds 002, 003, 004): bad sizes and variants
# exit 2 with one line on stderr; small runs at odd sizes verify and write JSON. Included
# from tests/CMakeLists.txt after nbk_app_test is defined.
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

# Seed 003's gaussian density, polar distance, add and the guide's MatAdd.
foreach(program IN ITEMS gaussian polar add)
  foreach(bad IN ITEMS 0 -5 abc 2^70)
    string(MAKE_C_IDENTIFIER "size_${bad}" id)
    nbk_app_test(${program}.bad_${id} 2 nbk-${program} --size "${bad}")
  endforeach()
  nbk_app_test(${program}.unknown_variant 2 nbk-${program} --variant naive)
endforeach()
foreach(bad IN ITEMS 0 7x0 7x9x3 -4 abc 2^40x2^40 "")
  string(MAKE_C_IDENTIFIER "size_${bad}" id)
  nbk_app_test(mat_add.bad_${id} 2 nbk-mat-add --size "${bad}")
endforeach()
nbk_app_test(mat_add.unknown_variant 2 nbk-mat-add --variant mdrange-32x32)
nbk_app_test(gaussian.small_run 0 nbk-gaussian --size 1 --size 1025 --probe-size 4096 --repetitions 2 --seed 3
             --json ${CMAKE_CURRENT_BINARY_DIR}/gaussian_small.json JSON ${CMAKE_CURRENT_BINARY_DIR}/gaussian_small.json)
nbk_app_test(polar.small_run 0 nbk-polar --size 1 --size 1025 --probe-size 4096 --repetitions 2
             --json ${CMAKE_CURRENT_BINARY_DIR}/polar_small.json JSON ${CMAKE_CURRENT_BINARY_DIR}/polar_small.json)
nbk_app_test(add.small_run 0 nbk-add --size 4 --size 3841 --probe-size 4096 --repetitions 2
             --json ${CMAKE_CURRENT_BINARY_DIR}/add_small.json JSON ${CMAKE_CURRENT_BINARY_DIR}/add_small.json)
nbk_app_test(mat_add.small_run 0 nbk-mat-add --size 17x33 --size 64 --probe-size 4096 --repetitions 2
             --json ${CMAKE_CURRENT_BINARY_DIR}/mat_add_small.json JSON ${CMAKE_CURRENT_BINARY_DIR}/mat_add_small.json)

# Seed 003's counter and histogram.
foreach(program IN ITEMS counter histogram)
  foreach(bad IN ITEMS 0 -5 abc 2^70 "")
    string(MAKE_C_IDENTIFIER "size_${bad}" id)
    nbk_app_test(${program}.bad_${id} 2 nbk-${program} --size "${bad}")
  endforeach()
  nbk_app_test(${program}.unknown_variant 2 nbk-${program} --variant racy-ish)
endforeach()
nbk_app_test(counter.small_run 0 nbk-counter --size 1 --size 100003 --probe-size 4096 --repetitions 3
             --json ${CMAKE_CURRENT_BINARY_DIR}/counter_small.json JSON ${CMAKE_CURRENT_BINARY_DIR}/counter_small.json)
nbk_app_test(histogram.small_run 0 nbk-histogram --size 1 --size 65537 --probe-size 4096 --repetitions 2 --seed 5
             --json ${CMAKE_CURRENT_BINARY_DIR}/histogram_small.json JSON ${CMAKE_CURRENT_BINARY_DIR}/histogram_small.json)

# The injected bug runs only with --inject-bug; a build with Kokkos' bounds checks catches its
# first write below the histogram (any other build corrupts memory: no test runs it there).
nbk_app_test(histogram.injected_bug_needs_the_flag 2 nbk-histogram --size 10 --variant unchecked-document-100)
nbk_app_test(histogram.inject_bug_runs_no_correct_variant 2 nbk-histogram --size 10 --inject-bug --variant atomic-100)
if("DEBUG_BOUNDS_CHECK" IN_LIST Kokkos_OPTIONS)
  nbk_app_test(histogram.injected_bug_caught_by_bounds_check "Subprocess aborted" nbk-histogram --inject-bug
               --size 1000 --probe-size 4096 --repetitions 1 STDERR "View bounds error of view nbk::histogram::counts")
endif()

# Seed 003's Monte-Carlo pi: SxK sizes, at most INT_MAX streams.
foreach(bad IN ITEMS 0 0x5 5x0 -5 abc 3000000000x1 2^70 "")
  string(MAKE_C_IDENTIFIER "size_${bad}" id)
  nbk_app_test(pi.bad_${id} 2 nbk-pi --size "${bad}")
endforeach()
nbk_app_test(pi.unknown_variant 2 nbk-pi --variant xorshift32)
nbk_app_test(pi.bad_seed 2 nbk-pi --size 4x4 --seed -1)
nbk_app_test(pi.small_run 0 nbk-pi --size 1x1 --size 1536x100 --probe-size 4096 --repetitions 2 --seed 3
             --json ${CMAKE_CURRENT_BINARY_DIR}/pi_small.json JSON ${CMAKE_CURRENT_BINARY_DIR}/pi_small.json)
