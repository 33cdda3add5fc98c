#include "nbk/report/json_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "nbk/core/errors.hpp"

namespace nbk {

namespace {

constexpr std::size_t trial_bytes = std::size_t{1} << 20;  // more than any program's report

std::string temporary_beside(const std::string& path) { return path + ".tmp-" + std::to_string(::getpid()); }

// Writes `text` to the new file `path` and syncs it: "" when that worked, else why not (and
// the file is removed).
std::string write_new_file(const std::string& path, std::string_view text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) return std::strerror(errno);
  std::string why;
  for (std::size_t done = 0; why.empty() && done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n >= 0)
      done += static_cast<std::size_t>(n);
    else if (errno != EINTR)
      why = std::strerror(errno);
  }
  if (why.empty() && ::fsync(fd) != 0) why = std::strerror(errno);
  if (::close(fd) != 0 && why.empty()) why = std::strerror(errno);
  if (!why.empty()) ::unlink(path.c_str());
  return why;
}

[[noreturn]] void refuse(const std::string& path, const std::string& why, const std::string& option) {
  throw InputError(option + " '" + path + "': cannot write it (" + why + ")");
}

}  // namespace

void require_writable_json(const std::string& path, const std::string& option) {
  if (path.empty()) return;
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode)) refuse(path, "not a regular file", option);
  const std::string trial = temporary_beside(path);
  if (const std::string why = write_new_file(trial, std::string(trial_bytes, ' ')); !why.empty()) refuse(path, why, option);
  ::unlink(trial.c_str());
}

void write_json_file(const std::string& path, const nlohmann::json& document, const std::string& option) {
  const std::string temporary = temporary_beside(path);
  std::string why = write_new_file(temporary, document.dump(2) + '\n');
  if (why.empty() && std::rename(temporary.c_str(), path.c_str()) != 0) {
    why = std::strerror(errno);
    ::unlink(temporary.c_str());
  }
  if (!why.empty()) refuse(path, why, option);
}

}  // namespace nbk
