#pragma once
// What a program's generated main (apps/main.cpp.in) calls, declared without the model's headers
// (Kokkos, fmt, JSON): main compiles in a moment, under nvcc too, instead of parsing them once more
// for each of the 17 programs of every build (issue 52).
namespace nbk::exp {

struct Experiment;

// run_program(statement(), argc, argv) (nbk/experiment/program.hpp).
int run_program(Experiment (*statement)(), int argc, char* argv[]);

}  // namespace nbk::exp
