// The document's kernel first: passes.
template <class Space, class X, class Y>
void plain_twice(const Space& exec, const X& x, const Y& y) {
  const std::int64_t n = y.extent(0);
  Kokkos::parallel_for("nbk::plain_first::plain", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       KOKKOS_LAMBDA(const std::int64_t i) { y(i) = 2 * x(i); });
}

template <class Space, class X, class Y>
void twice(const Space& exec, const X& x, const Y& y) {
  Kokkos::parallel_for("nbk::plain_first", range(exec, 0, y.extent(0)), Twice<X, Y>{x, y});
}
