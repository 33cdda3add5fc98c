#pragma once
// The program every experiment gets: command line, memory checks before anything is
// allocated, Kokkos started, references probed, every selected variant run at every size,
// the table, the prose, the sweep, the JSON, and the exit code (0 verified, 1 a check
// failed, 2 bad input).
#include <string>

#include "nbk/experiment/experiment.hpp"

namespace nbk::exp {

// "nbk-add-one" for "add_one".
std::string program_name(const Experiment& experiment);

int run_program(const Experiment& experiment, int argc, char* argv[]);

}  // namespace nbk::exp
