# Points Kokkos_ROOT at the install scripts/bootstrap.sh made for NBK_KOKKOS_FLAVOUR, unless
# the user named a Kokkos of their own. For a CUDA-enabled Kokkos 3.x/4.x built with
# nvcc_wrapper, the project must be compiled with the same wrapper, so pick it here, before
# project() enables the language.
# NBK_CACHE_DIR: where scripts/bootstrap.sh keeps its installs (scripts/common.sh: $NBK_CACHE), and
# the compiler cache beside them (cmake/Ccache.cmake).
if(DEFINED ENV{NBK_CACHE})
  set(NBK_CACHE_DIR "$ENV{NBK_CACHE}")
elseif(DEFINED ENV{XDG_CACHE_HOME})
  set(NBK_CACHE_DIR "$ENV{XDG_CACHE_HOME}/nbk")
else()
  set(NBK_CACHE_DIR "$ENV{HOME}/.cache/nbk")
endif()
if(NOT DEFINED Kokkos_ROOT AND NOT DEFINED ENV{Kokkos_ROOT} AND NBK_KOKKOS_FLAVOUR)
  set(_nbk_prefix "${NBK_CACHE_DIR}/kokkos/${NBK_KOKKOS_FLAVOUR}")
  if(NOT EXISTS "${_nbk_prefix}")
    message(FATAL_ERROR "No Kokkos '${NBK_KOKKOS_FLAVOUR}' install at ${_nbk_prefix}. "
                        "Run: scripts/bootstrap.sh ${NBK_KOKKOS_FLAVOUR}  (or pass -DKokkos_ROOT=...)")
  endif()
  set(Kokkos_ROOT "${_nbk_prefix}" CACHE PATH "Kokkos install prefix")
endif()

if(NOT DEFINED Kokkos_ROOT AND DEFINED ENV{Kokkos_ROOT})
  set(Kokkos_ROOT "$ENV{Kokkos_ROOT}")
endif()

# scripts/bootstrap.sh writes bin/nbk-nvcc-wrapper into a CUDA install: nvcc_wrapper bound
# to the nvcc that built that Kokkos, so neither configuring nor building needs nvcc on
# PATH. Another CUDA Kokkos gets its own nvcc_wrapper, which runs the nvcc on PATH (or
# $CUDA_ROOT/bin/nvcc).
if(NOT CMAKE_CXX_COMPILER AND NOT DEFINED ENV{CXX} AND Kokkos_ROOT
   AND EXISTS "${Kokkos_ROOT}/bin/nvcc_wrapper"
   AND EXISTS "${Kokkos_ROOT}/include/KokkosCore_config.h")
  file(STRINGS "${Kokkos_ROOT}/include/KokkosCore_config.h" _nbk_kokkos_cuda
       REGEX "^#define KOKKOS_ENABLE_CUDA$")
  if(_nbk_kokkos_cuda)
    set(_nbk_wrapper "${Kokkos_ROOT}/bin/nvcc_wrapper")
    if(EXISTS "${Kokkos_ROOT}/bin/nbk-nvcc-wrapper")
      set(_nbk_wrapper "${Kokkos_ROOT}/bin/nbk-nvcc-wrapper")
    endif()
    set(CMAKE_CXX_COMPILER "${_nbk_wrapper}" CACHE FILEPATH "C++ compiler (nvcc_wrapper for a CUDA Kokkos)")
  endif()
endif()
