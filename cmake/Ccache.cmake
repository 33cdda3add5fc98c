# A compiler cache (issue 52, docs/ci.md): with -DNBK_CCACHE=ON every compile goes through Debian's
# ccache, its cache in $NBK_CACHE/ccache beside the Kokkos installs, so CI's next run and the
# presets of one run reuse the objects whose inputs did not change. Sound because:
# - depend mode (CCACHE_DEPEND): the key is the compiler, its arguments and the contents of every
#   file the compile read (the -MD list every Ninja compile writes). ccache's usual preprocessor key
#   is not enough under nvcc: `nvcc -E` prints one pass, so a branch of #if __CUDA_ARCH__ only the
#   other pass compiles is outside it (a stale host object after a host-only edit, shown in
#   docs/ci.md);
# - the compiler by its contents (CCACHE_COMPILERCHECK=content): g++, or for a CUDA build
#   nbk-nvcc-wrapper, whose text names the Kokkos install it belongs to, a directory keyed by the
#   Kokkos version, options, patch, nvcc, g++ and CMake (scripts/bootstrap.sh); a new Kokkos or
#   flag misses;
# - paths below the source tree made relative (CCACHE_BASEDIR) and the working directory left out
#   of the key (CCACHE_NOHASHDIR), so clones in other folders share; the debug build's DWARF then
#   names the folder of the compile that filled the cache (stack traces' paths only);
# - compiles whose outputs ccache does not keep are not cached: the PTX nvcc --keep writes (the
#   workload libraries of a CUDA build, NBK_KEEP_PTX) and GCC's vectorizer report
#   (tests/CMakeLists.txt): their targets set CXX_COMPILER_LAUNCHER to nothing.
option(NBK_CCACHE "Compile through ccache, cached in \$NBK_CACHE/ccache (docs/ci.md)" OFF)
if(NBK_CCACHE)
  find_program(NBK_CCACHE_PROGRAM ccache)
  if(NOT CMAKE_GENERATOR MATCHES "Ninja")  # (without a depfile, depend mode quietly falls back)
    message(FATAL_ERROR "NBK_CCACHE=ON needs the Ninja generator (the presets'): depend mode keys on its -MD lists")
  endif()
  if(NOT NBK_CCACHE_PROGRAM)
    message(FATAL_ERROR "NBK_CCACHE=ON, but there is no ccache (Debian: apt-get install ccache)")
  endif()
  set(_nbk_ccache_dir "${NBK_CACHE_DIR}/ccache")  # cmake/BootstrappedKokkos.cmake
  set(CMAKE_CXX_COMPILER_LAUNCHER env CCACHE_DIR=${_nbk_ccache_dir} CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}
      CCACHE_DEPEND=1 CCACHE_COMPILERCHECK=content CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=5G ${NBK_CCACHE_PROGRAM})
  message(STATUS "compiler cache: ccache in ${_nbk_ccache_dir}")
endif()
