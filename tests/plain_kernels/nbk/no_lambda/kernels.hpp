// The plain label on a functor: fails (the body is not in place).
template <class Space, class X, class Y>
void plain_twice(const Space& exec, const X& x, const Y& y) {
  Kokkos::parallel_for("nbk::no_lambda::plain", Kokkos::RangePolicy<Space>(exec, 0, y.extent(0)), Twice<X, Y>{x, y});
}
