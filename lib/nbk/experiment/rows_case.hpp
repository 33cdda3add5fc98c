#pragma once
// The Case of a function of every row of a matrix (row sums, row norms: the documents' gufuncs
// with a row as their core dimension). The matrix is copied from the Problem's host matrix
// into the space's memory, one value per row is written there and read back into a host
// mirror, and checked there; upload() and download() repeat those copies.
#include <Kokkos_Core.hpp>

#include <functional>
#include <limits>
#include <string>
#include <type_traits>

#include "nbk/core/compat.hpp"
#include "nbk/experiment/experiment.hpp"

namespace nbk::exp {

template <class Space, class HostMatrix, class Value>
class RowsCase final : public Case {
 public:
  static_assert(Kokkos::is_execution_space<Space>::value);
  static_assert(HostMatrix::rank == 2);
  // The host matrix's layout, in the space's memory: the upload is a plain copy.
  using Matrix = Kokkos::View<typename HostMatrix::non_const_data_type, typename HostMatrix::array_layout,
                              typename Space::memory_space>;
  using Values = Kokkos::View<Value*, typename Space::memory_space>;
  using Kernel = std::function<void(const Space&, const Matrix& a, const Values& per_row)>;
  using Check = std::function<Verdict(const Value* per_row)>;

  RowsCase(const std::string& label, HostMatrix a, Kernel kernel, Check check)
      : a_host_(std::move(a)),
        kernel_(std::move(kernel)),
        check_(std::move(check)),
        a_(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::a"), a_host_.extent(0), a_host_.extent(1)),
        values_(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::per_row"), a_host_.extent(0)),
        values_host_(Kokkos::create_mirror_view(Kokkos::HostSpace(), values_)) {
    // A row the kernel never writes must not pass the check by luck (zero is a right answer
    // for rows of zeros): NaN, or the most negative integer.
    if constexpr (std::is_floating_point_v<Value>)
      Kokkos::deep_copy(exec_, values_, std::numeric_limits<Value>::quiet_NaN());
    else
      Kokkos::deep_copy(exec_, values_, std::numeric_limits<Value>::min());
    upload();
    nbk::fence(exec_, label + " upload");
  }
  void upload() override { Kokkos::deep_copy(exec_, a_, a_host_); }
  void run() override { kernel_(exec_, a_, values_); }
  void download() override { Kokkos::deep_copy(exec_, values_host_, values_); }
  Verdict verdict() override {
    download();
    nbk::fence(exec_, "nbk::exp::RowsCase result to host");
    return check_(values_host_.data());
  }

 private:
  HostMatrix a_host_;
  Kernel kernel_;
  Check check_;
  Space exec_;
  Matrix a_;
  Values values_;
  typename Values::HostMirror values_host_;
};

}  // namespace nbk::exp
