# Runs every benchmark once or twice (tiny min time) and checks the JSON it writes:
# the Kokkos context is there, and no benchmark reported an error (a failed verification).
#   cmake -DBENCH=<nbk_bench> -DFILTER=<regex> -DOUT=<json> -P smoke.cmake
execute_process(COMMAND ${BENCH} --benchmark_filter=${FILTER} --benchmark_min_time=0.001
                        --benchmark_out=${OUT} --benchmark_out_format=json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nbk_bench exited with ${rc}\n${out}\n${err}")
endif()
file(READ "${OUT}" json)
string(JSON version ERROR_VARIABLE missing GET "${json}" context kokkos_version)
if(missing)
  message(FATAL_ERROR "no context.kokkos_version in ${OUT}: ${missing}")
endif()
string(JSON count LENGTH "${json}" benchmarks)
if(count EQUAL 0)
  message(FATAL_ERROR "no benchmark matched '${FILTER}'")
endif()
if(json MATCHES "\"error_occurred\": true")
  message(FATAL_ERROR "a benchmark reported an error:\n${out}\n${err}")
endif()
message(STATUS "${count} benchmarks ran, Kokkos ${version}")
