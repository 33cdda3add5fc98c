#pragma once
// Seed 004's workload: the product of an array of doubles with Kokkos' product reducer,
// and the sum of their logarithms, which is what such a product means once it underflows.
#include <Kokkos_Core.hpp>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/host_log.hpp"
#include "nbk/core/policy.hpp"
#include "nbk/core/reduce.hpp"

namespace nbk::product {

namespace detail {
template <class Space, class View>
constexpr void check_input() {
  check_1d_arguments<Space, View>();
  static_assert(std::is_same_v<typename View::non_const_value_type, double>, "the product reads float64 data");
}
}  // namespace detail

// The document's prod_reduce as Kokkos' documentation writes it: a RangePolicy (64-bit indices), a
// KOKKOS_LAMBDA multiplying x(i) in, Kokkos::Prod into a local double; the tuned form below reduces
// into a host View (nbk/core/reduce.hpp) from a functor.
template <class Space, class View>
double plain_product(const Space& exec, const View& x) {
  const std::int64_t n = x.extent(0);
  double result = 1.0;
  Kokkos::parallel_reduce(
      "nbk::product::plain", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, double& partial) { partial *= x(i); }, Kokkos::Prod<double>(result));
  return result;
}

// prod x_i with the product reducer, Kokkos::Prod (1 for an empty array).
template <class View>
struct Product {
  View x;
  KOKKOS_INLINE_FUNCTION void operator()(Index i, double& partial) const { partial *= x(i); }
};

template <class Space, class View>
double reduce_product(const Space& exec, const View& x) {
  detail::check_input<Space, View>();
  return reduce_into_host<Kokkos::Prod, double>("nbk::product::prod", range(exec, 0, static_cast<Index>(x.extent(0))),
                                                Product<View>{x});
}

// GPU code's log-sum: one element a thread.
template <class View>
struct LogSum {
  View x;
  KOKKOS_INLINE_FUNCTION void operator()(Index i, double& partial) const { partial += nbk::math::log(x(i)); }
};

// sum log(x_i): log of the product, without the product's range limits.
// GPU code: each thread takes one element. Host code: each work item sums a chunk of x with
// host_math::sum_of_logs (host_log.hpp: our own log, 8 lanes at a time with AVX-512 and 4 with
// AVX2 and FMA, whichever the build targets), which reads x as contiguous memory; its lambda is
// host-only, as that code is, so a GPU takes GPU code only (nbk/core/code.hpp).
template <class Space, class View, class Code = CodeFor<Space>>
double reduce_log_sum(const Space& exec, const View& x, Code = {}) {
  static_assert(is_gpu_code_v<Code> || !is_device_space_v<Space>, "host code runs on host spaces only");
  detail::check_input<Space, View>();
  const Index n = static_cast<Index>(x.extent(0));
  if constexpr (is_gpu_code_v<Code>) {
    return reduce_into_host<Kokkos::Sum, double>("nbk::product::log_sum", range(exec, 0, n), LogSum<View>{x});
  } else {
    using Layout = typename View::array_layout;
    static_assert(std::is_same_v<Layout, Kokkos::LayoutRight> || std::is_same_v<Layout, Kokkos::LayoutLeft>,
                  "the host log-sum reads x as contiguous memory");
    constexpr Index chunk = 4096;
    const double* data = x.data();
    return reduce_into_host<Kokkos::Sum, double>(
        "nbk::product::log_sum", range(exec, 0, (n + chunk - 1) / chunk), [=](Index c, double& partial) {
          const Index begin = c * chunk;
          partial += host_math::sum_of_logs(data + begin, n - begin < chunk ? n - begin : chunk);
        });
  }
}

// Host references: the product in index order, and where it first became zero (-1: never).
struct HostProduct {
  double value = 1.0;
  std::int64_t zero_at = -1;
};

inline HostProduct host_product(const double* x, std::int64_t n) {
  HostProduct p;
  for (std::int64_t i = 0; i < n; ++i) {
    p.value *= x[i];
    if (p.value == 0.0 && p.zero_at < 0) p.zero_at = i;
  }
  return p;
}

// log of the smallest positive double, 2^-1074: about -744.44.
inline double log_smallest_double() { return std::log(std::numeric_limits<double>::denorm_min()); }

// True when a product whose logarithm is `log_product` rounds to zero in double: below
// half of 2^-1074 (a margin of 1 in the logarithm covers any error in computing it).
inline bool product_underflows(double log_product) {
  return log_product < log_smallest_double() - std::log(2.0) - 1.0;
}

// How far two products of the same n factors, each with |x_i| <= 1, may differ: each
// multiplication rounds by a relative u, or by at most half of 2^-1074 in absolute terms
// once in the subnormal range (later factors only shrink that), so each product is within
// gamma_{n-1} |p| + n 2^-1075 of the exact one, and two of them within twice that.
inline double product_tolerance(double reference, std::int64_t n) {
  const double u = std::numeric_limits<double>::epsilon() / 2;
  const double k = n > 1 ? static_cast<double>(n - 1) : 0.0;
  const double gamma = k * u < 0.5 ? k * u / (1.0 - k * u) : 1.0;
  return 2.0 * (gamma * std::fabs(reference) + static_cast<double>(n) * std::numeric_limits<double>::denorm_min());
}

}  // namespace nbk::product
