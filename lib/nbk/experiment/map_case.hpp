#pragma once
// The Cases of element-wise maps (the maximum, the ufuncs, add, MatAdd), which map_spec.hpp
// makes from a workload's spec.
//   MapCase: N arrays to one more on one space. The inputs are copied from the Problem's host
//     arrays into the space's memory, the output is read back into a host mirror and checked
//     there; upload() and download() repeat those copies, which is what the documents'
//     target='cuda' on host arrays pays every call.
//   HostLoopCase: the documents' baseline, plain C++ on one host thread writing one array.
//   map_variant: the fields every variant of a MapCase states alike.
#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>

#include "nbk/core/compat.hpp"
#include "nbk/experiment/experiment.hpp"

namespace nbk::exp {

// Where a call writes: into one output allocated with the case (the documents' out=), or
// into a new one allocated by every call (a ufunc called without out=, which returns a
// fresh array each time).
enum class Output { reused, fresh_every_call };

template <class Space, class HostArray, std::size_t Inputs>
class MapCase final : public Case {
 public:
  static_assert(Kokkos::is_execution_space<Space>::value);
  static_assert(Inputs >= 1);
  // The host array's shape and layout, in the space's memory.
  using Array = Kokkos::View<typename HostArray::non_const_data_type, typename HostArray::array_layout,
                             typename Space::memory_space>;
  using Arrays = std::array<Array, Inputs>;
  using Result = typename Array::HostMirror;
  using Kernel = std::function<void(const Space&, const Arrays& in, const Array& out)>;
  using Check = std::function<Verdict(const Result& out)>;

  MapCase(const std::string& label, const std::array<HostArray, Inputs>& in, Kernel kernel, Check check,
          Output output = Output::reused)
      : label_(label),
        in_host_(in),
        kernel_(std::move(kernel)),
        check_(std::move(check)),
        output_(output),
        out_(allocate("::out")),
        out_host_(create_mirror_view_uninit(Kokkos::HostSpace(), out_)) {
    for (std::size_t k = 0; k < Inputs; ++k) in_[k] = allocate("::in" + std::to_string(k));
    // An element the kernel never writes must not pass the check by luck: NaN fails any
    // comparison (zero could be a right answer).
    using T = typename Array::non_const_value_type;
    if constexpr (std::is_floating_point_v<T>) Kokkos::deep_copy(exec_, out_, std::numeric_limits<T>::quiet_NaN());
    upload();
    nbk::fence(exec_, label + " upload");
  }
  void upload() override {
    for (std::size_t k = 0; k < Inputs; ++k) Kokkos::deep_copy(exec_, in_[k], in_host_[k]);
  }
  void run() override {
    if (output_ == Output::fresh_every_call) out_ = allocate("::out");
    kernel_(exec_, in_, out_);
  }
  void download() override { Kokkos::deep_copy(exec_, out_host_, out_); }
  Verdict verdict() override {
    download();
    nbk::fence(exec_, "nbk::exp::MapCase result to host");
    return check_(out_host_);
  }

 private:
  Array allocate(const std::string& suffix) const {
    return Array(Kokkos::view_alloc(Kokkos::WithoutInitializing, label_ + suffix), in_host_[0].layout());
  }

  std::string label_;
  std::array<HostArray, Inputs> in_host_;
  Kernel kernel_;
  Check check_;
  Output output_;
  Space exec_;
  Arrays in_;
  Array out_;
  Result out_host_;
};

template <class HostArray>
class HostLoopCase final : public Case {
 public:
  using Loop = std::function<void(const HostArray& out)>;
  using Check = std::function<Verdict(const HostArray& out)>;
  HostLoopCase(HostArray out, Loop loop, Check check)
      : out_(std::move(out)), loop_(std::move(loop)), check_(std::move(check)) {}
  void run() override { loop_(out_); }
  Verdict verdict() override { return check_(out_); }

 private:
  HostArray out_;  // allocated and first touched with the case, outside any timing
  Loop loop_;
  Check check_;
};

// A variant `name` of a map run by Space, whose with-transfers calls copy `inputs` in and
// `output` back: its space, what a call moves, what the first call pays.
template <class Space>
Variant map_variant(std::string name, const std::string& inputs, const std::string& output) {
  Variant v{std::move(name)};
  const bool device = is_device_space_v<Space>;
  v.moves = device ? "resident: none; with transfers: " + inputs + " in, " + output + " out (pageable memory), every call"
                   : "none (host memory)";
  v.first_call = device ? "module load" : "";
  v.timed_with_transfers = device;
  return on<Space>(v);
}

}  // namespace nbk::exp
