#pragma once
// The tail every experiment's main() shares: check the options (which may allocate nothing),
// make sure the build's device is usable, initialize Kokkos, run; any InputError on the way
// becomes one line on stderr and exit code 2.
#include <Kokkos_Core.hpp>

#include <string>

#include "nbk/app_options.hpp"
#include "nbk/cli.hpp"
#include "nbk/errors.hpp"

namespace nbk {

template <class Check, class Run>
int run_experiment(const std::string& program, int& argc, char* argv[], Check&& check, Run&& run) {
  try {
    check();
    require_usable_device();
    Kokkos::ScopeGuard kokkos(argc, argv);
    return run();
  } catch (const InputError& e) {
    return report_input_error(program, e.what());
  }
}

}  // namespace nbk
