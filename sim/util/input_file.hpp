// Reading an input file whole, bounded: what people and other tools hand us may be a FIFO, a
// device (/dev/zero never ends) or simply far too large, and must give an error, not a hang or an
// out-of-memory kill.
#pragma once
#include <cstdint>
#include <string>

namespace ptxmma {

// Binary data files (golden-set .bin, also after xz decompression) are refused above this size;
// text inputs (PTX, YAML, JSON manifests) above the input-bytes budget (sim/util/budget.hpp).
inline constexpr std::uint64_t kMaxDataFileBytes = 1ULL << 30;

// The bytes of a text input `path`. Error "<path>: cannot open", "<path>: not a regular file" or
// "<path>: N bytes, more than the budget of M (raise it with --max-input-bytes)".
std::string read_input_file(const std::string& path);
// The same with a fixed limit: "<path>: N bytes, more than the limit of M".
std::string read_input_file(const std::string& path, std::uint64_t max_bytes);

}  // namespace ptxmma
