# cmake --install into a fresh prefix, then what a user runs from there: a program (a small
# verified run writing JSON), a tool reading that JSON, and the docs in place.
#   cmake -DBUILD_DIR=<build> -DPREFIX=<empty folder to be> -DPYTHON=<python3 or empty> -P install.cmake
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${PREFIX}: exit ${rc}\n${out}\n${err}")
endif()
foreach(path IN ITEMS bin/nbk-add-one bin/nbk-histogram bin/nbk-report bin/nbk-compare
                      share/nbk/experiments.txt share/doc/nbk/README.md share/doc/nbk/kokkos.md)
  if(NOT EXISTS "${PREFIX}/${path}")
    message(FATAL_ERROR "cmake --install left no ${PREFIX}/${path}")
  endif()
endforeach()

# Run from elsewhere, so that nothing resolves through the build or the source tree.
set(json "${PREFIX}/add_one.json")
execute_process(COMMAND "${PREFIX}/bin/nbk-add-one" --size 1000 --probe-size 4096 --json "${json}"
                WORKING_DIRECTORY "${PREFIX}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS "${json}")
  message(FATAL_ERROR "installed nbk-add-one: exit ${rc}\n${out}\n${err}")
endif()
if(PYTHON)
  execute_process(COMMAND "${PYTHON}" "${PREFIX}/bin/nbk-compare" "${json}"
                  WORKING_DIRECTORY "${PREFIX}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "add_one")
    message(FATAL_ERROR "installed nbk-compare on ${json}: exit ${rc}\n${out}\n${err}")
  endif()
endif()
message(STATUS "installed under ${PREFIX}: nbk-add-one ran and verified, nbk-compare read its JSON")
