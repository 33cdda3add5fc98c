#pragma once
// Seed 000's methods as Kokkos code: where the array lives, who moves it, and when. Each
// method owns its data (zeros, first-touched when it is made); a call adds one to every
// element; the verdict checks every element on the host against the number of calls made.
#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "nbk/add_one/kernels.hpp"
#include "nbk/core/allocate.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/verify.hpp"
#include "nbk/experiment/experiment.hpp"

namespace nbk::add_one {

using Element = std::int32_t;  // the document's dtype

inline std::uint64_t array_bytes(std::int64_t n) { return static_cast<std::uint64_t>(n) * sizeof(Element); }

// "ok" when no element differs from the number of calls, else how many do.
inline exp::Verdict count_verdict(std::int64_t wrong, int calls) {
  exp::Verdict verdict = exp::mismatch_verdict(wrong);
  verdict.details["calls"] = calls;
  return verdict;
}

template <class View>
std::int64_t host_mismatches(const View& v, int calls) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return count_not_equal(host.data(), static_cast<std::int64_t>(host.extent(0)), static_cast<Element>(calls));
}

// [0, n) split as np.array_split(a, parts) does: the first n % parts parts take one element more.
using IndexRange = std::pair<std::int64_t, std::int64_t>;
inline std::vector<IndexRange> array_split(std::int64_t n, int parts) {
  std::vector<IndexRange> out;
  std::int64_t first = 0;
  for (int k = 0; k < parts; ++k) {
    const std::int64_t size = n / parts + (k < n % parts ? 1 : 0);
    out.emplace_back(first, first + size);
    first += size;
  }
  return out;
}

// The array lives in the space's own memory and a call is the kernel alone: increment, or
// `kernel` where one is given (the plain row's plain_increment). On a CPU space this is the
// document's njit method; on a GPU, the floor the transfer methods are judged by.
template <class Space>
class Resident final : public exp::Case {
 public:
  using Array = Kokkos::View<Element*, typename Space::memory_space>;
  explicit Resident(std::int64_t n, std::function<void(const Space&, const Array&)> kernel = nullptr)
      : data_(allocate<Array>("nbk::add_one::resident", n)), kernel_(std::move(kernel)) {
    fill(exec_, data_, 0);
    nbk::fence(exec_, "nbk::add_one::resident first touch");
  }
  void run() override {
    ++calls_;
    if (kernel_) kernel_(exec_, data_);
    else increment(exec_, data_);
  }
  exp::Verdict verdict() override { return count_verdict(host_mismatches(data_, calls_), calls_); }

 private:
  Space exec_;
  Array data_;
  std::function<void(const Space&, const Array&)> kernel_;
  int calls_ = 0;
};

// The array starts on the host, in memory both sides address; a call runs the kernel on the
// device and then the host reads every element (a sum), so pages migrate on demand both ways,
// as when Numba is handed a NumPy array. With Prefetch::to_device, pages are sent ahead of the kernel.
enum class Prefetch { none, to_device };

template <class Space>
class Managed final : public exp::Case {
 public:
  Managed(std::int64_t n, Prefetch prefetch)
      : prefetch_(prefetch == Prefetch::to_device),
        data_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::add_one::managed"), n) {
    fill(Kokkos::DefaultHostExecutionSpace(), data_, 0);
    nbk::fence("nbk::add_one::managed first touch");
  }
  void run() override {
    ++calls_;
    if (prefetch_) prefetch_to_device(exec_, data_.data(), array_bytes(data_.extent(0)));
    increment(exec_, data_);
    nbk::fence(exec_, "nbk::add_one::managed kernel");
    host_sum_ = sum_elements(Kokkos::DefaultHostExecutionSpace(), data_);
  }
  void record() override {
    host_sum_ok_ = host_sum_ok_ && host_sum_ == static_cast<std::int64_t>(data_.extent(0)) * calls_;
  }
  exp::Verdict verdict() override {
    const auto n = static_cast<std::int64_t>(data_.extent(0));
    return count_verdict(host_sum_ok_ ? count_not_equal(data_.data(), n, static_cast<Element>(calls_)) : n, calls_);
  }

 private:
  Space exec_;
  bool prefetch_;
  Kokkos::View<Element*, SharedSpace> data_;
  int calls_ = 0;
  std::int64_t host_sum_ = 0;
  bool host_sum_ok_ = true;
};

// A host copy of the array (in HostMemory, first-touched by the host) and a copy in the
// execution space's memory; each call moves data between them, and the host copy is checked.
template <class Space, class HostMemory>
class HostAndSpaceCopies : public exp::Case {
 public:
  explicit HostAndSpaceCopies(std::int64_t n)
      : in_space_(allocate<decltype(in_space_)>("nbk::add_one::in_space", n)),
        host_(allocate<decltype(host_)>("nbk::add_one::host", n)) {
    fill(Kokkos::DefaultHostExecutionSpace(), host_, 0);
    nbk::fence("nbk::add_one::host first touch");
  }
  exp::Verdict verdict() override {
    return count_verdict(count_not_equal(host_.data(), static_cast<std::int64_t>(host_.extent(0)),
                                         static_cast<Element>(calls_)),
                         calls_);
  }

 protected:
  Kokkos::View<Element*, typename Space::memory_space> in_space_;
  Kokkos::View<Element*, HostMemory> host_;
  int calls_ = 0;
};

// The array lives on the host (pageable memory); each call copies it to the device, runs
// the kernel and copies it back (cuda.to_device / copy_to_host). Unlike the document's
// method, the result lands in the same host array, so the second call sees the first's.
template <class Space>
class Explicit final : public HostAndSpaceCopies<Space, Kokkos::HostSpace> {
 public:
  using HostAndSpaceCopies<Space, Kokkos::HostSpace>::HostAndSpaceCopies;
  void run() override {
    ++this->calls_;
    Kokkos::deep_copy(exec_, this->in_space_, this->host_);
    increment(exec_, this->in_space_);
    Kokkos::deep_copy(exec_, this->host_, this->in_space_);
  }

 private:
  Space exec_;
};

// The array in page-locked host memory, split in `parts` parts (np.array_split), each part
// copied in, updated and copied out on one of two execution-space instances (CUDA streams) in
// turn, so that one part's copies overlap another's kernel and copies the other way. Two parts
// are the one-GPU counterpart of the document's two-GPU runs: the first part's copy in and the
// last one's copy out run alone, each half of one direction's bytes. With 16 parts those ends
// are a 16th each, and a call nears the link's two-way floor.
template <class Space>
class SplitStreams final : public HostAndSpaceCopies<Space, PinnedHostSpace> {
 public:
  SplitStreams(std::int64_t n, int parts) : HostAndSpaceCopies<Space, PinnedHostSpace>(n), parts_(parts) {}
  void run() override {
    ++this->calls_;
    const auto parts = array_split(static_cast<std::int64_t>(this->host_.extent(0)), parts_);
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const auto& exec = instances_[static_cast<int>(k % 2)];
      auto space_part = Kokkos::subview(this->in_space_, parts[k]);
      auto host_part = Kokkos::subview(this->host_, parts[k]);
      Kokkos::deep_copy(exec, space_part, host_part);
      increment(exec, space_part);
      Kokkos::deep_copy(exec, host_part, space_part);
    }
    for (int k = 0; k < 2; ++k) nbk::fence(instances_[k], "nbk::add_one::split parts");
  }

 private:
  int parts_;
  Instances<Space> instances_{2};
};

}  // namespace nbk::add_one
