// libFuzzer target: a golden set's manifest and data file (tools/vectors/golden_set.hpp,
// wgmma_golden.hpp, data_file.hpp). The input is the manifest.json text, a NUL byte, then the
// bytes of the .bin every entry reads (xz-compressed when they start with the xz magic).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/error.hpp"
#include "tools/vectors/data_file.hpp"
#include "tools/vectors/golden_set.hpp"
#include "tools/vectors/wgmma_golden.hpp"

namespace {
// Small enough for many executions per second, large enough for real seeds' cases.
constexpr std::uint64_t kMaxBytes = 4ULL << 20;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string manifest(input.substr(0, nul));
  const std::string bin(nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1));
  const bool xz = bin.starts_with("\xfd" "7zXZ");
  try {
    const std::vector<std::uint8_t> bytes = ptxmma::decode_data_file(bin, xz ? "v.bin.xz" : "v.bin", kMaxBytes);
    if (manifest.find(ptxmma::kWgmmaGoldenFormat) != std::string::npos) {
      for (const auto& e : ptxmma::parse_wgmma_golden_manifest(manifest, "set").entries) {
        try {
          (void)ptxmma::split_wgmma_golden_cases(e, bytes, "v.bin");
        } catch (const ptxmma::Error&) {
        }
      }
    } else {
      for (const auto& v : ptxmma::parse_golden_manifest(manifest, "set").variants) {
        try {
          (void)ptxmma::split_golden_cases(v, bytes, "v.bin");
        } catch (const ptxmma::Error&) {
        }
      }
    }
  } catch (const ptxmma::Error&) {
  }
  return 0;
}
