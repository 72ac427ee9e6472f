// libFuzzer target: PTX text -> Program (isa/ptx_parser.hpp). Any outcome but a Program or a
// ptxmma::Error (a crash, another exception, a sanitizer report, a hang, memory past the RSS
// limit) is a bug.
//
// A generator reaches what -max_len cannot: an input "@R" + byte n + TEXT parses TEXT repeated
// 2^(n % 16) times (at most 4 MiB in all): with no newline in TEXT, one long line of many
// statements, the input that once needed memory growing with the square of the line's length.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "isa/ptx_parser.hpp"
#include "sim/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string repeated;
  if (text.size() > 3 && text.starts_with("@R")) {
    const std::string_view body = text.substr(3);
    const std::size_t times = std::min<std::size_t>(std::size_t{1} << (static_cast<std::uint8_t>(text[2]) % 16),
                                                    (std::size_t{4} << 20) / body.size());
    repeated.reserve(times * body.size());
    for (std::size_t i = 0; i < times; ++i) repeated += body;
    text = repeated;
  }
  try {
    (void)ptxmma::ptx::parse_ptx(text, "fuzz.ptx");
  } catch (const ptxmma::Error&) {
  }
  return 0;
}
