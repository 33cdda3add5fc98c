#pragma once
// Seed 000's methods as Kokkos code: where the array lives, who moves it, and when.
// Each variant owns its data, times one call the way the document times it, and checks
// every element on the host against the number of calls made so far.
#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "nbk/add_one.hpp"
#include "nbk/compat.hpp"
#include "nbk/timer.hpp"
#include "nbk/traffic.hpp"
#include "nbk/verify.hpp"

namespace nbk::add_one {

using Element = std::int32_t;  // the document's dtype

class Variant {
 public:
  virtual ~Variant() = default;
  // Allocates n elements without initialization and first-touches them with zeros.
  virtual void prepare(std::int64_t n) = 0;
  // One call as the document times it, fenced; returns seconds.
  virtual double call() = 0;
  // Elements that differ from the number of calls made so far (checked on the host);
  // also fails (returns n) when a variant's own consistency check failed during a call.
  virtual std::int64_t mismatches() = 0;
  // Bytes this variant allocates on the host and on the device for n elements.
  virtual std::uint64_t host_bytes(std::int64_t n) const = 0;
  virtual std::uint64_t device_bytes(std::int64_t n) const = 0;

  int calls() const { return calls_; }
  std::int64_t size() const { return n_; }
  // Bytes the kernel must read and write per call: the GB/s every variant reports.
  Traffic traffic() const { return read_modify_write_traffic<Element>(static_cast<std::uint64_t>(n_)); }

 protected:
  std::int64_t n_ = 0;
  int calls_ = 0;
};

template <class View>
std::int64_t host_mismatches(const View& v, int calls) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return count_not_equal(host.data(), static_cast<std::int64_t>(host.extent(0)), static_cast<Element>(calls));
}

inline std::uint64_t array_bytes(std::int64_t n) { return static_cast<std::uint64_t>(n) * sizeof(Element); }

// [0, n) split as np.array_split(a, 2) does: the first half takes the odd element.
using IndexRange = std::pair<std::int64_t, std::int64_t>;
inline std::array<IndexRange, 2> halves(std::int64_t n) {
  const std::int64_t first = (n + 1) / 2;
  return {IndexRange{0, first}, IndexRange{first, n}};
}

// The array lives in the space's own memory and only the kernel is timed. On a CPU space
// this is the document's njit method; on a GPU it is the floor the transfer variants are
// measured against.
template <class ExecSpace>
class Resident final : public Variant {
 public:
  void prepare(std::int64_t n) override {
    n_ = n;
    calls_ = 0;
    data_ = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::add_one::resident"), n);
    fill(exec_, data_, 0);
    nbk::fence(exec_, "nbk::add_one::resident first touch");
  }
  double call() override {
    ++calls_;
    return time_fenced("add_one resident", [&] { increment(exec_, data_); });
  }
  std::int64_t mismatches() override { return host_mismatches(data_, calls_); }
  // On a device space the host needs room for the copy that is checked.
  std::uint64_t host_bytes(std::int64_t n) const override { return array_bytes(n); }
  std::uint64_t device_bytes(std::int64_t n) const override {
    return is_device_space_v<ExecSpace> ? array_bytes(n) : 0;
  }

 private:
  using View = Kokkos::View<Element*, typename ExecSpace::memory_space>;
  ExecSpace exec_;
  View data_;
};

// The array starts on the host, in memory both sides address; the kernel runs on the
// device and the host then reads every element. Pages migrate on demand both ways, as when
// Numba is handed a NumPy array. With `prefetch`, the pages are sent ahead of the kernel.
template <class ExecSpace>
class Managed final : public Variant {
 public:
  explicit Managed(bool prefetch) : prefetch_(prefetch) {}
  void prepare(std::int64_t n) override {
    n_ = n;
    calls_ = 0;
    host_sum_ok_ = true;
    data_ = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::add_one::managed"), n);
    fill(Kokkos::DefaultHostExecutionSpace(), data_, 0);
    nbk::fence("nbk::add_one::managed first touch");
  }
  double call() override {
    ++calls_;
    std::int64_t host_sum = 0;
    const double seconds = time_fenced("add_one managed", [&] {
      if (prefetch_) prefetch_to_device(exec_, data_.data(), array_bytes(n_));
      increment(exec_, data_);
      nbk::fence(exec_, "nbk::add_one::managed kernel");
      host_sum = sum_elements(Kokkos::DefaultHostExecutionSpace(), data_);
    });
    host_sum_ok_ = host_sum_ok_ && host_sum == n_ * calls_;
    return seconds;
  }
  std::int64_t mismatches() override {
    if (!host_sum_ok_) return n_;
    return count_not_equal(data_.data(), n_, static_cast<Element>(calls_));
  }
  std::uint64_t host_bytes(std::int64_t n) const override { return array_bytes(n); }
  std::uint64_t device_bytes(std::int64_t n) const override { return array_bytes(n); }

 private:
  using View = Kokkos::View<Element*, SharedSpace>;
  ExecSpace exec_;
  bool prefetch_;
  bool host_sum_ok_ = true;
  View data_;
};

// A host copy of the array (in HostMemory, first-touched by the host) and a copy in the
// execution space's memory; each call moves data between them, and the host copy is the
// one checked.
template <class ExecSpace, class HostMemory>
class HostAndSpaceCopies : public Variant {
 public:
  void prepare(std::int64_t n) override {
    n_ = n;
    calls_ = 0;
    in_space_ = SpaceView(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::add_one::in_space"), n);
    host_ = HostView(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::add_one::host"), n);
    fill(Kokkos::DefaultHostExecutionSpace(), host_, 0);
    nbk::fence("nbk::add_one::host first touch");
  }
  std::int64_t mismatches() override { return count_not_equal(host_.data(), n_, static_cast<Element>(calls_)); }
  std::uint64_t host_bytes(std::int64_t n) const override {
    return is_device_space_v<ExecSpace> ? array_bytes(n) : 2 * array_bytes(n);
  }
  std::uint64_t device_bytes(std::int64_t n) const override {
    return is_device_space_v<ExecSpace> ? array_bytes(n) : 0;
  }

 protected:
  using SpaceView = Kokkos::View<Element*, typename ExecSpace::memory_space>;
  using HostView = Kokkos::View<Element*, HostMemory>;
  SpaceView in_space_;
  HostView host_;
};

// The array lives on the host (pageable memory); each call copies it to the device, runs
// the kernel and copies it back (cuda.to_device / copy_to_host). Unlike the document's
// method 4, the result lands in the same host array, so the second call sees the first's.
template <class ExecSpace>
class Explicit final : public HostAndSpaceCopies<ExecSpace, Kokkos::HostSpace> {
 public:
  double call() override {
    ++this->calls_;
    return time_fenced("add_one explicit", [&] {
      Kokkos::deep_copy(exec_, this->in_space_, this->host_);
      increment(exec_, this->in_space_);
      Kokkos::deep_copy(exec_, this->host_, this->in_space_);
    });
  }

 private:
  ExecSpace exec_;
};

// The array in page-locked host memory, split in two halves (np.array_split: the first
// half takes the odd element), each half copied in, updated and copied out on its own
// execution-space instance (its own CUDA stream), so one half's copies overlap the other
// half's kernel. The single-GPU counterpart of the document's two-GPU runs.
template <class ExecSpace>
class SplitStreams final : public HostAndSpaceCopies<ExecSpace, PinnedHostSpace> {
 public:
  double call() override {
    ++this->calls_;
    return time_fenced("add_one split", [&] {
      const auto parts = halves(this->n_);
      for (int k = 0; k < 2; ++k) {
        auto space_half = Kokkos::subview(this->in_space_, parts[k]);
        auto host_half = Kokkos::subview(this->host_, parts[k]);
        Kokkos::deep_copy(instances_[k], space_half, host_half);
        increment(instances_[k], space_half);
        Kokkos::deep_copy(instances_[k], host_half, space_half);
      }
      for (int k = 0; k < 2; ++k) nbk::fence(instances_[k], "nbk::add_one::split half");
    });
  }

 private:
  Instances<ExecSpace> instances_{2};
};

}  // namespace nbk::add_one
