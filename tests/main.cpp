// Kokkos is initialized once for the whole test program, as in Kokkos' own unit tests.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "nbk/report/app_options.hpp"
#include "nbk/core/errors.hpp"

int main(int argc, char* argv[]) {
  // Kokkos prints an OMP_PROC_BIND advice to stdout when it is unset, and test discovery
  // would read those lines as test names. Unset already means "false" to the OpenMP
  // runtime, which is also Kokkos' advice for unit tests; a value the user set is kept.
  setenv("OMP_PROC_BIND", "false", /*overwrite=*/0);
  ::testing::InitGoogleTest(&argc, argv);
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
