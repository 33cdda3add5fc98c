#include "nbk/ranks/ranks.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <streambuf>

#if defined(NBK_ENABLE_MPI)
#include <mpi.h>
#endif

namespace nbk::ranks {

namespace {

// A stream buffer that drops everything: the output of ranks other than 0.
class NullBuffer final : public std::streambuf {
 protected:
  int overflow(int c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

std::streambuf* original_stderr = nullptr;

void silence_unless_leader(Output output) {
  static NullBuffer null;
  original_stderr = std::cerr.rdbuf();
  if (leader() || output == Output::every_rank) return;
  std::cout.rdbuf(&null);
  std::cerr.rdbuf(&null);
  std::clog.rdbuf(&null);
}

#if defined(NBK_ENABLE_MPI)
MPI_Comm node_comm() {
  static MPI_Comm comm = [] {
    MPI_Comm c;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c);
    return c;
  }();
  return comm;
}

template <class T>
T all_reduce(T value, MPI_Datatype type, MPI_Op op) {
  T result{};
  MPI_Allreduce(&value, &result, 1, type, op, MPI_COMM_WORLD);
  return result;
}
#endif

}  // namespace

Session::Session(int& argc, char**& argv, Output output) {
#if defined(NBK_ENABLE_MPI)
  int up = 0;
  MPI_Initialized(&up);
  if (!up) {
    MPI_Init(&argc, &argv);
    owns_ = true;
  }
#else
  (void)argc;
  (void)argv;
#endif
  silence_unless_leader(output);
}

Session::~Session() {
  if (original_stderr) {
    std::cout.flush();
    std::cerr.rdbuf(original_stderr);
  }
#if defined(NBK_ENABLE_MPI)
  if (owns_) MPI_Finalize();
#endif
}

std::ostream& error_stream() {
  static std::ostream stream(nullptr);
  stream.rdbuf(original_stderr ? original_stderr : std::cerr.rdbuf());
  return stream;
}

#if defined(NBK_ENABLE_MPI)

int count() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}
int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int local_rank() {
  int r = 0;
  MPI_Comm_rank(node_comm(), &r);
  return r;
}
int local_count() {
  int n = 1;
  MPI_Comm_size(node_comm(), &n);
  return n;
}
void barrier() { MPI_Barrier(MPI_COMM_WORLD); }
double max(double value) { return all_reduce(value, MPI_DOUBLE, MPI_MAX); }
double min(double value) { return all_reduce(value, MPI_DOUBLE, MPI_MIN); }
std::int64_t sum(std::int64_t value) { return all_reduce(value, MPI_INT64_T, MPI_SUM); }
double sum(double value) { return all_reduce(value, MPI_DOUBLE, MPI_SUM); }
float sum(float value) { return all_reduce(value, MPI_FLOAT, MPI_SUM); }
void sum(std::int64_t* values, int count) {
  MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
}
double exclusive_sum(double value) {
  double below = 0;
  MPI_Exscan(&value, &below, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return rank() == 0 ? 0.0 : below;  // MPI leaves rank 0's result undefined
}
bool all(bool value) { return all_reduce(value ? 1 : 0, MPI_INT, MPI_MIN) == 1; }
int first_with(bool value) {
  const int lowest = all_reduce(value ? rank() : count(), MPI_INT, MPI_MIN);
  return lowest < count() ? lowest : -1;
}
void abort_job(int code) {
  std::cout.flush();
  error_stream().flush();
  MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);  // not reached
}

#else

int count() { return 1; }
int rank() { return 0; }
int local_rank() { return 0; }
int local_count() { return 1; }
void barrier() {}
double max(double value) { return value; }
double min(double value) { return value; }
std::int64_t sum(std::int64_t value) { return value; }
double sum(double value) { return value; }
float sum(float value) { return value; }
void sum(std::int64_t*, int) {}
double exclusive_sum(double) { return 0.0; }
bool all(bool value) { return value; }
int first_with(bool value) { return value ? 0 : -1; }
void abort_job(int code) {
  std::cout.flush();
  std::exit(code);
}

#endif

Slice slice_of(std::int64_t n, int rank, int count) {
  const std::int64_t base = n / count, extra = n % count;
  const std::int64_t begin = rank * base + (rank < extra ? rank : extra);
  return {begin, begin + base + (rank < extra ? 1 : 0)};
}

std::string describe_layout(int devices_per_node) {
  const int ranks = count();
  const int most_on_a_node = static_cast<int>(max(static_cast<double>(local_count())));
  const int nodes = static_cast<int>(sum(std::int64_t{local_rank() == 0 ? 1 : 0}));
  std::string text = fmt::format("{} rank{} on {} node{}", ranks, ranks == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s");
  if (devices_per_node > 0) {
    text += fmt::format(", {} GPU{} per node, rank r on GPU (local rank mod {})", devices_per_node,
                        devices_per_node == 1 ? "" : "s", devices_per_node);
    if (most_on_a_node > devices_per_node)
      text += fmt::format(": up to {} ranks share one GPU (correct, but they take turns)",
                          (most_on_a_node + devices_per_node - 1) / devices_per_node);
  }
  return text;
}

}  // namespace nbk::ranks
