// nbk/core/mdrange.hpp's two walks of a row-major index space: the policies they build on a host
// (extents reversed or not, whose tiles), the order a host thread visits the indices in, and on a CUDA
// build the claim the walks rest on: Kokkos puts threadIdx.x on the policy's first index, so
// a warp's lanes walk k contiguously under Walk::contiguous_first and walk i under the
// documents' view-order tiles.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "nbk/core/mdrange.hpp"
#include "spaces.hpp"

namespace {

using nbk::Index;
using nbk::Launch;
using nbk::Walk;

// On a host space: extents reversed, and Kokkos' tiles whatever the launch says (a GPU's block
// shape would cut the contiguous inner loop short), so the inner loop is the whole row.
TEST(MDRangeWalk, ContiguousFirstReversesExtentsAndKeepsKokkosTilesOnAHost) {
  const Kokkos::DefaultHostExecutionSpace exec;
  const auto p3 = nbk::contiguous_first_policy(exec, {5, 6, 700}, Launch<3>{{1, 2, 128}, Walk::contiguous_first});
  EXPECT_EQ((std::array<Index, 3>{Index(p3.m_upper[0]), Index(p3.m_upper[1]), Index(p3.m_upper[2])}),
            (std::array<Index, 3>{700, 6, 5}));
  EXPECT_EQ(Index(p3.m_tile[0]), 700);
  const auto p2 = nbk::contiguous_first_policy(exec, {3, 1000}, Launch<2>{{4, 64}, Walk::contiguous_first});
  EXPECT_EQ(Index(p2.m_upper[0]), 1000);
  EXPECT_EQ(Index(p2.m_upper[1]), 3);
  EXPECT_EQ(Index(p2.m_tile[0]), 1000);
  // The View's own order keeps the tiles it is given, on every space: the documents' lesson.
  const auto v3 = nbk::view_order_policy(exec, {5, 6, 7}, Launch<3>{{8, 8, 2}});
  EXPECT_EQ(Index(v3.m_upper[0]), 5);
  EXPECT_EQ((std::array<Index, 3>{Index(v3.m_tile[0]), Index(v3.m_tile[1]), Index(v3.m_tile[2])}),
            (std::array<Index, 3>{8, 8, 2}));
}

#if defined(KOKKOS_ENABLE_SERIAL)
// On one host thread, the order in which a walk visits a 2 x 3 x 4 space, as flat row-major
// offsets. The view order runs through memory in order where a tile holds whole planes; Kokkos'
// host tiles (2 x 2 x whole rows) interleave two planes, and contiguous_first, keeping Kokkos'
// tiles on a host, visits exactly as they do: every row of k in order, whatever the launch's tiles.
// (A free function: CUDA's extended lambdas may not live in a test's private TestBody.)
std::vector<Index> visits(const Launch<3>& launch) {
  const std::array<Index, 3> n{2, 3, 4};
  Kokkos::View<Index*, Kokkos::HostSpace> order("order", n[0] * n[1] * n[2]);
  Kokkos::View<Index, Kokkos::HostSpace> next("next");
  const Index n1 = n[1], n2 = n[2];
  nbk::for_each_index("visit", Kokkos::Serial(), n, launch,
                      KOKKOS_LAMBDA(Index i, Index j, Index k) { order(next()++) = (i * n1 + j) * n2 + k; });
  return std::vector<Index>(order.data(), order.data() + order.size());
}

TEST(MDRangeWalk, OneHostThreadVisitsWholeRowsInOrder) {
  std::vector<Index> in_order(24);
  for (Index x = 0; x < 24; ++x) in_order[static_cast<std::size_t>(x)] = x;
  EXPECT_EQ(visits(Launch<3>{{2, 3, 4}}), in_order);
  EXPECT_EQ(visits(Launch<3>{{1, 1, 4}}), in_order);
  const std::vector<Index> kokkos{0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 16, 17, 18, 19, 8, 9, 10, 11, 20, 21, 22, 23};
  EXPECT_EQ(visits(Launch<3>{}), kokkos);
  for (const auto& launch : {Launch<3>{{}, Walk::contiguous_first}, Launch<3>{{1, 2, 128}, Walk::contiguous_first},
                             Launch<3>{{2, 3, 5}, Walk::contiguous_first}})
    EXPECT_EQ(visits(launch), kokkos);
}
#endif

#if defined(KOKKOS_ENABLE_CUDA)
// threadIdx.x of the thread that wrote each element of a 4 x 8 x 64 space: a contiguous_first
// launch's tiles reversed into the block (64, 4, 1), and the view order's (4, 4, 4).
std::vector<int> lanes(const Launch<3>& launch) {
  const std::array<Index, 3> n{4, 8, 64};
  Kokkos::View<int***, Kokkos::LayoutRight, Kokkos::CudaSpace> x("threadIdx.x", n[0], n[1], n[2]);
  nbk::for_each_index("nbk::test::lanes", Kokkos::Cuda(), n, launch, KOKKOS_LAMBDA(Index i, Index j, Index k) {
#if defined(__CUDA_ARCH__)
    x(i, j, k) = static_cast<int>(threadIdx.x);
#else
    x(i, j, k) = -1;
#endif
  });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  return std::vector<int>(h.data(), h.data() + h.size());
}

TEST(MDRangeWalkOnCuda, ContiguousFirstPutsThreadIdxXOnTheContiguousIndex) {
  const auto x = lanes(Launch<3>{{1, 4, 64}, Walk::contiguous_first});
  for (std::size_t at = 0; at < x.size(); ++at) ASSERT_EQ(x[at], static_cast<int>(at % 64)) << at;
}

TEST(MDRangeWalkOnCuda, ViewOrderPutsThreadIdxXOnTheFirstIndex) {
  const auto x = lanes(Launch<3>{{4, 4, 4}});
  for (std::size_t at = 0; at < x.size(); ++at) ASSERT_EQ(x[at], static_cast<int>(at / (8 * 64) % 4)) << at;
}
#endif

}  // namespace
