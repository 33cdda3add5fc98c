#pragma once
// The Case of an element-wise map from two arrays to a third on one space (the maximum, the
// ufuncs): the inputs copied from the Problem's host arrays into the space's memory, the
// output read back into a host mirror and checked there. upload() and download() repeat
// those copies, which is what the documents' target='cuda' on host arrays pays every call.
#include <Kokkos_Core.hpp>

#include <functional>
#include <limits>
#include <string>
#include <type_traits>

#include "nbk/core/compat.hpp"
#include "nbk/experiment/experiment.hpp"

namespace nbk::exp {

template <class Space, class HostArray>
class BinaryMapCase final : public Case {
 public:
  static_assert(Kokkos::is_execution_space<Space>::value);
  // The host array's shape and layout, in the space's memory.
  using Array = Kokkos::View<typename HostArray::non_const_data_type, typename HostArray::array_layout,
                             typename Space::memory_space>;
  using Result = typename Array::HostMirror;
  using Kernel = std::function<void(const Space&, const Array& a, const Array& b, const Array& c)>;
  using Check = std::function<Verdict(const Result& c)>;

  BinaryMapCase(const std::string& label, const HostArray& a, const HostArray& b, Kernel kernel, Check check)
      : a_host_(a),
        b_host_(b),
        kernel_(std::move(kernel)),
        check_(std::move(check)),
        a_(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::a"), a.layout()),
        b_(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::b"), b.layout()),
        c_(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::c"), a.layout()),
        c_host_(create_mirror_view_uninit(Kokkos::HostSpace(), c_)) {
    // An element the kernel never writes must not pass the check by luck: NaN fails any
    // comparison (zero could be a right answer).
    using T = typename Array::non_const_value_type;
    if constexpr (std::is_floating_point_v<T>) Kokkos::deep_copy(exec_, c_, std::numeric_limits<T>::quiet_NaN());
    upload();
    nbk::fence(exec_, label + " upload");
  }
  void upload() override {
    Kokkos::deep_copy(exec_, a_, a_host_);
    Kokkos::deep_copy(exec_, b_, b_host_);
  }
  void run() override { kernel_(exec_, a_, b_, c_); }
  void download() override { Kokkos::deep_copy(exec_, c_host_, c_); }
  Verdict verdict() override {
    Kokkos::deep_copy(exec_, c_host_, c_);
    nbk::fence(exec_, "nbk::exp::BinaryMapCase result to host");
    return check_(c_host_);
  }

 private:
  HostArray a_host_, b_host_;
  Kernel kernel_;
  Check check_;
  Space exec_;
  Array a_, b_, c_;
  Result c_host_;
};

}  // namespace nbk::exp
