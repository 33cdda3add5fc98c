# Checks that a kernel's host loop was vectorized, on the machine code the program links: in the
# disassembly of FILE (a workload's library; the programs themselves are stripped, so their
# functions have no names), the functions whose demangled name matches one of FUNCTIONS must,
# for every one of FUNCTIONS, include at least one that holds an instruction matching
# INSTRUCTIONS (a packed one: vsqrtps, vaddps, vmaxps on xmm, ymm or zmm, as the build's -march
# gives; or a call's relocation, such as libmvec's _ZGVdN8v_expf, which -r lists under the call).
#   cmake -DOBJDUMP=<objdump> -DFILE=<lib.a> "-DFUNCTIONS=regex;regex" "-DINSTRUCTIONS=regex" -DWHAT=<name>
#         -P vectorized_code.cmake
# Each regex is CMake's, matched against objdump -d -C's lines: a function's header
# "0000000000000000 <demangled name>:" and an instruction "  1a:\tvsqrtps %zmm2,%zmm2".
# The listing goes to a file of the check's own (WHAT, its test's name: checks run side by side).
string(MAKE_C_IDENTIFIER "vectorized_code_${WHAT}" listing)
set(listing "${CMAKE_CURRENT_BINARY_DIR}/${listing}.txt")
execute_process(COMMAND ${OBJDUMP} -d -r -C --no-show-raw-insn ${FILE} RESULT_VARIABLE rc OUTPUT_FILE ${listing}
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${OBJDUMP} -d ${FILE} failed (${rc}): ${err}")
endif()
# Only the headers and the instructions sought: the listing is megabytes long.
file(STRINGS ${listing} lines REGEX "^[0-9a-f]+ <.*>:$|${INSTRUCTIONS}")
file(REMOVE ${listing})
foreach(function IN LISTS FUNCTIONS)
  set(named 0)
  set(found "")
  set(current "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^[0-9a-f]+ <(.*)>:$")
      set(current "${CMAKE_MATCH_1}")
      # nvcc's host wrapper of an extended lambda (a CUDA build's plain kernels): its functions hold
      # the lambda's body and name the kernel's function in their tag; no tuned host loop runs them.
      if(current MATCHES "^__nv_hdl_wrapper_t<")
        set(current "")
      endif()
      if(current MATCHES "${function}")
        math(EXPR named "${named} + 1")
      endif()
    elseif(current MATCHES "${function}" AND line MATCHES "${INSTRUCTIONS}")
      string(REGEX REPLACE "^ *[0-9a-f]+:[ \t]*" "" instruction "${line}")
      list(APPEND found "${instruction}")
    endif()
  endforeach()
  if(named EQUAL 0)
    message(FATAL_ERROR "${FILE} has no function matching '${function}': its kernel was renamed or not instantiated")
  endif()
  if(NOT found)
    message(FATAL_ERROR "none of the ${named} functions of ${FILE} matching '${function}' holds an instruction "
                        "matching '${INSTRUCTIONS}': its host loop was not vectorized")
  endif()
  list(REMOVE_DUPLICATES found)
  message(STATUS "${function}: ${named} function(s), ${found}")
endforeach()
