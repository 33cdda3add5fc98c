#pragma once
// Errors a user can fix by changing the command line (exit code 2), as opposed to a
// result that failed verification (exit code 1).
#include <stdexcept>
#include <string>

namespace nbk {

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr int exit_ok = 0;
inline constexpr int exit_verification_failed = 1;
inline constexpr int exit_bad_input = 2;

}  // namespace nbk
