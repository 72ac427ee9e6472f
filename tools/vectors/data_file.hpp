// Reading data files that may be stored compressed: `name` or, when only `name.xz` exists, its
// xz-decompressed contents (tests/data keeps large golden sets as .xz).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/util/input_file.hpp"

namespace ptxmma {

// `path` if it exists, else `path.xz` if that exists, else Error "<path>: cannot open (nor <path>.xz)".
std::string resolve_data_file(const std::string& path);
// The bytes of resolve_data_file(path), decompressed if it ends in .xz. Errors name the file.
std::vector<std::uint8_t> read_data_file(const std::string& path);
// A golden-set data file whose manifest says it holds `expected` bytes (decompressed): first the
// budget (sim/util/budget.hpp: --max-golden-bytes) is checked for those bytes and the two copies the
// readers make of them (words, then cases), then the file is read; an .xz is decompressed no
// further than `expected` bytes, so a small file cannot expand to GiBs.
std::vector<std::uint8_t> read_golden_file(const std::string& path, std::uint64_t expected);
// The budget check of read_golden_file: Error "<name>: N golden bytes in flight ..., more than the
// budget of M (raise it with --max-golden-bytes)".
void check_golden_bytes(const std::string& name, std::uint64_t expected);
// The work budget of a golden set (--max-golden-cases), checked as its manifest is read, before
// any replay: `total` counts the cases of the entries so far and grows by `cases`. Every case is
// replayed (a 2^20-case entry takes about 100 s), so many large entries would run for hours. Error
// "<where>: N golden cases in the manifest, more than the budget of M (raise it with ...)".
void count_golden_cases(std::uint64_t& total, int cases, const std::string& where);
// `bytes` as read from a file called `name`: xz-decompressed when `name` ends in .xz. Error when
// the result would exceed `max_bytes` (a decompression bomb) or the stream is not valid xz.
std::vector<std::uint8_t> decode_data_file(const std::string& bytes, const std::string& name,
                                           std::uint64_t max_bytes = kMaxDataFileBytes);

}  // namespace ptxmma
