// Kokkos is initialized once for the whole test program, as in Kokkos' own unit tests.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "nbk/core/errors.hpp"
#include "nbk/ranks/ranks.hpp"
#include "nbk/report/app_options.hpp"

int main(int argc, char* argv[]) {
  // Kokkos prints an OMP_PROC_BIND advice to stdout when it is unset, and test discovery
  // would read those lines as test names. Unset already means "false" to the OpenMP
  // runtime, which is also Kokkos' advice for unit tests; a value the user set is kept.
  setenv("OMP_PROC_BIND", "false", /*overwrite=*/0);
  // In an MPI build the same binary runs under mpiexec for the ranks-* variants (tests/mpi.cmake):
  // every rank runs every selected test in the same order, and prints its own failures.
  nbk::ranks::Session ranks(argc, argv, nbk::ranks::Output::every_rank);
  ::testing::InitGoogleTest(&argc, argv);
  // Listing the tests runs none: CTest's discovery lists them on machines without a GPU too (CI
  // runs a CUDA build's machine-code checks through ctest, and each ctest call discovers first).
  if (GTEST_FLAG_GET(list_tests)) return RUN_ALL_TESTS();
  try {
    nbk::require_usable_device();
  } catch (const nbk::InputError& e) {
    std::cerr << "nbk_tests: error: " << e.what() << '\n';
    return 1;
  }
  Kokkos::initialize(argc, argv);
  const int result = RUN_ALL_TESTS();
  Kokkos::finalize();
  return result;
}
