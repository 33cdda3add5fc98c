#pragma once
// The exact sum of floating-point numbers, on the host: the reference every reduction's
// error is measured against.
//
// Every finite double is an integer multiple of 2^-1074, below 2^1024. ExactSum keeps the
// running total as that integer, in fixed point: base-2^32 digits held in int64 limbs, so
// each addition is a handful of integer adds with no rounding at all, and carries are
// propagated only every 2^29 additions (each limb then holds < 2^62). 68 limbs: the lowest
// digit is 2^-1074, and the signed top limb leaves room for more than 2^60 additions of the
// largest double. Floats convert to double
// exactly, so the same class sums float data. Only the final conversion rounds, to long
// double (64-bit significand): the reference carries ~19 correct digits, far more than any
// reduction under test. Non-finite inputs are summed separately in IEEE arithmetic
// (inf + -inf = NaN, as it would be anyway).
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace nbk {

class ExactSum {
 public:
  static constexpr std::int64_t max_carry_interval = std::int64_t{1} << 29;

  // Carries are propagated every `carry_interval` additions (tests use a small one).
  explicit ExactSum(std::int64_t carry_interval = max_carry_interval)
      : carry_interval_(carry_interval < 1 ? 1 : carry_interval > max_carry_interval ? max_carry_interval : carry_interval) {}

  void add(double x) {
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const bool negative = (bits >> 63) != 0;
    const auto biased = static_cast<int>((bits >> 52) & 0x7ff);
    std::uint64_t mantissa = bits & ((std::uint64_t{1} << 52) - 1);
    if (biased == 0x7ff) {  // inf or NaN
      nonfinite_ += x;
      has_nonfinite_ = true;
      return;
    }
    // x = +-mantissa * 2^-1074 * 2^shift
    int shift = 0;
    if (biased != 0) {
      mantissa |= std::uint64_t{1} << 52;
      shift = biased - 1;
    }
    if (mantissa == 0) return;
    const int limb = shift / 32, offset = shift % 32;
    const std::int64_t sign = negative ? -1 : 1;
    // mantissa << offset spans up to 85 bits: add it as three 32-bit digits.
    const std::uint64_t low = (mantissa & 0xffffffffULL) << offset;  // < 2^63
    const std::uint64_t high = (mantissa >> 32) << offset;           // < 2^52
    limbs_[limb] += sign * static_cast<std::int64_t>(low & 0xffffffffULL);
    limbs_[limb + 1] += sign * static_cast<std::int64_t>((low >> 32) + (high & 0xffffffffULL));
    limbs_[limb + 2] += sign * static_cast<std::int64_t>(high >> 32);
    if (++pending_ >= carry_interval_) normalize();
  }

  template <class T>
  void add(const T* data, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) add(static_cast<double>(data[i]));
  }

  void add(const ExactSum& other) {
    ExactSum copy = other;
    copy.normalize();
    normalize();
    for (int k = 0; k < limb_count; ++k) limbs_[k] += copy.limbs_[k];
    nonfinite_ += copy.nonfinite_;
    has_nonfinite_ = has_nonfinite_ || copy.has_nonfinite_;
    pending_ = 1;
    normalize();
  }

  // The accumulator as numbers that add element by element, to combine the accumulators of
  // several processes (MPI_Allreduce of the limbs, in int64) with no rounding: the limbs
  // normalized (each in [0, 2^32), the top one signed), so those of up to 2^31 accumulators
  // add without overflow; the non-finite inputs as their IEEE sum and a flag.
  static constexpr int limb_count = 68;
  struct State {
    std::array<std::int64_t, limb_count> limbs{};
    double nonfinite = 0.0;
    bool has_nonfinite = false;
  };
  State state() const {
    ExactSum copy = *this;
    copy.normalize();
    return {copy.limbs_, copy.nonfinite_, copy.has_nonfinite_};
  }
  // The accumulator whose state() is `sum`, a state or the element-wise sum of states.
  static ExactSum from_state(const State& sum) {
    ExactSum result;
    result.limbs_ = sum.limbs;
    result.nonfinite_ = sum.nonfinite;
    result.has_nonfinite_ = sum.has_nonfinite;
    result.normalize();
    return result;
  }

  // The sum, rounded once to long double.
  long double value() const {
    if (has_nonfinite_) return static_cast<long double>(nonfinite_);
    ExactSum copy = *this;
    copy.normalize();
    return copy.top_digits();
  }

  // y - (the exact sum), computed exactly and rounded once: the error of a result y.
  long double error_of(double y) const {
    ExactSum copy = *this;
    copy.negate();
    copy.add(y);
    return copy.value();
  }

 private:
  // After this, limbs 0 .. limb_count-2 lie in [0, 2^32) and the top limb carries the sign.
  void normalize() {
    for (int k = 0; k + 1 < limb_count; ++k) {
      const std::int64_t carry = limbs_[k] >> 32;  // floor division (arithmetic shift)
      limbs_[k] -= carry * (std::int64_t{1} << 32);
      limbs_[k + 1] += carry;
    }
    pending_ = 0;
  }

  void negate() {
    for (auto& limb : limbs_) limb = -limb;
    nonfinite_ = -nonfinite_;
  }

  // Value of a normalized accumulator. A negative total is negated first, so that its
  // digits are all non-negative and the three highest nonzero ones fix 64+ bits.
  long double top_digits() const {
    if (limbs_[limb_count - 1] < 0) {
      ExactSum positive = *this;
      positive.negate();
      positive.normalize();
      return -positive.top_digits();
    }
    int top = limb_count - 1;
    while (top >= 0 && limbs_[top] == 0) --top;
    if (top < 0) return 0.0L;
    long double r = 0.0L;
    for (int k = top; k >= 0 && k >= top - 3; --k)
      r += std::ldexp(static_cast<long double>(limbs_[k]), 32 * k - 1074);
    return r;
  }

  std::array<std::int64_t, limb_count> limbs_{};
  std::int64_t carry_interval_;
  std::int64_t pending_ = 0;
  double nonfinite_ = 0.0;
  bool has_nonfinite_ = false;
};

// Convenience: the exact sum of data[0, n).
template <class T>
ExactSum exact_sum(const T* data, std::int64_t n) {
  ExactSum sum;
  sum.add(data, n);
  return sum;
}

}  // namespace nbk
