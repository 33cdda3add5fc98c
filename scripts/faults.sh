#!/usr/bin/env bash
# scripts/faults.sh: can the tests fail? Mutation checks of every workload's kernels (issue 39, item 6).
#
# For each workload with a kernel, two faults, each one textual patch (file, old text, new text: the
# table FAULTS below) to its kernel or to the core helper it runs on:
#   dropped  one element (or a row, bin, stream...) left out: a loop bound one short, a tail not handled;
#   doubled  one element taken twice: added, counted or read twice (a loop starting one early, a
#            slice ending one late, the tail added again).
# Each fault is applied to a scratch copy of the tree (never the working tree), the test objects that
# include the patched file are compiled again, nbk_tests is relinked with them, and the workload's
# GoogleTest suites (FILTERS below, every space of the build: serial, openmp, *_gpu_code) must fail.
# The table printed at the end gives each fault, how it was injected and the tests that caught it (or
# NOT CAUGHT); the exit status is 1 if any fault was not caught, or if the unpatched tests fail.
#
# Usage: scripts/faults.sh [--work DIR] [--rev REV] [--preset NAME] [--jobs N] [--list] [--check]
#                          [workload[:dropped|:doubled] ...]
#   --work DIR   scratch directory (default /tmp/nbk-faults): DIR/tree, the copy of the sources, and
#                DIR/build, its build (configured once, kept between runs; later runs copy only the
#                files that changed, so they rebuild only what depends on them).
#   --rev REV    copy the sources at commit REV (git archive) instead of the working tree's tracked and
#                untracked, not ignored, files (the default: uncommitted tests are what get checked).
#   --preset P   the configure preset (default openmp).  --jobs N: parallel compiles (default 2).
#   --list       print the table of faults and exit.   --check: check that every fault's old text is
#                in its file exactly once (no build), and exit.
#   Kokkos_ROOT, if set, is passed to the configure step.
# Builds run under `nice -n 15`. A fault costs the compile of the test files that include the patched
# file (10 s to 3 minutes each on a busy 2-core machine; core/packed.hpp's 8 objects are the most): the
# whole table took 30-40 minutes there, after the first build of the scratch tree (about 20), so CI
# does not run it; run it after changing a kernel or its tests (scripts/faults.sh sum product, say).
#
# How a fault is built: the scratch build is made unpatched first (cmake --build --target nbk_tests)
# and the unpatched suites must pass. For a fault, the patched file is written into the scratch tree,
# every object of nbk_tests that depends on it (ninja's deps) is compiled with its own command into
# DIR/mutant, and nbk_tests is linked with those objects in place of the unpatched ones. The test
# objects come first on the link line, so their (patched) instantiations of the kernels are the ones
# the binary runs; the experiments' libraries keep the unpatched ones, and the suites run here call
# the kernels directly. The file is then restored with its original bytes and time stamp, so the
# scratch build never sees the patch and stays up to date.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export NBK_FAULTS_REPO=$(cd "$here/.." && pwd)
exec python3 - "$@" <<'PY'
import argparse, json, os, re, shlex, shutil, subprocess, sys, tempfile, time
from concurrent.futures import ThreadPoolExecutor

# ---- the faults: (workload, kind, file, old text, new text, how) ----
# `old` must occur exactly once in `file` (--check says where it does not).
K = "lib/nbk/"
FAULTS = [
  # add_one: increment -> update_each (core/packed.hpp), host branch and GPU code's tail.
  ("add_one", "dropped", K + "core/packed.hpp",
   "Kokkos::parallel_for(label, range(exec, 0, n), UpdateEach<View, F>{v, f});",
   "Kokkos::parallel_for(label, range(exec, 0, n - (n > 0)), UpdateEach<View, F>{v, f});",
   "update_each, one element a thread: range one short (the last element not incremented)"),
  ("add_one", "doubled", K + "core/packed.hpp",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i) const { v(i) = f(v(i)); }",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i) const { v(i) = f(v(i)); if (i + 1 == Index(v.extent(0))) v(i) = f(v(i)); }",
   "update_each, one element a thread: the last element incremented twice"),
  # sum: the built-in reduction drops, the team tree's slices overlap.
  ("sum", "dropped", K + "sum/tuned.hpp",
   'return reduce_into_host<Kokkos::Sum, float>("nbk::sum::builtin", range(exec, 0, n),',
   'return reduce_into_host<Kokkos::Sum, float>("nbk::sum::builtin", range(exec, 0, n - (n > 0)),',
   "builtin_sum (host code): range one short, the last element not added"),
  ("sum", "doubled", K + "sum/kernels.hpp",
   "const Index end = detail::smaller(n, begin + slice);",
   "const Index end = detail::smaller(n, begin + slice + 1);",
   "tree_partials: a team's slice ends one late, the next slice's first element added twice"),
  # product: the product reducer drops its last factor; the host log-sum's chunks overlap by one.
  ("product", "dropped", K + "product/kernels.hpp",
   '"nbk::product::prod", range(exec, 0, static_cast<Index>(x.extent(0))),',
   '"nbk::product::prod", range(exec, 0, static_cast<Index>(x.extent(0)) - (x.extent(0) > 0)),',
   "reduce_product: range one short, the last factor left out"),
  ("product", "doubled", K + "product/kernels.hpp",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i, double& partial) const { partial *= x(i); }",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i, double& partial) const { partial *= x(i); if (i == 0) partial *= x(i); }",
   "reduce_product: the first factor multiplied in twice"),
  # maximum: the 3-D map of core/mdrange.hpp (ElementMap's rank-3 call), every non-flat walk.
  ("maximum", "dropped", K + "core/mdrange.hpp",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i, Index j, Index k) const { out(i, j, k) = f(a(i, j, k), b(i, j, k)); }",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i, Index j, Index k) const { if (k + 1 < Index(out.extent(2))) out(i, j, k) = f(a(i, j, k), b(i, j, k)); }",
   "mdrange map, rank 3: the last k of every row not written"),
  ("maximum", "doubled", K + "core/mdrange.hpp",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i, Index j, Index k) const { out(i, j, k) = f(a(i, j, k), b(i, j, k)); }",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i, Index j, Index k) const { const Index s = k > 0 && k + 1 == Index(out.extent(2)) ? k - 1 : k; out(i, j, k) = f(a(i, j, s), b(i, j, s)); }",
   "mdrange map, rank 3: a row's last element computed from the one before (that element read twice)"),
  # sin_exp: its own range.
  ("sin_exp", "dropped", K + "sin_exp/kernels.hpp",
   '"nbk::sin_exp", range(exec, 0, static_cast<Index>(z.extent(0))),',
   '"nbk::sin_exp", range(exec, 0, static_cast<Index>(z.extent(0)) - (z.extent(0) > 0)),',
   "sin_exp: range one short, the last element not written"),
  ("sin_exp", "doubled", K + "sin_exp/kernels.hpp",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i) const { z(i) = nbk::math::sin(x(i)) * nbk::math::exp(y(i)); }",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i) const { const Index s = i > 0 && i + 1 == Index(z.extent(0)) ? i - 1 : i; z(i) = nbk::math::sin(x(s)) * nbk::math::exp(y(s)); }",
   "sin_exp: the last element computed from the one before (that element read twice)"),
  # hypot: the scaled map.
  ("hypot", "dropped", K + "hypot/kernels.hpp",
   '"nbk::hypot", range(exec, 0, static_cast<Index>(h.extent(0))),',
   '"nbk::hypot", range(exec, 0, static_cast<Index>(h.extent(0)) - (h.extent(0) > 0)),',
   "scaled_map: range one short, the last element not written"),
  ("hypot", "doubled", K + "hypot/kernels.hpp",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i) const { h(i) = scaled(x(i), y(i)); }",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i) const { const Index s = i > 0 && i + 1 == Index(h.extent(0)) ? i - 1 : i; h(i) = scaled(x(s), y(s)); }",
   "scaled_map: the last element computed from the one before (that element read twice)"),
  # gaussian: the pdf map.
  ("gaussian", "dropped", K + "gaussian/kernels.hpp",
   '"nbk::gaussian", range(exec, 0, static_cast<Index>(p.extent(0))),',
   '"nbk::gaussian", range(exec, 0, static_cast<Index>(p.extent(0)) - (p.extent(0) > 0)),',
   "pdf_map: range one short, the last element not written"),
  ("gaussian", "doubled", K + "gaussian/kernels.hpp",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i) const { p(i) = pdf(x(i), mean, sigma); }",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i) const { const Index s = i > 0 && i + 1 == Index(p.extent(0)) ? i - 1 : i; p(i) = pdf(x(s), mean, sigma); }",
   "pdf_map: the last element computed from the one before (that element read twice)"),
  # polar: the distance map.
  ("polar", "dropped", K + "polar/kernels.hpp",
   '"nbk::polar", range(exec, 0, static_cast<Index>(d.extent(0))),',
   '"nbk::polar", range(exec, 0, static_cast<Index>(d.extent(0)) - (d.extent(0) > 0)),',
   "distance_map: range one short, the last element not written"),
  ("polar", "doubled", K + "polar/kernels.hpp",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i) const { d(i) = distance(rho1(i), theta1(i), rho2(i), theta2(i)); }",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i) const { const Index s = i > 0 && i + 1 == Index(d.extent(0)) ? i - 1 : i; d(i) = distance(rho1(s), theta1(s), rho2(s), theta2(s)); }",
   "distance_map: the last element computed from the one before (that element read twice)"),
  # add: the range add (core/packed.hpp's map_each) and the document's grid-stride loop.
  ("add", "dropped", K + "core/packed.hpp",
   "Kokkos::parallel_for(label, range(exec, 0, n), MapEach<Out, A, B, F>{out, a, b, f});",
   "Kokkos::parallel_for(label, range(exec, 0, n - (n > 0)), MapEach<Out, A, B, F>{out, a, b, f});",
   "map_each (range_add), one element a thread: range one short, the last element not written"),
  ("add", "doubled", K + "add/kernels.hpp",
   "      out(i) = x(i) + y(i);\n",
   "      out(i) = x(i) + y(i > 0 && i + 1 == n ? i - 1 : i);\n",
   "grid_stride_add: the last element adds the y before it (that y read twice)"),
  # counter: the atomic counter.
  ("counter", "dropped", K + "counter/kernels.hpp",
   '"nbk::counter::atomic", range(exec, 0, increments),',
   '"nbk::counter::atomic", range(exec, 0, increments - (increments > 0)),',
   "atomic_increments: range one short, one increment lost"),
  ("counter", "doubled", K + "counter/kernels.hpp",
   "KOKKOS_INLINE_FUNCTION void operator()(Index) const { Kokkos::atomic_add(counter.data(), Count{1}); }",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i) const { Kokkos::atomic_add(counter.data(), Count{1} + Count(i == 0)); }",
   "atomic_increments: the first index adds twice"),
  # histogram: the atomic histogram drops a sample; the team histogram's slices overlap by one.
  ("histogram", "dropped", K + "histogram/kernels.hpp",
   '"nbk::histogram::atomic", range(exec, 0, static_cast<Index>(x.extent(0))),',
   '"nbk::histogram::atomic", range(exec, 0, static_cast<Index>(x.extent(0)) - (x.extent(0) > 0)),',
   "atomic_histogram: range one short, the last sample not counted"),
  ("histogram", "doubled", K + "histogram/tuned.hpp",
   "  s.loose_begin = first > packed_last ? first : packed_last;\n",
   "  s.loose_begin = (first > packed_last ? first : packed_last) - (first > 0);\n",
   "team_samples (team and GPU private histograms): a team's loose samples start one early, the sample before its slice counted twice"),
  # pi: the host code's pairs of streams.
  ("pi", "dropped", K + "pi/kernels.hpp",
   "mine += inside_quarter_disc(one.urand64()) + inside_quarter_disc(other.urand64());",
   "mine += inside_quarter_disc(one.urand64()) + (k + 1 < samples_per_stream ? inside_quarter_disc(other.urand64()) : 0);",
   "count_inside (host code): the second stream of a pair loses its last point"),
  ("pi", "doubled", K + "pi/kernels.hpp",
   "      mine = count_stream(one, samples_per_stream);\n",
   "      mine = count_stream(one, samples_per_stream);\n      mine += inside_quarter_disc(one.urand64());\n",
   "count_inside (host code): an odd last stream counts one point more than it should (a point drawn past its samples)"),
  # row_sum: the thread-per-row loop and the team-per-row reduction.
  ("row_sum", "dropped", K + "row_sum/kernels.hpp",
   "    for (Index j = 0; j < columns; ++j) total += a(i, j);\n    sums(i) = total;",
   "    for (Index j = 0; j + 1 < columns; ++j) total += a(i, j);\n    sums(i) = total;",
   "flat_row_sums: a row's loop one short, its last element not added"),
  ("row_sum", "doubled", K + "row_sum/tuned.hpp",
   "Kokkos::TeamThreadRange(team, columns), [&](Index j, Value& partial) { partial += a(i, j); }, total);",
   "Kokkos::TeamThreadRange(team, columns), [&](Index j, Value& partial) { partial += a(i, j); if (j + 1 == columns) partial += a(i, j); }, total);",
   "team_row_sums: a row's last element added twice"),
  # l2_norm: the kernel's loop over a row (not the host reference's).
  ("l2_norm", "dropped", K + "l2_norm/kernels.hpp",
   "    for (Index j = 0; j < columns; ++j) {\n      const Acc x = a(i, j);",
   "    for (Index j = 0; j + 1 < columns; ++j) {\n      const Acc x = a(i, j);",
   "row_norms: a row's loop one short, its last square not added"),
  ("l2_norm", "doubled", K + "l2_norm/kernels.hpp",
   "      acc += x * x;\n    }\n    norms(i)",
   "      acc += x * x;\n      if (j == 0) acc += x * x;\n    }\n    norms(i)",
   "row_norms: a row's first square added twice"),
  # matmul: the naive dot product; the tiled kernel's (host) stages overlap by one k.
  ("matmul", "dropped", K + "matmul/kernels.hpp",
   "for (Index k = 0; k < n; ++k) sum += a(i, k) * b(k, j);",
   "for (Index k = 0; k + 1 < n; ++k) sum += a(i, k) * b(k, j);",
   "naive: the dot product one short, the last k left out"),
  ("matmul", "doubled", K + "matmul/kernels.hpp",
   "    for (Index k0 = 0; k0 < n; k0 += Shape::depth) {\n      stage<Shape::rows, Shape::depth, true>",
   "    for (Index k0 = 0; k0 < n; k0 += Shape::depth - 1) {\n      stage<Shape::rows, Shape::depth, true>",
   "tiled (host tiles): each stage after the first starts one k early, that k added twice"),
  # mat_add: the 2-D map of core/mdrange.hpp (ElementMap's rank-2 call), every non-flat walk.
  ("mat_add", "dropped", K + "core/mdrange.hpp",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i, Index j) const { out(i, j) = f(a(i, j), b(i, j)); }",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i, Index j) const { if (i + 1 < Index(out.extent(0)) || j + 1 < Index(out.extent(1))) out(i, j) = f(a(i, j), b(i, j)); }",
   "mdrange map, rank 2: the last element of the matrix not written"),
  ("mat_add", "doubled", K + "core/mdrange.hpp",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i, Index j) const { out(i, j) = f(a(i, j), b(i, j)); }",
   "KOKKOS_INLINE_FUNCTION void operator()(Index i, Index j) const { const Index s = j > 0 && j + 1 == Index(out.extent(1)) ? j - 1 : j; out(i, j) = f(a(i, s), b(i, s)); }",
   "mdrange map, rank 2: a row's last element computed from the one before (that element read twice)"),
]

# Beyond the two of each workload: GPU code's packs (run on the host spaces by the *_gpu_code
# suites), mat_add's streaming row, the float32 row sums' lanes and l2_norm's blocked form.
FAULTS += [
  ("add_one", "dropped-gpu-code", K + "core/packed.hpp",
   "range(exec, 0, packs + (n > packs * width)), UpdatePacks<View, F>{v, p, packs, n, f});",
   "range(exec, 0, packs), UpdatePacks<View, F>{v, p, packs, n, f});",
   "update_each, GPU code: the tail past the last 16-byte pack not launched"),
  ("sum", "dropped-gpu-code", K + "sum/tuned.hpp",
   "for (; i < items; i += threads) visit.one(i);",
   "for (; i + 1 < items; i += threads) visit.one(i);",
   "builtin_sum, GPU code (SumLaunch::walk): the last item past the full rounds (a pack, or a float) not added"),
  ("sum", "doubled-gpu-code", K + "sum/tuned.hpp",
   "for (Index j = items * width + g; j < items * width + extra; j += threads) visit.tail(j);",
   "for (Index j = items * width + g - (g == 0 && items > 0 && extra > 0); j < items * width + extra; j += threads) visit.tail(j);",
   "builtin_sum, GPU code (SumLaunch::walk): thread 0 adds the last pack's last float again with the floats past the packs"),
  ("row_sum", "dropped-gpu-code", K + "row_sum/tuned.hpp",
   "Kokkos::ThreadVectorRange(team, packs_per_row),",
   "Kokkos::ThreadVectorRange(team, packs_per_row - (packs_per_row > 0)),",
   "vector_row_sums, GPU code: a row's last 16-byte pack left out"),
  ("mat_add", "dropped-streaming", K + "mat_add/tuned.hpp",
   "add_streaming(pa + begin, pb + begin, pc + begin, std::min(streaming_block, n - begin));",
   "add_streaming(pa + begin, pb + begin, pc + begin, std::min(streaming_block, n - begin) - (begin + streaming_block >= n));",
   "mat_add_streaming: the last block one short, the matrix's last element not written"),
  ("mat_add", "doubled-streaming", K + "mat_add/tuned.hpp",
   "  for (; i < n; ++i) c[i] = a[i] + b[i];\n",
   "  for (; i < n; ++i) c[i] = a[i] + b[i > 0 && i + 1 == n ? i - 1 : i];\n",
   "mat_add_streaming: a block's last element (in the scalar tail) adds the b before it"),
  ("row_sum", "dropped-lanes", K + "row_sum/tuned.hpp",
   "total += sum::block_partial(x, first, end - first < sum::blocked::block ? end : first + sum::blocked::block);",
   "total += sum::block_partial(x, first, end - first < sum::blocked::block ? end - 1 : first + sum::blocked::block);",
   "vector_row_sums, host code in float32 (LaneRowSums): a row's last element not added"),
  ("l2_norm", "dropped-blocked", K + "l2_norm/tuned.hpp",
   "norms_of_rows<Acc, Columns>(a + first * Columns, norms + first, static_cast<int>(count));",
   "norms_of_rows<Acc, Columns>(a + first * Columns, norms + first, static_cast<int>(count - (first + count == rows)));",
   "blocked_row_norms: the last block one row short, the matrix's last norm not written"),
  ("l2_norm", "doubled-blocked", K + "l2_norm/tuned.hpp",
   "      acc += x * x;\n    }\n    norms[r]",
   "      acc += x * x;\n      if (j == 0) acc += x * x;\n    }\n    norms[r]",
   "blocked_row_norms: a row's first square added twice"),
]

# Issue 53: per team kernel, a thread mapping wrong only at a GPU's shapes (a team of 256, a league of
# thousands, 2^31 samples: caught by the pure functions' tests, GpuCodeShapes) and a plain add where
# threads or teams merge (caught by the GPU code's host runs with teams of one thread side by side,
# GpuCode/openmp_gpu_code). The row sums, the tree sum and the grid-stride add merge by a reduction,
# a barrier tree or not at all: no atomic to lose.
FAULTS += [
  ("histogram", "wrong-mapping", K + "histogram/tuned.hpp",
   "  const Index start = rank * slice;\n",
   "  const Index start = static_cast<int>(rank * slice);\n",
   "team_samples: a team's first sample an int, wrong from sample 2^31 on (3 Gi samples on a GPU)"),
  ("histogram", "wrong-copy", K + "histogram/tuned.hpp",
   "return team_rank % copies;",
   "return team_rank / copies;",
   "copy_of (private GPU kernel): thread t counts into copy t / copies, past the copies from thread 8 on (1 copy: from thread 1)"),
  ("histogram", "lost-atomic-local", K + "histogram/tuned.hpp",
   "      if (bin >= 0) Kokkos::atomic_add(&local(bin), 1);\n",
   "      if (bin >= 0) ++local(bin);\n",
   "team_histogram: a team's threads count into its shared histogram with a plain add"),
  ("histogram", "lost-atomic-merge", K + "histogram/tuned.hpp",
   "if (local(b) != 0) Kokkos::atomic_add(&histogram(b), Count(local(b)));",
   "if (local(b) != 0) histogram(b) += Count(local(b));",
   "team_histogram: teams merge into the histogram with a plain add"),
  ("histogram", "lost-atomic-private", K + "histogram/tuned.hpp",
   "      if (sum != 0) Kokkos::atomic_add(&histogram(b), Count(sum));\n    });",
   "      if (sum != 0) histogram(b) += Count(sum);\n    });",
   "private_histogram_device: teams merge their copies into the histogram with a plain add"),
  ("histogram", "lost-atomic-private-local", K + "histogram/tuned.hpp",
   "if (bin >= 0) Kokkos::atomic_add(&local(bin * copies + copy), 1);",
   "if (bin >= 0) ++local(bin * copies + copy);",
   "private_histogram_device: threads count into their copy with a plain add (threads share a copy where the bins leave one)"),
  ("row_sum", "wrong-mapping", K + "row_sum/tuned.hpp",
   "Index row_stride(Index league, Index per_team) { return league * per_team; }",
   "Index row_stride(Index league, Index per_team) { return league; }",
   "vector_row_sums: a team's next round a league of rows on, not a league of teams' rows (rows summed twice)"),
  ("sum", "wrong-mapping", K + "sum/kernels.hpp",
   "int tree_half(int width) { return (width + 1) / 2; }",
   "int tree_half(int width) { return width / 2; }",
   "tree_partials: the tree's step halves an odd width down (a thread's value lost where a team is not a power of two)"),
  ("sum", "wrong-lane", K + "sum/kernels.hpp",
   "    s.pack_first = r.begin / width + t;\n",
   "    s.pack_first = r.begin / width + t % 32;\n",
   "tree_partials, GPU code: a thread's first pack by its lane in the warp, not its rank in the team"),
  ("add", "wrong-mapping", K + "add/kernels.hpp",
   "  return league_rank * team_size + team_rank;\n",
   "  return league_rank * team_size + team_rank % 32;\n",
   "grid_stride_add: a thread's first element by its lane in the warp, not its rank in the block"),
]

# register_tiled (issue 53): its GPU code runs on the host spaces at the GPU's 256-rank mapping (the
# Matmul suites' "GPU code" kernels) and its tile arithmetic is checked at that shape (RegisterTiles).
FAULTS += [
  ("matmul", "dropped-register", K + "matmul/register_tiled.hpp",
   "  for (int k = 0; k < Shape::depth; ++k) {\n    float x[Shape::block_rows]",
   "  for (int k = 0; k + 1 < Shape::depth; ++k) {\n    float x[Shape::block_rows]",
   "register_tiled: a stage's last k not multiplied"),
  ("matmul", "dropped-register-edge", K + "matmul/register_tiled.hpp",
   "if (j + e < p) c(i, j + e) = acc[r][4 * h + e];",
   "if (j + e + 1 < p) c(i, j + e) = acc[r][4 * h + e];",
   "register_tiled: C's last column not written where its rows are written element by element"),
  ("matmul", "doubled-register", K + "matmul/register_tiled.hpp",
   "load_stage<Shape>(st, rank, a, b, i0, j0, k0 + Shape::depth, t);",
   "load_stage<Shape>(st, rank, a, b, i0, j0, k0 + Shape::depth - 1, t);",
   "register_tiled: each stage after the first loaded one k early, the k before it multiplied twice"),
  ("matmul", "wrong-owner-register", K + "matmul/register_tiled.hpp",
   "return r / 4 * (threads_y * 4) + rank / threads_x * 4 + r % 4;",
   "return r / 4 * (threads_y * 4) + rank % threads_y * 4 + r % 4;",
   "register_tiled: a thread's rows of C from its column rank: 16 threads own each, 15 of 16 blocks none"),
  ("matmul", "wrong-staging-register", K + "matmul/register_tiled.hpp",
   "return pack % (depth / 4) * 4; }",
   "return pack % (depth / 4) / 2 * 8; }",
   "register_tiled: A's k quads staged as 0, 0, 8, 8: quads 0 and 8 twice, 4 and 12 never"),
]

# The GoogleTest suites of each workload (a --gtest_filter).
FILTERS = {
  "add_one": "AddOne*",
  "sum": "Sum/*:HostLoop.*:SumLaunch.*:GpuCode*.TreeSum*",
  "product": "Product*:GpuCode*.LogSum*",
  "maximum": "Maximum*",
  "sin_exp": "SinExp*:GpuCode*.ElementMaps*",
  "hypot": "Hypot*",
  "gaussian": "Elementwise/*.Gaussian*:GpuCode*.ElementMaps*",
  "polar": "Elementwise/*.Polar*:GpuCode*.ElementMaps*",
  "add": "Elementwise*/*.*Add*:GpuCode*.GridStride*-Elementwise*/*.MatAdd*",
  "counter": "Atomics/*.*Counter*",
  "histogram": "Atomics*/*.*Split*:Atomics*/*.EveryWay*:Histogram*:GpuCode*.Histogram*",
  "pi": "Pi*",
  "row_sum": "Rows*/*.*RowSums*:GpuCode*.VectorRowSums*",
  "l2_norm": "Rows/*.*Norm*:Rows/*.DoubleAccumulator*",
  "matmul": "Matmul/*:RegisterTiles.*",
  "mat_add": "Elementwise*/*.MatAdd*",
}
ORDER = ["row_sum", "sum", "product", "sin_exp", "l2_norm", "hypot", "gaussian", "polar", "matmul",
         "add_one", "maximum", "add", "counter", "histogram", "pi", "mat_add"]

p = argparse.ArgumentParser(prog="scripts/faults.sh", description="Each workload's kernels patched with a dropped "
                            "and a doubled element must fail its tests (the script's header says how).")
p.add_argument("--work", default="/tmp/nbk-faults", help="scratch directory: DIR/tree, DIR/build, DIR/mutant")
p.add_argument("--rev", help="the sources at this commit (default: the working tree's files)")
p.add_argument("--preset", default="openmp", help="configure preset (default openmp)")
p.add_argument("--jobs", type=int, default=2, help="parallel compiles (default 2)")
p.add_argument("--list", action="store_true", help="print the faults and exit")
p.add_argument("--check", action="store_true", help="check that every fault applies, build nothing")
p.add_argument("select", nargs="*", help="workload or workload:fault (default: all)")
args = p.parse_args(sys.argv[1:])
repo = os.environ["NBK_FAULTS_REPO"]
work = os.path.abspath(args.work)
tree, build, mutant = os.path.join(work, "tree"), os.path.join(work, "build"), os.path.join(work, "mutant")
nice = ["nice", "-n", "15"]

def log(*a):
    print(*a, flush=True)

selected = []
for w, kind, f, old, new, how in sorted(FAULTS, key=lambda x: (ORDER.index(x[0]), ["dropped", "doubled"].index(x[1]) if x[1] in ("dropped", "doubled") else 2)):
    if not args.select or any(s == w or s == f"{w}:{kind}" for s in args.select):
        selected.append((w, kind, f, old, new, how))
if args.select and not selected:
    sys.exit(f"faults.sh: no fault matches {' '.join(args.select)} (workloads: {' '.join(ORDER)})")
assert set(FILTERS) == set(ORDER) == {x[0] for x in FAULTS}

if args.list:
    for w, kind, f, old, new, how in selected:
        log(f"{w:10} {kind:8} {f}: {how}")
    sys.exit(0)

# ---- the scratch tree: a copy of the sources, files written only where their bytes differ ----
def source_files():
    if args.rev:
        with tempfile.TemporaryDirectory() as t:
            subprocess.run(f"git -C {shlex.quote(repo)} archive {shlex.quote(args.rev)} | tar -x -C {shlex.quote(t)}",
                           shell=True, check=True)
            out = {}
            for root, _, names in os.walk(t):
                for n in names:
                    full = os.path.join(root, n)
                    if os.path.isfile(full) and not os.path.islink(full):
                        out[os.path.relpath(full, t)] = open(full, "rb").read()
            return out
    names = subprocess.run(["git", "-C", repo, "ls-files", "-co", "--exclude-standard", "-z"], check=True,
                           capture_output=True).stdout.decode().split("\0")
    out = {}
    for n in names:
        full = os.path.join(repo, n)
        if n and os.path.isfile(full) and not os.path.islink(full):
            out[n] = open(full, "rb").read()
    return out

def sync_tree():
    files = source_files()
    changed = 0
    for rel, data in files.items():
        dst = os.path.join(tree, rel)
        if os.path.exists(dst) and open(dst, "rb").read() == data:
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as fh:
            fh.write(data)
        changed += 1
    for root, _, names in os.walk(tree):  # files gone from the sources
        for n in names:
            rel = os.path.relpath(os.path.join(root, n), tree)
            if rel not in files:
                os.remove(os.path.join(root, n))
                changed += 1
    return changed

def check_faults(base):
    bad = []
    for w, kind, f, old, new, how in selected:
        text = open(os.path.join(base, f)).read()
        if text.count(old) != 1:
            bad.append(f"{w}:{kind}: its old text occurs {text.count(old)} times in {f}")
    return bad

if args.check:
    os.makedirs(work, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=work) as t:
        if args.rev:
            subprocess.run(f"git -C {shlex.quote(repo)} archive {shlex.quote(args.rev)} | tar -x -C {shlex.quote(t)}",
                           shell=True, check=True)
            base = t
        else:
            base = repo
        bad = check_faults(base)
    for b in bad:
        log(b)
    log("every fault applies" if not bad else f"{len(bad)} faults do not apply")
    sys.exit(1 if bad else 0)

os.makedirs(tree, exist_ok=True)
os.makedirs(mutant, exist_ok=True)
t0 = time.time()
log(f"faults.sh: {sync_tree()} files copied into {tree}")
bad = check_faults(tree)
if bad:
    for b in bad:
        log(b)
    sys.exit("faults.sh: the table no longer matches the kernels: fix FAULTS")

def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)

if not os.path.exists(os.path.join(build, "build.ninja")):
    cfg = nice + ["cmake", "--preset", args.preset, "-S", tree, "-B", build, "-DNBK_BUILD_BENCHMARKS=OFF"]
    if os.environ.get("Kokkos_ROOT"):
        cfg.append("-DKokkos_ROOT=" + os.environ["Kokkos_ROOT"])
    run(cfg, stdout=subprocess.DEVNULL)
log("faults.sh: building nbk_tests (unpatched)")
b = subprocess.run(nice + ["cmake", "--build", build, "--target", "nbk_tests", "-j", str(args.jobs)],
                   capture_output=True, text=True)
if b.returncode != 0:
    log(b.stdout[-5000:], b.stderr[-5000:])
    sys.exit("faults.sh: the unpatched build failed")
binary = os.path.join(build, "tests", "nbk_tests")

# Which of nbk_tests' objects depend on which source file (ninja's deps log), their compile commands
# (compile_commands.json) and the link command.
deps_text = run(["ninja", "-C", build, "-t", "deps"], capture_output=True, text=True).stdout
depends = {}
current = None
for line in deps_text.splitlines():
    if line and not line[0].isspace():
        current = line.split(":")[0]
        if "nbk_tests.dir" not in current:
            current = None
    elif current and line.strip():
        path = os.path.normpath(os.path.join(build, line.strip()))
        depends.setdefault(os.path.realpath(path), []).append(current)
commands = {}
for entry in json.load(open(os.path.join(build, "compile_commands.json"))):
    out = entry.get("output")
    cmd = entry["command"]
    if not out:
        m = re.search(r"-o (\S+)", cmd)
        out = m.group(1) if m else None
    if out and "nbk_tests.dir" in out:
        commands[out] = (entry["directory"], cmd)
link = run(["ninja", "-C", build, "-t", "commands", "tests/nbk_tests"], capture_output=True,
           text=True).stdout.strip().splitlines()[-1]

def build_mutant(rel):
    """Compile nbk_tests' objects that include `rel` (patched in the tree) and link them; the binary's path."""
    objects = depends.get(os.path.realpath(os.path.join(tree, rel)), [])
    if not objects:
        raise RuntimeError(f"no test object includes {rel}")
    def compile_one(obj):
        directory, cmd = commands[obj]
        target = os.path.join(mutant, obj.replace("/", "_"))
        cmd = re.sub(r" -MD -MT \S+ -MF \S+", "", cmd)
        cmd = cmd.replace(f"-o {obj}", f"-o {target}")
        r = subprocess.run(" ".join(nice) + " " + cmd, shell=True, cwd=directory, capture_output=True, text=True)
        return obj, target, r
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(compile_one, objects))
    failed = [r for _, _, r in results if r.returncode != 0]
    if failed:
        return None, failed[0].stderr[-3000:], len(objects)
    cmd = link
    for obj, target, _ in results:
        cmd = cmd.replace(obj, target)
    out = os.path.join(mutant, "nbk_tests")
    cmd = re.sub(r"-o (\S*)nbk_tests(\s)", f"-o {out}\\2", cmd, count=1)
    cmd = re.sub(r"\s*&&\s*:\s*$", "", re.sub(r"^\s*:\s*&&\s*", "", cmd))  # ninja's ": && ... && :"
    r = subprocess.run(" ".join(nice) + " " + cmd, shell=True, cwd=build, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr[-3000:], len(objects)
    return out, "", len(objects)

env = dict(os.environ, OMP_NUM_THREADS="2", OMP_PROC_BIND="false")

def run_suites(exe, filt, timeout=900):
    """The failed tests of `filt` (a list), or ['TIMEOUT'] / ['CRASH ...'] when the binary did not finish."""
    try:
        r = subprocess.run([exe, f"--gtest_filter={filt}", "--gtest_brief=1"], capture_output=True, text=True,
                           timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return ["TIMEOUT (hung past %d s)" % timeout], ""
    failed = sorted(set(re.findall(r"^\[  FAILED  \] ([\w/]+\.\w+)", r.stdout, re.M)))
    if r.returncode != 0 and not failed:
        failed = [f"CRASH (exit {r.returncode})"]
    return failed, r.stdout + r.stderr

# ---- the unpatched suites pass ----
workloads = [w for w in ORDER if any(x[0] == w for x in selected)]
bad_baseline = []
for w in workloads:
    failed, out = run_suites(binary, FILTERS[w])
    if failed:
        bad_baseline.append((w, failed))
        log(out[-3000:])
if bad_baseline:
    for w, failed in bad_baseline:
        log(f"faults.sh: {w}'s suites fail unpatched: {' '.join(failed)}")
    sys.exit(1)
log(f"faults.sh: the unpatched suites pass ({time.time() - t0:.0f} s)")
# The way faults are built, without a fault: the first fault's file compiled and linked as a patched
# one would be, whose suites must pass too.
w, rel = selected[0][0], selected[0][2]
exe, error, nobj = build_mutant(rel)
failed = run_suites(exe, FILTERS[w])[0] if exe else ["BUILD FAILED: " + error]
if failed:
    sys.exit(f"faults.sh: {w}'s suites fail when {rel} is rebuilt unpatched as faults are: {' '.join(failed)}")
log(f"faults.sh: {rel} rebuilt unpatched as a fault is ({nobj} objects): {w}'s suites pass")

# ---- the faults ----
rows = []
for w, kind, rel, old, new, how in selected:
    path = os.path.join(tree, rel)
    original = open(path, "rb").read()
    stat = os.stat(path)
    t1 = time.time()
    try:
        with open(path, "wb") as fh:
            fh.write(original.replace(old.encode(), new.encode(), 1))
        exe, error, nobj = build_mutant(rel)
    finally:
        with open(path, "wb") as fh:
            fh.write(original)
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    if exe is None:
        verdict = "BUILD FAILED: " + error.strip().splitlines()[-1][:200] if error.strip() else "BUILD FAILED"
        rows.append((w, kind, rel, how, verdict, False))
        log(error)
    else:
        failed, _ = run_suites(exe, FILTERS[w])
        openmp_first = sorted(failed, key=lambda t: ("/openmp" not in t, t))
        verdict = ", ".join(openmp_first[:3]) + (f" (+{len(failed) - 3} more)" if len(failed) > 3 else "") if failed else "NOT CAUGHT"
        rows.append((w, kind, rel, how, verdict, bool(failed)))
    log(f"[{time.time() - t1:4.0f} s, {nobj} objects] {w} {kind}: {rows[-1][4]}")

# ---- the table ----
log("")
log("| workload | fault | how injected | caught by |")
log("|---|---|---|---|")
for w, kind, rel, how, verdict, ok in rows:
    log(f"| {w} | {kind} | `{rel.replace('lib/nbk/', '')}`: {how} | {verdict} |")
missed = [r for r in rows if not r[5]]
log(f"\n{len(rows) - len(missed)} of {len(rows)} faults caught ({time.time() - t0:.0f} s)")
sys.exit(1 if missed else 0)
PY
