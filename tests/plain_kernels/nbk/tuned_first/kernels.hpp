// A tuned functor before the plain kernel: fails.
template <class Space, class X, class Y>
void twice(const Space& exec, const X& x, const Y& y) {
  Kokkos::parallel_for("nbk::tuned_first", range(exec, 0, y.extent(0)), Twice<X, Y>{x, y});
}

template <class Space, class X, class Y>
void plain_twice(const Space& exec, const X& x, const Y& y) {
  Kokkos::parallel_for("nbk::tuned_first::plain", Kokkos::RangePolicy<Space>(exec, 0, y.extent(0)),
                       KOKKOS_LAMBDA(const std::int64_t i) { y(i) = 2 * x(i); });
}
