#pragma once
// The execution spaces this build enabled, as a compile-time list, and their names.
// Apps loop over it to print CPU and GPU results side by side; tests and benchmarks
// instantiate every case for each entry.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string_view>
#include <type_traits>

namespace nbk {

template <class... Spaces>
struct SpaceList {};

template <class Space>
struct SpaceTag {
  using type = Space;
};

namespace detail {
template <class List, class Space, bool Enabled>
struct Append;
template <class... S, class Space>
struct Append<SpaceList<S...>, Space, true> {
  using type = SpaceList<S..., Space>;
};
template <class... S, class Space>
struct Append<SpaceList<S...>, Space, false> {
  using type = SpaceList<S...>;
};
struct Disabled {};
}  // namespace detail

#if defined(KOKKOS_ENABLE_SERIAL)
using SerialOrNone = Kokkos::Serial;
#else
using SerialOrNone = detail::Disabled;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
using OpenMPOrNone = Kokkos::OpenMP;
#else
using OpenMPOrNone = detail::Disabled;
#endif
#if defined(KOKKOS_ENABLE_CUDA)
using CudaOrNone = Kokkos::Cuda;
#else
using CudaOrNone = detail::Disabled;
#endif

inline constexpr bool has_serial = !std::is_same_v<SerialOrNone, detail::Disabled>;
inline constexpr bool has_openmp = !std::is_same_v<OpenMPOrNone, detail::Disabled>;
inline constexpr bool has_cuda = !std::is_same_v<CudaOrNone, detail::Disabled>;

// Serial, then OpenMP, then Cuda: whichever of them this build enabled.
using EnabledSpaces = typename detail::Append<
    typename detail::Append<typename detail::Append<SpaceList<>, SerialOrNone, has_serial>::type,
                            OpenMPOrNone, has_openmp>::type,
    CudaOrNone, has_cuda>::type;

// Calls f(SpaceTag<Space>{}) for each space in the list, in order.
template <class... Spaces, class F>
void for_each_space(SpaceList<Spaces...>, F&& f) {
  (f(SpaceTag<Spaces>{}), ...);
}
template <class F>
void for_each_enabled_space(F&& f) {
  for_each_space(EnabledSpaces{}, static_cast<F&&>(f));
}

// How many spaces a list holds, and where Space stands in it (a table kept per enabled space).
template <class... S>
constexpr std::size_t space_count(SpaceList<S...>) {
  return sizeof...(S);
}
template <class Space, class... S>
constexpr std::size_t space_index(SpaceList<S...>) {
  std::size_t k = 0, found = 0;
  ((std::is_same_v<Space, S> ? (found = k, ++k) : ++k), ...);
  return found;
}

// Short lower-case names used on the command line, in tables and in JSON.
template <class Space>
constexpr std::string_view space_name() {
#if defined(KOKKOS_ENABLE_SERIAL)
  if constexpr (std::is_same_v<Space, Kokkos::Serial>) return "serial";
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  if constexpr (std::is_same_v<Space, Kokkos::OpenMP>) return "openmp";
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) return "cuda";
#endif
  return "unknown";
}

}  // namespace nbk
