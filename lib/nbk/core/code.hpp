#pragma once
// Which of a kernel's two codes runs: the one written for a GPU (16-byte packs, strided loops
// over a team's slice, GPU team splits and tiles, vector lanes) or the one written for a CPU.
// The space chooses (CodeFor<Space>); a caller may name the other, and the tests do: every
// kernel with a GPU branch runs that branch on Serial and OpenMP too, through the same exactness
// tests, so the logic of code that only a GPU takes in a program is run by CI on a machine
// without one. A kernel takes the code as a last argument, `Code = CodeFor<Space>{}`.
#include <type_traits>

#include "nbk/core/compat.hpp"

namespace nbk {

struct HostCode {};
struct GpuCode {};

template <class Space>
using CodeFor = std::conditional_t<is_device_space_v<Space>, GpuCode, HostCode>;

template <class Code>
inline constexpr bool is_gpu_code_v = std::is_same_v<Code, GpuCode>;

}  // namespace nbk
