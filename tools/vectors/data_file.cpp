#include "tools/vectors/data_file.hpp"

#include <fmt/format.h>
#include <lzma.h>

#include <filesystem>

#include "sim/util/budget.hpp"
#include "sim/error.hpp"

namespace ptxmma {

namespace {

// Memory liblzma may use for its dictionary; xz -9 needs 65 MiB, a forged header could ask GiBs.
constexpr std::uint64_t kXzMemLimit = 128ULL << 20;

std::vector<std::uint8_t> unxz(const std::string& path, const std::string& in, std::uint64_t max_bytes) {
  lzma_stream s = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&s, kXzMemLimit, LZMA_CONCATENATED) != LZMA_OK)
    throw Error(fmt::format("{}: cannot start the xz decoder", path));
  std::vector<std::uint8_t> out(std::min<std::uint64_t>(in.size() * 4 + 4096, max_bytes + 1));
  s.next_in = reinterpret_cast<const std::uint8_t*>(in.data());
  s.avail_in = in.size();
  s.next_out = out.data();
  s.avail_out = out.size();
  for (;;) {
    const lzma_ret r = lzma_code(&s, LZMA_FINISH);
    if (r == LZMA_STREAM_END) break;
    if (r == LZMA_OK && s.avail_out == 0) {
      const std::size_t used = out.size();
      if (used > max_bytes) {
        lzma_end(&s);
        throw Error(fmt::format("{}: more than {} bytes when decompressed, the most it may hold", path, max_bytes));
      }
      out.resize(std::min<std::uint64_t>(used * 2, max_bytes + 1));
      s.next_out = out.data() + used;
      s.avail_out = out.size() - used;
      continue;
    }
    if (r == LZMA_OK) continue;  // with input left to finish, liblzma answers LZMA_BUF_ERROR next
    lzma_end(&s);
    const char* why = r == LZMA_BUF_ERROR        ? "truncated"
                      : r == LZMA_FORMAT_ERROR   ? "no xz header"
                      : r == LZMA_DATA_ERROR     ? "corrupt data"
                      : r == LZMA_OPTIONS_ERROR  ? "unsupported options"
                      : r == LZMA_MEMLIMIT_ERROR ? "its dictionary needs more than 128 MiB"
                      : r == LZMA_MEM_ERROR      ? "out of memory"
                                                 : "liblzma failed";
    throw Error(fmt::format("{}: not a valid xz file ({}, liblzma error {})", path, why, static_cast<int>(r)));
  }
  out.resize(static_cast<std::size_t>(s.total_out));
  lzma_end(&s);
  if (out.size() > max_bytes)
    throw Error(fmt::format("{}: more than {} bytes when decompressed, the most it may hold", path, max_bytes));
  return out;
}

}  // namespace

std::string resolve_data_file(const std::string& path) {
  namespace fs = std::filesystem;
  if (fs::exists(path)) return path;
  if (fs::exists(path + ".xz")) return path + ".xz";
  throw Error(fmt::format("{}: cannot open (nor {}.xz)", path, path));
}

std::vector<std::uint8_t> decode_data_file(const std::string& bytes, const std::string& name, std::uint64_t max_bytes) {
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".xz") == 0) return unxz(name, bytes, max_bytes);
  if (bytes.size() > max_bytes)
    throw Error(fmt::format("{}: {} bytes, more than the limit of {}", name, bytes.size(), max_bytes));
  return {bytes.begin(), bytes.end()};
}

std::vector<std::uint8_t> read_data_file(const std::string& path) {
  const std::string actual = resolve_data_file(path);
  return decode_data_file(read_input_file(actual, kMaxDataFileBytes), actual);
}

std::vector<std::uint8_t> read_golden_file(const std::string& path, std::uint64_t expected) {
  const std::string actual = resolve_data_file(path);
  check_golden_bytes(actual, expected);
  if (!actual.ends_with(".xz"))  // as long as it is: a wrong size is the reader's error
    return decode_data_file(read_input_file(actual, budget().golden_bytes), actual, budget().golden_bytes);
  return decode_data_file(read_input_file(actual, kMaxDataFileBytes), actual, expected);
}

void check_golden_bytes(const std::string& name, std::uint64_t expected) {
  if (3 * expected > budget().golden_bytes)  // expected < 2^40: cases <= 2^20 of < 2^20 bytes
    throw Error(fmt::format("{}: {}", name,
                            over_budget(3 * expected,
                                        fmt::format("golden bytes in flight (the manifest's cases, {} bytes, held three "
                                                    "times while read)",
                                                    expected),
                                        budget().golden_bytes, "--max-golden-bytes")));
}

void count_golden_cases(std::uint64_t& total, int cases, const std::string& where) {
  total += static_cast<std::uint64_t>(cases);
  if (total > budget().golden_cases)
    throw Error(fmt::format("{}: {}", where,
                            over_budget(total, "golden cases in the manifest", budget().golden_cases,
                                        "--max-golden-cases")));
}

}  // namespace ptxmma
