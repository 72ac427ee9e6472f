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
// `bytes` as read from a file called `name`: xz-decompressed when `name` ends in .xz. Error when
// the result would exceed `max_bytes` (a decompression bomb) or the stream is not valid xz.
std::vector<std::uint8_t> decode_data_file(const std::string& bytes, const std::string& name,
                                           std::uint64_t max_bytes = kMaxDataFileBytes);

}  // namespace ptxmma
