# Builds a target that must build and one that must not, and checks why the second failed.
#   cmake -DBUILD=<build dir> -DBUILDS=<target> -DFAILS=<target> -DBECAUSE=<regex> -P expect_build_failure.cmake
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD} --target ${BUILDS} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${BUILDS} should build, but:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD} --target ${FAILS} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "${FAILS} built, but should not have")
endif()
if(NOT out MATCHES "${BECAUSE}")
  message(FATAL_ERROR "${FAILS} failed to build, but not because of '${BECAUSE}':\n${out}")
endif()
message(STATUS "${BUILDS} builds; ${FAILS} does not, as expected: ${BECAUSE}")
