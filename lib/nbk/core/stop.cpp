#include "nbk/core/stop.hpp"

#include <csignal>

namespace nbk {

namespace {

volatile std::sig_atomic_t stop_signal_number = 0;

extern "C" void on_stop_signal(int signal) {
  if (stop_signal_number != 0) {  // the second: end now, as if no handler were installed
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  stop_signal_number = signal;
}

}  // namespace

void stop_on_signals() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // reads and writes in flight go on
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal, &action, nullptr);
}

int stop_signal() noexcept { return stop_signal_number; }

std::string signal_name(int signal) {
  switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "signal " + std::to_string(signal);
  }
}

}  // namespace nbk
