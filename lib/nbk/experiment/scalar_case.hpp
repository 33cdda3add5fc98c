#pragma once
// The Case of the scalar reductions (the sum, the product, pi, the counter): each call reduces
// data held by the case to one value, and a check looks at every call's value.
//   Data: what the variant's calls work on, made once with the case (arrays in the space's
//     memory, a random pool, a counter); with upload() where the with-transfers timing copies
//     the input in again.
//   Call: the timed call, a function of the Data. Either it returns the value (a parallel_reduce
//     into a host value is complete when it returns), or it returns nothing and leaves the value
//     in the space's memory, where Data::read() fetches it after the call, outside the clock.
//   Check: the verdict on every call's value, after all of them: check(data, values).
// A variant is its call, chosen when the case is made: nothing switches over the variants on
// every call.
#include <Kokkos_Core.hpp>

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "nbk/core/allocate.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/experiment/experiment.hpp"

namespace nbk::exp {

namespace scalar_detail {
template <class Data, class = void>
struct has_upload : std::false_type {};
template <class Data>
struct has_upload<Data, std::void_t<decltype(std::declval<Data&>().upload())>> : std::true_type {};

// What a call gives: the value it returns, or the one Data::read() fetches where it returns none.
template <class Data, class Returned, class = void>
struct ValueOf {
  using type = Returned;
};
template <class Data>
struct ValueOf<Data, void, std::void_t<decltype(std::declval<Data&>().read())>> {
  using type = std::decay_t<decltype(std::declval<Data&>().read())>;
};
}  // namespace scalar_detail

template <class Data, class Call, class Check>
class ScalarCase final : public Case {
  using Returned = std::invoke_result_t<Call&, Data&>;
  static constexpr bool left_in_space = std::is_void_v<Returned>;
  using Value = typename scalar_detail::ValueOf<Data, Returned>::type;

 public:
  ScalarCase(std::unique_ptr<Data> data, Call call, Check check)
      : data_(std::move(data)), call_(std::move(call)), check_(std::move(check)) {}
  void upload() override {
    if constexpr (scalar_detail::has_upload<Data>::value) data_->upload();
  }
  void run() override {
    if constexpr (left_in_space)
      call_(*data_);
    else
      value_ = call_(*data_);
  }
  void record() override {
    if constexpr (left_in_space)
      values_.push_back(data_->read());
    else
      values_.push_back(value_);
  }
  Verdict verdict() override { return check_(static_cast<const Data&>(*data_), values_); }

 private:
  std::unique_ptr<Data> data_;
  Call call_;
  Check check_;
  std::conditional_t<left_in_space, char, Returned> value_{};
  std::vector<Value> values_;  // every call's, for the check
};

template <class Data, class Call, class Check>
std::unique_ptr<Case> scalar_case(std::unique_ptr<Data> data, Call call, Check check) {
  return std::make_unique<ScalarCase<Data, Call, Check>>(std::move(data), std::move(call), std::move(check));
}

// A host array copied into Space's memory: the input of a reduction, uploaded with the case.
template <class Space, class T>
struct ArrayInSpace {
  using Host = Kokkos::View<T*, Kokkos::HostSpace>;
  ArrayInSpace(const std::string& label, Host host_array)
      : host(std::move(host_array)),
        x(allocate<Kokkos::View<T*, typename Space::memory_space>>(label, host.extent(0))) {
    upload();
    nbk::fence(exec, label + " upload");
  }
  void upload() { Kokkos::deep_copy(exec, x, host); }

  Space exec;
  Host host;
  Kokkos::View<T*, typename Space::memory_space> x;
};

// A value a call leaves in Space's memory (a count), with its host mirror: read() copies it
// back and waits for the copy, outside the clock.
template <class Space, class T>
struct ValueInSpace {
  using View = Kokkos::View<T, typename Space::memory_space>;
  explicit ValueInSpace(const std::string& label)
      : value(label), host(Kokkos::create_mirror_view(Kokkos::HostSpace(), value)) {}
  T read(const Space& exec) const {
    Kokkos::deep_copy(exec, host, value);
    nbk::fence(exec, "nbk::exp::ValueInSpace read");
    return host();
  }

  View value;
  HostMirrorOf<View> host;
};

}  // namespace nbk::exp
