// Functions of every row of a matrix on every enabled space: seed 004's row sums (a team per
// row, a thread's vector lanes per row and a thread per row; int32 exact in int64, float32
// within the bound of any order of adds) and seed 003's row norms (squares added in double: no overflow or underflow for any
// float; in float: what float32 does with huge and tiny components). Known matrices, one row,
// one column, no rows, rows of no columns, odd sizes, more rows than teams.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "nbk/l2_norm/kernels.hpp"
#include "nbk/l2_norm/tuned.hpp"
#include "nbk/row_sum/kernels.hpp"
#include "nbk/row_sum/tuned.hpp"
#include "spaces.hpp"

namespace {

using nbk::Index;
using nbk::row_sum::Sum;

template <class T, class Space>
using Matrix = Kokkos::View<T**, Kokkos::LayoutRight, typename Space::memory_space>;

// A rows x columns row-major matrix of `values` in Space's memory.
template <class Space, class T>
Matrix<T, Space> matrix_on(Index rows, Index columns, const std::vector<T>& values) {
  Matrix<T, Space> a("a", rows, columns);
  auto host = Kokkos::create_mirror_view(a);
  std::copy(values.begin(), values.end(), host.data());
  Kokkos::deep_copy(a, host);
  return a;
}

// Per-row results of `kernel(space, a, out)` read back, `out` starting as `unwritten`. `out` is the
// middle of a larger allocation, whose elements on either side must be `unwritten` after the call:
// a kernel writes its rows and nothing else (with no rows, nothing at all).
template <class Space, class Value, class T, class Kernel>
std::vector<Value> per_row(Kernel kernel, Index rows, Index columns, const std::vector<T>& values, Value unwritten) {
  constexpr Index guard = 8;
  Kokkos::View<Value*, typename Space::memory_space> memory("out", rows + 2 * guard);
  Kokkos::deep_copy(memory, unwritten);
  const Kokkos::View<Value*, typename Space::memory_space, Kokkos::MemoryUnmanaged> out(memory.data() + guard, rows);
  kernel(Space(), matrix_on<Space>(rows, columns, values), out);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), memory);
  const auto untouched = [unwritten](Value x) { return x == unwritten || (x != x && unwritten != unwritten); };
  for (Index g = 0; g < guard; ++g) {
    EXPECT_TRUE(untouched(host(g))) << "written before the first row: " << host(g);
    EXPECT_TRUE(untouched(host(guard + rows + g))) << "written after the last of " << rows << " rows: " << host(guard + rows + g);
  }
  return std::vector<Value>(host.data() + guard, host.data() + guard + rows);
}

// vector_gpu_code: the vector way's GPU code (32 lanes, 8 rows a team, a pack a lane) on any
// space, host spaces included (nbk/core/code.hpp): the twin suite RowsGpuCode runs it on the host
// spaces (tests/spaces.hpp), the suite Rows every way with the space's own code.
enum class Way { team, vector, vector_gpu_code, flat };
constexpr const char* way_name[] = {"team", "vector", "vector_gpu_code", "flat"};
constexpr Way own_code_ways[] = {Way::team, Way::vector, Way::flat};
constexpr Way gpu_code_ways[] = {Way::vector_gpu_code};

template <class Space, class T>
std::vector<Sum<T>> row_sums_on(Way way, Index rows, Index columns, const std::vector<T>& values) {
  return per_row<Space>(
      [way](const Space& exec, const auto& a, const auto& sums) {
        if (way == Way::team)
          nbk::row_sum::team_row_sums(exec, a, sums);
        else if (way == Way::vector)
          nbk::row_sum::vector_row_sums(exec, a, sums);
        else if (way == Way::vector_gpu_code)
          nbk::row_sum::vector_row_sums(exec, a, sums, nbk::GpuCode());
        else
          nbk::row_sum::flat_row_sums(exec, a, sums);
      },
      rows, columns, values, Sum<T>(-7));
}

template <class T>
std::vector<Sum<T>> host_row_sums(Index rows, Index columns, const std::vector<T>& values) {
  std::vector<Sum<T>> sums(static_cast<std::size_t>(rows));
  nbk::row_sum::host_row_sums(values.data(), rows, columns, sums.data());
  return sums;
}

template <class Space>
class Rows : public ::testing::Test {};
TYPED_TEST_SUITE(Rows, nbk::test::SpaceTypes, nbk::test::SpaceNames);
template <class SpaceCode>
class RowsGpuCode : public ::testing::Test {};
TYPED_TEST_SUITE(RowsGpuCode, nbk::test::HostGpuCodeTypes, nbk::test::SpaceCodeNames);

// Each test of the row sums runs once with the ways of the space's own code (Rows) and once with
// the GPU code's on a host space (RowsGpuCode).
template <class Space, std::size_t Ways>
void row_sums_of_known_matrices(const Way (&ways)[Ways]) {
  for (const Way way : ways) {
    SCOPED_TRACE(way_name[int(way)]);
    // One row 1..1025, one column 0..1024, then the same as float32 (every sum exact there).
    std::vector<std::int32_t> counting(1025);
    std::iota(counting.begin(), counting.end(), 1);
    EXPECT_EQ(row_sums_on<Space>(way, 1, 1025, counting), std::vector<std::int64_t>{1025 * 1026 / 2});
    std::vector<std::int64_t> column(counting.begin(), counting.end());
    EXPECT_EQ(row_sums_on<Space>(way, 1025, 1, counting), column);
    const std::vector<float> halves(1025, 0.5f);
    EXPECT_EQ(row_sums_on<Space>(way, 1, 1025, halves), std::vector<float>{512.5f});
    // Rows of whole 16-byte packs (a GPU's vector way reads them a pack a lane): 2 x 1024.
    std::vector<std::int32_t> two_rows(2048);
    std::iota(two_rows.begin(), two_rows.end(), 1);
    EXPECT_EQ(row_sums_on<Space>(way, 2, 1024, two_rows),
              (std::vector<std::int64_t>{1024 * 1025 / 2, 1024 * 1025 / 2 + 1024 * 1024}));
    EXPECT_EQ(row_sums_on<Space>(way, 3, 4, std::vector<float>(12, 0.25f)), std::vector<float>(3, 1.0f));
    // No rows, and rows of no columns: every row written, with 0.
    EXPECT_TRUE(row_sums_on<Space>(way, 0, 5, std::vector<std::int32_t>{}).empty());
    EXPECT_TRUE(row_sums_on<Space>(way, 0, 0, std::vector<float>{}).empty());
    EXPECT_EQ(row_sums_on<Space>(way, 3, 0, std::vector<std::int32_t>{}), std::vector<std::int64_t>(3, 0));
    EXPECT_EQ(row_sums_on<Space>(way, 3, 0, std::vector<float>{}), std::vector<float>(3, 0.0f));
  }
}
TYPED_TEST(Rows, RowSumsOfKnownMatrices) { row_sums_of_known_matrices<TypeParam>(own_code_ways); }
TYPED_TEST(RowsGpuCode, RowSumsOfKnownMatrices) { row_sums_of_known_matrices<typename TypeParam::space>(gpu_code_ways); }

template <class Space, std::size_t Ways>
void int32_row_sums_exact_beyond_int32(const Way (&ways)[Ways]) {
  constexpr std::int32_t max = std::numeric_limits<std::int32_t>::max(), min = std::numeric_limits<std::int32_t>::min();
  for (const Way way : ways) {
    SCOPED_TRACE(way_name[int(way)]);
    // Rows whose sums an int32 would wrap: m x max, m x min, and max, min alternating; m = 1025,
    // and 1024 (rows of whole 16-byte packs, four int32 a load on a GPU, each widened to int64).
    for (const Index m : {Index{1025}, Index{1024}}) {
      std::vector<std::int32_t> extremes(static_cast<std::size_t>(3 * m));
      for (Index j = 0; j < m; ++j) {
        extremes[static_cast<std::size_t>(j)] = max;
        extremes[static_cast<std::size_t>(m + j)] = min;
        extremes[static_cast<std::size_t>(2 * m + j)] = j % 2 ? min : max;
      }
      EXPECT_EQ(row_sums_on<Space>(way, 3, m, extremes),
                (std::vector<std::int64_t>{m * std::int64_t{max}, m * std::int64_t{min},
                                           (m + 1) / 2 * std::int64_t{max} + m / 2 * std::int64_t{min}}));
    }
    // Odd sizes of random int32 against one host thread; more rows than a league's teams.
    std::mt19937 engine(7);
    for (const auto& [rows, columns] : std::vector<std::pair<Index, Index>>{{17, 33}, {33, 17}, {1048577, 1}, {17, 36}, {9, 4}}) {
      std::vector<std::int32_t> a(static_cast<std::size_t>(rows * columns));
      for (auto& x : a) x = static_cast<std::int32_t>(engine());
      EXPECT_EQ(row_sums_on<Space>(way, rows, columns, a), host_row_sums(rows, columns, a));
    }
  }
}

TYPED_TEST(Rows, Int32RowSumsAreExactBeyondInt32) { int32_row_sums_exact_beyond_int32<TypeParam>(own_code_ways); }
TYPED_TEST(RowsGpuCode, Int32RowSumsAreExactBeyondInt32) {
  int32_row_sums_exact_beyond_int32<typename TypeParam::space>(gpu_code_ways);
}

// |sum - exact| <= 2(m - 1) u sum |a_ij| (any order of the m - 1 adds), against double.
template <class Space, std::size_t Ways>
void float32_row_sums_within_the_bound(const Way (&ways)[Ways]) {
  std::mt19937 engine(11);
  std::uniform_real_distribution<float> signed_values(-1.0f, 1.0f);
  for (const auto& [rows, columns] : std::vector<std::pair<Index, Index>>{{1, 1}, {17, 33}, {5, 4099}, {1001, 2}, {5, 4096}, {33, 12}}) {
    std::vector<float> a(static_cast<std::size_t>(rows * columns));
    for (auto& x : a) x = signed_values(engine);
    const double u = std::numeric_limits<float>::epsilon() / 2;
    for (const Way way : ways) {
      const auto sums = row_sums_on<Space>(way, rows, columns, a);
      for (Index i = 0; i < rows; ++i) {
        double exact = 0, magnitudes = 0;
        for (Index j = 0; j < columns; ++j) {
          exact += a[static_cast<std::size_t>(i * columns + j)];
          magnitudes += std::abs(a[static_cast<std::size_t>(i * columns + j)]);
        }
        EXPECT_LE(std::abs(sums[static_cast<std::size_t>(i)] - exact), 2.0 * static_cast<double>(columns - 1) * u * magnitudes + 1e-12)
            << rows << " x " << columns << ", row " << i;
      }
    }
  }
}
TYPED_TEST(Rows, Float32RowSumsWithinTheBoundOfAnyOrder) { float32_row_sums_within_the_bound<TypeParam>(own_code_ways); }
TYPED_TEST(RowsGpuCode, Float32RowSumsWithinTheBoundOfAnyOrder) {
  float32_row_sums_within_the_bound<typename TypeParam::space>(gpu_code_ways);
}

template <class Space, class Acc>
std::vector<float> norms_on(Index rows, Index columns, const std::vector<float>& values) {
  return per_row<Space>(
      [](const Space& exec, const auto& a, const auto& norms) { nbk::l2_norm::row_norms<Acc>(exec, a, norms); }, rows,
      columns, values, std::numeric_limits<float>::quiet_NaN());
}

template <class Acc>
std::vector<float> host_norms(Index rows, Index columns, const std::vector<float>& values) {
  std::vector<float> norms(static_cast<std::size_t>(rows));
  nbk::l2_norm::host_row_norms<Acc>(values.data(), rows, columns, norms.data());
  return norms;
}

template <class Space, class Acc>
void expect_known_norms() {
  for (const auto& norms_of : {norms_on<Space, Acc>, host_norms<Acc>}) {
    EXPECT_EQ(norms_of(2, 2, {3, 4, -3, -4}), (std::vector<float>{5, 5}));
    EXPECT_EQ(norms_of(2, 3, {1, 2, 2, 0, 0, 0}), (std::vector<float>{3, 0}));
    EXPECT_EQ(norms_of(1, 1, {-2.5f}), std::vector<float>{2.5f});
    EXPECT_TRUE(norms_of(0, 3, {}).empty());
    EXPECT_EQ(norms_of(2, 0, {}), std::vector<float>(2, 0.0f));
  }
}

TYPED_TEST(Rows, NormsOfKnownVectors) {
  expect_known_norms<TypeParam, double>();
  expect_known_norms<TypeParam, float>();
}

template <class Space, class Acc, class Code>
std::vector<float> blocked_norms_on(Index rows, Index columns, const std::vector<float>& values) {
  return per_row<Space>(
      [](const Space& exec, const auto& a, const auto& norms) {
        nbk::l2_norm::blocked_row_norms<Acc>(exec, a, norms, Code{});
      },
      rows, columns, values, std::numeric_limits<float>::quiet_NaN());
}

// The tuned form gives row_norms' bits: its host code's blocks of 256 rows of 2 or 3 components
// (one block, several, a short last one, fewer rows than a vector's lanes), the shapes it leaves to
// row_norms (1 and 4 components), and its GPU code, on every space.
template <class Space, class Acc>
void expect_blocked_norms_are_row_norms() {
  std::mt19937 engine(5);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (const Index rows : {0, 1, 7, 8, 9, 255, 256, 257, 1001})
    for (const Index columns : {1, 2, 3, 4}) {
      std::vector<float> values(static_cast<std::size_t>(rows * columns));
      for (auto& x : values) x = normal(engine);
      if (!values.empty()) values[0] = 1e30f;  // a square beyond float32 (inf with a float accumulator)
      const std::vector<float> expected = norms_on<Space, Acc>(rows, columns, values);
      const auto same = [&](const std::vector<float>& got, const char* code) {
        ASSERT_EQ(got.size(), expected.size());
        for (std::size_t i = 0; i < got.size(); ++i)
          EXPECT_EQ(std::memcmp(&got[i], &expected[i], sizeof(float)), 0)
              << code << ", " << rows << " x " << columns << ", row " << i << ": " << got[i] << " against " << expected[i];
      };
      same(blocked_norms_on<Space, Acc, nbk::CodeFor<Space>>(rows, columns, values), "the space's own code");
      same(blocked_norms_on<Space, Acc, nbk::GpuCode>(rows, columns, values), "GPU code");
    }
}

TYPED_TEST(Rows, BlockedNormsAreRowNormsBitForBit) {
  expect_blocked_norms_are_row_norms<TypeParam, double>();
  expect_blocked_norms_are_row_norms<TypeParam, float>();
}

// (1e30, 1e30, 0): its norm 1.41e30 is a float32, its squares are not (above 3.4e38).
// (1e-30, 1e-30, 0): its norm is a normal float32, its squares flush to 0 in float32.
// (3e38, 1e38, 0): its norm 3.16e38 is just inside float32's range; (3e38, 3e38, 0)'s is not.
TYPED_TEST(Rows, DoubleAccumulatorNeitherOverflowsNorUnderflows) {
  const std::vector<float> extremes = {1e30f, 1e30f, 0, 1e-30f, 1e-30f, 0, 3e38f, 1e38f, 0, 3e38f, 3e38f, 0};
  const auto norm = [](float x, float y) { return static_cast<float>(std::hypot(double{x}, double{y})); };
  for (const auto& norms : {norms_on<TypeParam, double>(4, 3, extremes), host_norms<double>(4, 3, extremes)}) {
    EXPECT_FLOAT_EQ(norms[0], norm(1e30f, 1e30f));
    EXPECT_FLOAT_EQ(norms[1], norm(1e-30f, 1e-30f));
    EXPECT_FLOAT_EQ(norms[2], norm(3e38f, 1e38f));
    EXPECT_TRUE(std::isfinite(norms[2]));
    EXPECT_TRUE(std::isinf(norms[3]));  // the norm itself is beyond float32
  }
  // What float32 squares do: inf for the huge rows, 0 for the tiny one.
  const auto naive = norms_on<TypeParam, float>(4, 3, extremes);
  EXPECT_TRUE(std::isinf(naive[0]));
  EXPECT_EQ(naive[1], 0.0f);
  EXPECT_TRUE(std::isinf(naive[2]));
}

}  // namespace
