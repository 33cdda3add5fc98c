# Checks GCC's vectorizer report (-fopt-info-vec-optimized=REPORT) for a loop it must name.
#   cmake -DREPORT=<file> -DLOOP=<regex> -P vectorized_report.cmake
if(NOT EXISTS "${REPORT}")
  message(FATAL_ERROR "no vectorizer report at ${REPORT}: build the tests first")
endif()
file(STRINGS "${REPORT}" found REGEX "${LOOP}")
if(NOT found)
  message(FATAL_ERROR "${REPORT} has no line matching '${LOOP}': the loop was not vectorized")
endif()
message(STATUS "${found}")
