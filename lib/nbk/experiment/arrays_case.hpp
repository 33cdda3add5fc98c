#pragma once
// The Cases of kernels that read arrays and write one: the element-wise maps, the functions of
// every row, the histogram, the matrix product.
//   ArraysCase: the inputs are copied from the Problem's host arrays into the space's memory; the
//     output, allocated by the workload (its shape is the workload's), is read back into a host
//     mirror and checked there. upload() and download() repeat those copies, which is what the
//     documents' target='cuda' on host arrays pays every call. The variant is its kernel: a
//     callable chosen when the case is made, so nothing switches over the variants per call.
//   HostLoopCase: the documents' baseline, plain C++ on one host thread writing one array.
//   arrays_variant: the fields every variant of an ArraysCase states alike.
#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>

#include "nbk/core/compat.hpp"
#include "nbk/core/allocate.hpp"
#include "nbk/experiment/experiment.hpp"

namespace nbk::exp {

// Where a call writes: into the output made with the case (the documents' out=), or into a new
// one allocated by every call (a ufunc called without out=, which returns a fresh array each time).
enum class Output { reused, fresh_every_call };

// The host array's type, shape and layout in Space's memory.
template <class Space, class HostArray>
using InSpace = Kokkos::View<typename HostArray::non_const_data_type, typename HostArray::array_layout,
                             typename Space::memory_space>;

using nbk::allocate;  // nbk/core/allocate.hpp: uninitialized, on huge pages in host memory

// A rank-1 View over an allocation of its own, taken from the memory space itself (cudaMalloc on
// CUDA) with nothing of Kokkos' in front of it, as a Numba device array has nothing: a write
// just below it then lands outside every allocation, where compute-sanitizer's memcheck reports
// it. Below a Kokkos View it would land in the View's allocation header, or in a neighbour,
// and pass unseen. The View is unmanaged and has no label; `allocation` frees the memory.
template <class View>
struct BareAllocation {
  BareAllocation() = default;  // none: `view` may be set to a View of Kokkos'
  BareAllocation(const std::string& label, std::size_t n) {
    using Memory = typename View::memory_space;
    using T = typename View::non_const_value_type;
    const std::size_t bytes = (n > 0 ? n : 1) * sizeof(T);
    void* p = Memory().allocate(label.c_str(), bytes);
    allocation = std::shared_ptr<void>(p, [label, bytes](void* q) { Memory().deallocate(label.c_str(), q, bytes); });
    view = View(static_cast<T*>(p), n);
  }
  View view;
  std::shared_ptr<void> allocation;
};

template <class View>
BareAllocation<View> bare_allocation(const std::string& label, std::size_t n) {
  return BareAllocation<View>(label, n);
}

template <class Space, class HostIn, std::size_t Inputs, class Out>
class ArraysCase final : public Case {
 public:
  static_assert(Kokkos::is_execution_space<Space>::value);
  static_assert(Inputs >= 1);
  static_assert(std::is_same_v<typename Out::memory_space, typename Space::memory_space>,
                "the output lives in the memory of the space that writes it");
  using In = InSpace<Space, HostIn>;
  using Ins = std::array<In, Inputs>;
  using Result = HostMirrorOf<Out>;
  using Kernel = std::function<void(const Space&, const Ins& in, const Out& out)>;
  using Check = std::function<Verdict(const Result& out)>;

  ArraysCase(const std::string& label, const std::array<HostIn, Inputs>& in, Out out, Kernel kernel, Check check,
             Output output = Output::reused)
      : in_host_(in),
        kernel_(std::move(kernel)),
        check_(std::move(check)),
        output_(output),
        out_(std::move(out)),
        out_host_(create_mirror_view_uninit(Kokkos::HostSpace(), out_)) {
    for (std::size_t k = 0; k < Inputs; ++k)
      in_[k] = allocate<In>(label + "::in" + std::to_string(k), in_host_[k].layout());
    // An element the kernel never writes must not pass the check by luck (zero can be a right
    // answer): NaN, or the most negative integer.
    using T = typename Out::non_const_value_type;
    if constexpr (std::is_floating_point_v<T>)
      Kokkos::deep_copy(exec_, out_, std::numeric_limits<T>::quiet_NaN());
    else
      Kokkos::deep_copy(exec_, out_, std::numeric_limits<T>::min());
    upload();
    nbk::fence(exec_, label + " upload");
  }
  void upload() override {
    for (std::size_t k = 0; k < Inputs; ++k) Kokkos::deep_copy(exec_, in_[k], in_host_[k]);
  }
  void run() override {
    if (output_ == Output::fresh_every_call) out_ = allocate<Out>(out_.label(), out_.layout());
    kernel_(exec_, in_, out_);
  }
  void download() override { Kokkos::deep_copy(exec_, out_host_, out_); }
  Verdict verdict() override {
    download();
    nbk::fence(exec_, "nbk::exp::ArraysCase result to host");
    return check_(out_host_);
  }

 private:
  std::array<HostIn, Inputs> in_host_;
  Kernel kernel_;
  Check check_;
  Output output_;
  Space exec_;
  Ins in_;
  Out out_;
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

// A variant `name` of an ArraysCase run by Space, whose with-transfers calls copy `inputs` in
// and `output` back: its space, what a call moves, what the first call pays.
template <class Space>
Variant arrays_variant(std::string name, const std::string& inputs, const std::string& output) {
  Variant v{std::move(name)};
  const bool device = is_device_space_v<Space>;
  v.moves = device ? "resident: none; with transfers: " + inputs + " in, " + output + " out (pageable memory), every call"
                   : "none (host memory)";
  v.first_call = device ? "module load" : "";
  v.timed_with_transfers = device;
  return on<Space>(v);
}

}  // namespace nbk::exp
