#pragma once
// The work a kernel must do at minimum, so that a time turns into a rate: the bytes it
// must move (BabelStream's model: each array element read or written once) and, where
// compute matters, its floating-point operations. What the memory moves is more on a CPU:
// a store to a line that is not in cache reads the line first (write-allocate, a read for
// ownership), except where the kernel stores in place (it read the line) or by streaming
// stores; moved_bytes counts that read, and a row is judged by a ceiling probed with the
// same kind of traffic (TrafficKind) counted the same way (nbk/report/ceilings.hpp).
#include <cstddef>
#include <cstdint>

namespace nbk {

// A dependent chain: the operations of an in-order reduction of floats (a loop in index order,
// Kokkos' Sum or Prod on a host space, a row summed by one thread), which no compiler may reorder
// without -ffast-math, so each takes the latency of the one before: a host thread's share of the
// call's operations, one an element, is one chain (nbk/report/chain_probe.hpp measures a link).
enum class ChainOp { none, add, multiply };
struct Chain {
  ChainOp op = ChainOp::none;
  int bytes = 0;  // the precision: 4 (float) or 8 (double)
  constexpr bool empty() const { return op == ChainOp::none; }
};
template <class T>
constexpr Chain chain_of(ChainOp op) {
  return {op, static_cast<int>(sizeof(T))};
}

struct Traffic {
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
  std::uint64_t flops = 0;  // 0: not a figure of merit for this kernel
  int flop_bytes = 0;       // the precision of those flops: 4 (float) or 8 (double)
  bool in_place = false;    // its stores go to the lines it read (a[i] += 1): nothing read before them
  bool streaming = false;   // its stores are non-temporal: whole lines to memory, nothing read before them

  constexpr std::uint64_t total() const { return bytes_read + bytes_written; }
  constexpr Traffic streaming_stores() const {
    Traffic t = *this;
    t.streaming = true;
    return t;
  }
  // Decimal GB/s, the unit of vendor bandwidth figures.
  double gb_per_s(double seconds) const {
    return seconds > 0 ? static_cast<double>(total()) / seconds * 1e-9 : 0.0;
  }
  double gflop_per_s(double seconds) const {
    return seconds > 0 ? static_cast<double>(flops) / seconds * 1e-9 : 0.0;
  }
};

// The bytes the memory moves for `t`: on a space whose stores allocate lines (a CPU's), the
// read of every line a store writes that the kernel had not read (write-allocate); a GPU's
// stores of whole 32-byte sectors read nothing first.
constexpr std::uint64_t moved_bytes(const Traffic& t, bool stores_allocate) {
  return t.total() + (stores_allocate && !t.in_place && !t.streaming ? t.bytes_written : 0);
}

// What kind of traffic a call moves, as the ceilings are probed (nbk/report/ceilings.hpp):
// read-only (a reduction: nothing written that scales with the reads), an update in place,
// one stream read and one written (a copy), or two or more read and one written (an add);
// the last two also with streaming stores on a CPU.
enum class TrafficKind { read, update, copy, add, copy_streaming, add_streaming };
inline constexpr TrafficKind traffic_kinds[] = {TrafficKind::read, TrafficKind::update, TrafficKind::copy,
                                                TrafficKind::add, TrafficKind::copy_streaming,
                                                TrafficKind::add_streaming};

constexpr TrafficKind kind_of(const Traffic& t) {
  if (t.bytes_read > 0 && t.bytes_written * 16 <= t.bytes_read) return TrafficKind::read;
  if (t.in_place) return TrafficKind::update;
  const bool two_or_more = 2 * t.bytes_read >= 3 * t.bytes_written;  // reads per write rounded: 2 and up
  if (t.streaming) return two_or_more ? TrafficKind::add_streaming : TrafficKind::copy_streaming;
  return two_or_more ? TrafficKind::add : TrafficKind::copy;
}

// `t` with `flops_per_element` operations in T on each of n elements (lib/nbk/core/flop_count.hpp).
template <class T>
constexpr Traffic with_flops(Traffic t, std::uint64_t n, std::uint64_t flops_per_element) {
  t.flops = n * flops_per_element;
  t.flop_bytes = sizeof(T);
  return t;
}

// a[i] += 1: read and write every element once, in place.
template <class T>
constexpr Traffic read_modify_write_traffic(std::uint64_t n) {
  Traffic t{n * sizeof(T), n * sizeof(T)};
  t.in_place = true;
  return t;
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
