#include "sim/util/input_file.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <system_error>

#include "sim/error.hpp"
#include "sim/util/budget.hpp"

namespace ptxmma {

namespace {

std::string read_bounded(const std::string& path, std::uint64_t max_bytes, bool budget) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw Error(fmt::format("{}: cannot open", path));
  if (!fs::is_regular_file(st)) throw Error(fmt::format("{}: not a regular file", path));
  const std::uint64_t size = fs::file_size(path, ec);
  if (ec) throw Error(fmt::format("{}: cannot open", path));
  if (size > max_bytes)
    throw Error(budget ? fmt::format("{}: {}", path, over_budget(size, "bytes", max_bytes, "--max-input-bytes"))
                       : fmt::format("{}: {} bytes, more than the limit of {}", path, size, max_bytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot open", path));
  std::string bytes(static_cast<std::size_t>(size), '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  if (in.gcount() != static_cast<std::streamsize>(size)) throw Error(fmt::format("{}: read error", path));
  return bytes;
}

}  // namespace

std::string read_input_file(const std::string& path) { return read_bounded(path, budget().input_bytes, true); }

std::string read_input_file(const std::string& path, std::uint64_t max_bytes) {
  return read_bounded(path, max_bytes, false);
}

}  // namespace ptxmma
