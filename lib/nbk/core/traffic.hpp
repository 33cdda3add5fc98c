#pragma once
// The work a kernel must do at minimum, so that a time turns into a rate: the bytes it
// must move (BabelStream's model: each array element read or written once) and, where
// compute matters, its floating-point operations. Hardware may move more (write-allocate,
// partial cache lines); that shows up as a lower GB/s, which is the point of reporting it.
#include <cstddef>
#include <cstdint>

namespace nbk {

struct Traffic {
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
  std::uint64_t flops = 0;  // 0: not a figure of merit for this kernel
  int flop_bytes = 0;       // the precision of those flops: 4 (float) or 8 (double)

  constexpr std::uint64_t total() const { return bytes_read + bytes_written; }
  // Decimal GB/s, the unit of vendor bandwidth figures.
  double gb_per_s(double seconds) const {
    return seconds > 0 ? static_cast<double>(total()) / seconds * 1e-9 : 0.0;
  }
  double gflop_per_s(double seconds) const {
    return seconds > 0 ? static_cast<double>(flops) / seconds * 1e-9 : 0.0;
  }
};

// `t` with `flops_per_element` operations in T on each of n elements (lib/nbk/core/flop_count.hpp).
template <class T>
constexpr Traffic with_flops(Traffic t, std::uint64_t n, std::uint64_t flops_per_element) {
  t.flops = n * flops_per_element;
  t.flop_bytes = sizeof(T);
  return t;
}

// a[i] += 1: read and write every element once.
template <class T>
constexpr Traffic read_modify_write_traffic(std::uint64_t n) {
  return {n * sizeof(T), n * sizeof(T)};
}
// b[i] = a[i]
template <class T>
constexpr Traffic copy_traffic(std::uint64_t n) {
  return {n * sizeof(T), n * sizeof(T)};
}
// a[i] = b[i] + s * c[i]
template <class T>
constexpr Traffic triad_traffic(std::uint64_t n) {
  return {2 * n * sizeof(T), n * sizeof(T), 2 * n, sizeof(T)};
}
// sum of a[i]: read once, write nothing that scales with n.
template <class T>
constexpr Traffic read_traffic(std::uint64_t n) {
  return {n * sizeof(T), 0};
}
// out[i] = f(in_1[i], ..., in_k[i]): k arrays read, one written.
template <class T>
constexpr Traffic map_traffic(std::uint64_t n, std::uint64_t inputs) {
  return {inputs * n * sizeof(T), n * sizeof(T)};
}
// c[i] = f(a[i], b[i])
template <class T>
constexpr Traffic binary_map_traffic(std::uint64_t n) {
  return map_traffic<T>(n, 2);
}

}  // namespace nbk
