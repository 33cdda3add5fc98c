# The C++ standard of the project's code, decided once Kokkos is found: 17 by default (Kokkos 3.4
# and 4.x), another where asked (-DCMAKE_CXX_STANDARD=20), and 20 where the Kokkos needs it:
# Kokkos 5 requires C++20 and CMake 3.22, and a Kokkos built in C++20 compiles its users in C++20
# anyway (its targets carry cxx_std_20), so a lower standard asked for is refused in one line
# instead of being silently raised.
set(_nbk_needed 17)
if(Kokkos_VERSION VERSION_GREATER_EQUAL 5.0)
  set(_nbk_needed 20)
  if(CMAKE_VERSION VERSION_LESS 3.22)
    message(FATAL_ERROR "Kokkos ${Kokkos_VERSION} needs CMake 3.22 or newer; this is CMake ${CMAKE_VERSION}")
  endif()
endif()
# Kokkos 4 records the standard it was built in (3.4 does not: it is 17 there).
if(Kokkos_CXX_STANDARD MATCHES "^[0-9]+$" AND Kokkos_CXX_STANDARD GREATER _nbk_needed)
  set(_nbk_needed ${Kokkos_CXX_STANDARD})
endif()
if(DEFINED CMAKE_CXX_STANDARD)
  if(NOT CMAKE_CXX_STANDARD MATCHES "^(17|20|23)$")
    message(FATAL_ERROR "CMAKE_CXX_STANDARD=${CMAKE_CXX_STANDARD}: expected 17, 20 or 23")
  elseif(CMAKE_CXX_STANDARD LESS _nbk_needed)
    message(FATAL_ERROR "CMAKE_CXX_STANDARD=${CMAKE_CXX_STANDARD}: Kokkos ${Kokkos_VERSION} at ${Kokkos_DIR} needs "
                        "C++${_nbk_needed}; configure with -DCMAKE_CXX_STANDARD=${_nbk_needed} or leave it unset")
  endif()
else()
  set(CMAKE_CXX_STANDARD ${_nbk_needed})
endif()
unset(_nbk_needed)
