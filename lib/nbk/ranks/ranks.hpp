#pragma once
// The processes of one run: MPI ranks in a build configured with NBK_MPI=ON, one process
// otherwise. Everything else in the project calls these functions and never MPI itself, so a
// build without MPI needs no MPI headers and every function below is then trivial.
//
// Every function that communicates is collective: all ranks call it, in the same order.
#include <cstdint>
#include <iosfwd>
#include <string>

namespace nbk::ranks {

#if defined(NBK_ENABLE_MPI)
inline constexpr bool enabled = true;
#else
inline constexpr bool enabled = false;
#endif

// MPI_Init on construction (unless MPI is already up) and MPI_Finalize on destruction.
// With Output::rank_0, ranks other than 0 have std::cout, std::cerr and std::clog silenced,
// so that one rank reports (a program); errors only one rank sees go to error_stream().
enum class Output { rank_0, every_rank };

class Session {
 public:
  Session(int& argc, char**& argv, Output output = Output::rank_0);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

 private:
  bool owns_ = false;
};

int count();        // ranks in the job (1 without MPI)
int rank();         // this rank, 0 to count() - 1
int local_rank();   // this rank among the ranks on its node
int local_count();  // ranks on this node
inline bool leader() { return rank() == 0; }

// stderr as the process opened it, whichever rank this is (for errors only this rank saw).
std::ostream& error_stream();

void barrier();
double max(double value);
double min(double value);
std::int64_t sum(std::int64_t value);
double sum(double value);
float sum(float value);  // MPI_FLOAT: the float accumulator's partials stay float
void sum(std::int64_t* values, int count);  // element by element, in place
// The sum of `value` over the ranks below this one (0 on rank 0): where this rank's slice of
// a running sum starts.
double exclusive_sum(double value);
bool all(bool value);
// The lowest rank for which `value` is true, or -1 when it is false on every rank.
int first_with(bool value);

// Ends every rank of the job with `code` (MPI_Abort); without MPI, std::exit(code).
[[noreturn]] void abort_job(int code);

// This rank's share of n elements: [begin, end), contiguous, sizes differing by at most one,
// the lower ranks taking the remainder (np.array_split's rule).
struct Slice {
  std::int64_t begin = 0, end = 0;
  std::int64_t size() const { return end - begin; }
};
Slice slice_of(std::int64_t n, int rank, int count);
inline Slice my_slice(std::int64_t n) { return slice_of(n, rank(), count()); }

// "2 ranks on 1 node, 1 GPU: ranks share a GPU" (collective): one line for the output.
std::string describe_layout(int devices_per_node);

}  // namespace nbk::ranks
