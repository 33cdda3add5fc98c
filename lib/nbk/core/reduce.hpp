#pragma once
// parallel_reduce into a host View instead of a scalar. With a scalar result, Kokkos 3.4's
// Serial backend hands the functor a reference to the caller's variable, and GCC then keeps
// the running sum in memory: a load and a store per element, 2.5-4x slower than a register.
// With a (heap-allocated) View result it stays in a register. The View costs one small
// allocation per call; every backend accepts a HostSpace result. A reduction into a View may
// return before it finishes, so the policy's instance is fenced before the result is read.
#include <Kokkos_Core.hpp>

#include <string>

#include "nbk/core/compat.hpp"

namespace nbk {

// parallel_reduce with the built-in reducer Reducer (Kokkos::Sum, Kokkos::Prod, ...) into a
// host View, then fenced; returns the reduced value.
template <template <class, class> class Reducer, class T, class Policy, class Functor>
T reduce_into_host(const std::string& label, const Policy& policy, const Functor& functor) {
  Kokkos::View<T, Kokkos::HostSpace> result(label + " result");
  Kokkos::parallel_reduce(label, policy, functor, Reducer<T, Kokkos::HostSpace>(result));
  nbk::fence(policy.space(), label);
  return result();
}

}  // namespace nbk
