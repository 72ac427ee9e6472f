// libFuzzer target: PTX text -> Program (isa/ptx_parser.hpp). Any outcome but a Program or a
// ptxmma::Error (a crash, another exception, a sanitizer report, a hang) is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "isa/ptx_parser.hpp"
#include "sim/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)ptxmma::ptx::parse_ptx(text, "fuzz.ptx");
  } catch (const ptxmma::Error&) {
  }
  return 0;
}
