// Reading data files that may be stored compressed: `name` or, when only `name.xz` exists, its
// xz-decompressed contents (tests/data keeps large golden sets as .xz).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ptxmma {

// `path` if it exists, else `path.xz` if that exists, else Error "<path>: cannot open (nor <path>.xz)".
std::string resolve_data_file(const std::string& path);
// The bytes of resolve_data_file(path), decompressed if it ends in .xz. Errors name the file.
std::vector<std::uint8_t> read_data_file(const std::string& path);

}  // namespace ptxmma
