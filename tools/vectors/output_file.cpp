#include "tools/vectors/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "sim/error.hpp"

namespace ptxmma {
namespace {

[[noreturn]] void cannot_write(const std::string& path, int err) {
  throw Error(fmt::format("{}: cannot write ({})", path, std::strerror(err)));
}

// All of `contents` to `fd`, or the errno of the write that failed.
int write_all(int fd, std::string_view contents) {
  while (!contents.empty()) {
    const ssize_t n = ::write(fd, contents.data(), contents.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    contents.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

}  // namespace

void check_output_path(const std::string& path) {
  if (path == "-") return;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  for (const char* manifest : {"manifest.json", "manifest.csv"})
    if (fs::exists(dir / manifest, ec))
      throw Error(fmt::format("{}: {} holds a golden set ({}); ptxmma does not write there", path, dir.string(), manifest));
}

void write_output_file(const std::string& path, std::string_view contents) {
  if (path == "-") {  // stdout, after what the program printed there so far
    std::cout.flush();
    if (const int err = write_all(STDOUT_FILENO, contents)) cannot_write("stdout", err);
    return;
  }
  check_output_path(path);
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const fs::file_status st = fs::status(target, ec);
  if (fs::exists(st) && !fs::is_regular_file(st)) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) cannot_write(path, errno);
    const int err = write_all(fd, contents);
    if (::close(fd) != 0 && err == 0) cannot_write(path, errno);
    if (err != 0) cannot_write(path, err);
    return;
  }
  std::string name = ".";
  name += target.filename().string();
  name += ".XXXXXX";
  std::string tmp = (dir / name).string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) cannot_write(path, errno);
  int err = write_all(fd, contents);
  if (err == 0 && ::fchmod(fd, 0644) != 0) err = errno;
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && ::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(tmp.c_str());
    cannot_write(path, err);
  }
}

}  // namespace ptxmma
