# Checks that a program's host loops call the vector forms of libm's functions, i.e. that the
# Kokkos Serial/OpenMP loops over them were vectorized (lib/nbk/core/host_vector_math.hpp):
# glibc names those _ZGV<isa>N<lanes>v_<function>, so the program must import one per function.
#   cmake -DNM=<nm> -DPROGRAM=<path> "-DFUNCTIONS=expf;sinf" -P vectorized.cmake
execute_process(COMMAND ${NM} -D ${PROGRAM} RESULT_VARIABLE rc OUTPUT_VARIABLE symbols ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -D ${PROGRAM} failed (${rc}): ${err}")
endif()
foreach(function IN LISTS FUNCTIONS)
  if(NOT symbols MATCHES "_ZGV[a-z]N[0-9]+v_${function}[@\n]")
    message(FATAL_ERROR "${PROGRAM} calls no vector form of ${function}: its loops over ${function} were not vectorized")
  endif()
  string(REGEX MATCHALL "_ZGV[a-z]N[0-9]+v_${function}[@\n]" found "${symbols}")
  message(STATUS "${function}: ${found}")
endforeach()
