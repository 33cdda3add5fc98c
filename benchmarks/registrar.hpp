#pragma once
// Registers every experiment's benchmark families and the references (registrar.cpp);
// main() calls it once Kokkos is up.
#include <benchmark/benchmark.h>

namespace nbk::bench {

void register_all();
// exp, log, sin and cos one by one, as the kernels call them and as scalar libm (math.cpp).
void register_math();
// The latency of a dependent multiply and add, the chains of in-order reductions (bounds.cpp).
void register_bounds();
// Frees the input the last benchmarks shared: call before Kokkos finalizes.
void release_problems();

}  // namespace nbk::bench
