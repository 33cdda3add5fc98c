#pragma once
// A program stopped by SIGINT, SIGTERM or SIGHUP: the handler only records the signal; the
// program reads it between calls, outside every clock (repeat.hpp, program.cpp), starts no new
// row, writes what it finished and exits 128 + the signal's number. A second signal ends the
// process at once (the default action, re-raised). Without stop_on_signals() (the tests, the
// benchmarks) stop_signal() is always 0.
#include <string>

namespace nbk {

// Installs the handler for SIGINT, SIGTERM and SIGHUP.
void stop_on_signals();

// The signal that asked this process to stop, or 0.
int stop_signal() noexcept;
inline bool stop_requested() noexcept { return stop_signal() != 0; }

// "SIGINT", "SIGTERM", "SIGHUP" (else "signal N").
std::string signal_name(int signal);

}  // namespace nbk
