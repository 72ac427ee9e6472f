// libFuzzer target: PTX text -> Program (isa/ptx_parser.hpp). Any outcome but a Program or a
// ptxmma::Error (a crash, another exception, a sanitizer report, a hang, memory past the RSS
// limit) is a bug.
//
// A generator reaches what -max_len cannot: an input "@R" + byte n + TEXT parses TEXT repeated
// 2^(n % 16) times (at most 64 KiB in all): with no newline in TEXT, one long line of many
// statements, the class of input that once needed memory growing with the square of the line's
// length (Malformed.PtxBudgets checks that a line is kept once). The statement and line budgets
// are lowered so that the generator crosses both while one execution stays cheap: with 4 MiB
// inputs at the default budgets fork mode fell to 61 executions a second on 15 workers.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "isa/ptx_parser.hpp"
#include "sim/error.hpp"
#include "sim/util/budget.hpp"

namespace {
constexpr std::size_t kRepeatedBytes = std::size_t{64} << 10;
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ptxmma::budget().ptx_statements = 1 << 12;
  ptxmma::budget().ptx_line_bytes = 1 << 15;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string repeated;
  if (text.size() > 3 && text.starts_with("@R")) {
    const std::string_view body = text.substr(3);
    const std::size_t times = std::min<std::size_t>(std::size_t{1} << (static_cast<std::uint8_t>(text[2]) % 16),
                                                    kRepeatedBytes / body.size());
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
