// Kokkos is initialized once for the whole test program, as in Kokkos' own unit tests.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <iostream>

#include "nbk/app_options.hpp"
#include "nbk/errors.hpp"

int main(int argc, char* argv[]) {
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
