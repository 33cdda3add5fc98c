// Compiled on its own with GCC's vectorizer report (tests/CMakeLists.txt, math.vectorized.product):
// the report must say that the portable sum of logarithms (lib/nbk/core/host_log.hpp), the
// product's log-sum on a host space without AVX2 and FMA, runs as vector code. Its log is inline,
// so no libmvec import can show that. (With AVX2 and FMA, or AVX-512, the log-sum is written in
// vector intrinsics.)
#include <cstdint>

#include "nbk/core/host_log.hpp"

double nbk_portable_sum_of_logs(const double* x, std::int64_t n) {
  return nbk::host_math::sum_of_logs_portable(x, n);
}
