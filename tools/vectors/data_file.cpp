#include "tools/vectors/data_file.hpp"

#include <fmt/format.h>
#include <lzma.h>

#include <filesystem>
#include <fstream>

#include "sim/error.hpp"

namespace ptxmma {

namespace {

std::vector<std::uint8_t> read_raw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot open", path));
  in.seekg(0, std::ios::end);
  const auto size = static_cast<std::size_t>(in.tellg());
  in.seekg(0);
  std::vector<std::uint8_t> bytes(size);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
  if (!in) throw Error(fmt::format("{}: read error", path));
  return bytes;
}

std::vector<std::uint8_t> unxz(const std::string& path, const std::vector<std::uint8_t>& in) {
  lzma_stream s = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
    throw Error(fmt::format("{}: cannot start the xz decoder", path));
  std::vector<std::uint8_t> out(in.size() * 4 + 4096);
  s.next_in = in.data();
  s.avail_in = in.size();
  s.next_out = out.data();
  s.avail_out = out.size();
  for (;;) {
    const lzma_ret r = lzma_code(&s, LZMA_FINISH);
    if (r == LZMA_STREAM_END) break;
    if (r == LZMA_OK && s.avail_out == 0) {
      const std::size_t used = out.size();
      out.resize(used * 2);
      s.next_out = out.data() + used;
      s.avail_out = out.size() - used;
      continue;
    }
    lzma_end(&s);
    throw Error(fmt::format("{}: not a valid xz file (liblzma error {}{})", path, static_cast<int>(r),
                            r == LZMA_BUF_ERROR ? ": truncated" : ""));
  }
  out.resize(static_cast<std::size_t>(s.total_out));
  lzma_end(&s);
  return out;
}

}  // namespace

std::string resolve_data_file(const std::string& path) {
  namespace fs = std::filesystem;
  if (fs::exists(path)) return path;
  if (fs::exists(path + ".xz")) return path + ".xz";
  throw Error(fmt::format("{}: cannot open (nor {}.xz)", path, path));
}

std::vector<std::uint8_t> read_data_file(const std::string& path) {
  const std::string actual = resolve_data_file(path);
  std::vector<std::uint8_t> bytes = read_raw(actual);
  if (actual.size() > 3 && actual.compare(actual.size() - 3, 3, ".xz") == 0) return unxz(actual, bytes);
  return bytes;
}

}  // namespace ptxmma
