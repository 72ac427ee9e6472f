// A lookup table of one approximate special function of the GPU (rcp.approx, sqrt.approx, ...):
// the hardware's result bits for each table index, captured on the device by
// tools/capture/special_check and stored in configs/special/NAME.xz (format in special_table.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ptxmma {

struct SpecialTable {
  std::string name;                // e.g. "rcp.approx.f32"
  unsigned index_bits = 0;         // the table has 2^index_bits entries
  std::vector<std::uint32_t> entries;

  std::uint32_t operator[](std::uint32_t i) const { return entries[i]; }
};

// The file's bytes (xz-compressed) <-> the table. Errors name `path` and what is wrong.
SpecialTable read_special_table(const std::string& path);
void write_special_table(const std::string& path, const SpecialTable& table);

// The uncompressed form (what the .xz holds); `path` only names the source in errors.
std::string encode_special_table(const SpecialTable& table);
SpecialTable decode_special_table(const std::string& path, const std::string& data);

}  // namespace ptxmma
