// libFuzzer target: a golden set's manifest and data file (tools/vectors/golden_set.hpp,
// wgmma_golden.hpp, data_file.hpp). The input is the manifest.json text, a NUL byte, then the
// bytes of the .bin every entry reads (xz-compressed when they start with the xz magic), each
// entry read as `ptxmma replay` reads it: the golden-bytes budget for the size its manifest gives,
// then decompression no further than that size (an .xz bomb must stop there).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/util/budget.hpp"
#include "sim/error.hpp"
#include "tools/vectors/data_file.hpp"
#include "tools/vectors/golden_set.hpp"
#include "tools/vectors/wgmma_golden.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Small enough for many executions per second, large enough for real seeds' cases.
  ptxmma::budget().golden_bytes = 12ULL << 20;
  return 0;
}

namespace {

template <class Split>
void read_entry(const std::string& bin, std::uint64_t expected, Split split) {
  try {
    const bool xz = bin.starts_with("\xfd" "7zXZ");
    const std::string name = xz ? "v.bin.xz" : "v.bin";
    ptxmma::check_golden_bytes(name, expected);
    split(ptxmma::decode_data_file(bin, name, xz ? expected : ptxmma::budget().golden_bytes));
  } catch (const ptxmma::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string manifest(input.substr(0, nul));
  const std::string bin(nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1));
  try {
    if (manifest.find(ptxmma::kWgmmaGoldenFormat) != std::string::npos) {
      for (const auto& e : ptxmma::parse_wgmma_golden_manifest(manifest, "set").entries)
        read_entry(bin, ptxmma::wgmma_golden_file_bytes(e),
                   [&](const auto& bytes) { (void)ptxmma::split_wgmma_golden_cases(e, bytes, "v.bin"); });
    } else {
      for (const auto& v : ptxmma::parse_golden_manifest(manifest, "set").variants)
        read_entry(bin, ptxmma::golden_file_bytes(v),
                   [&](const auto& bytes) { (void)ptxmma::split_golden_cases(v, bytes, "v.bin"); });
    }
  } catch (const ptxmma::Error&) {
  }
  return 0;
}
