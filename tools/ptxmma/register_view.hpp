// What `ptxmma run` and `ptxmma debug` show of a machine: the registers picked by --regs, each
// typed by its declaration or by --as, lane by lane; memory as a hex dump; as JSON for `--json`.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/exec/interpreter.hpp"
#include "tools/vectors/value_text.hpp"

namespace ptxmma::cli {

// "a,b" "c" -> {"a", "b", "c"}.
std::vector<std::string> split_commas(const std::vector<std::string>& in);

class RegisterView {
 public:
  // `regs`: names, source names, vector names or prefixes ending in '*' (empty: all);
  // `as`: REG=TYPE views. Error naming the option when a pattern matches nothing.
  RegisterView(const ptx::Program& p, const std::vector<std::string>& regs, const std::vector<std::string>& as);

  // One line per shown register of `thread` of CTA `cta`: name, type, hex, typed value.
  [[nodiscard]] std::string lines(const Machine& m, int thread, int cta = 0) const;
  // {"%r1": {"type": "u32", "hex": "0x...", "value": "..."}, ...}
  [[nodiscard]] nlohmann::json json(const Machine& m, int thread, int cta = 0) const;
  [[nodiscard]] const std::vector<int>& shown() const { return shown_; }

 private:
  const ptx::Program& p_;
  std::vector<int> shown_;
  std::map<int, ValueView> views_;
  std::size_t name_width_ = 4, type_width_ = 4;
};

// Bytes [offset, offset + length) of a memory, 16 to a line. Error outside it.
std::string hex_dump(const Memory& mem, std::uint64_t offset, std::uint64_t length);

// A region of tensor memory (tcgen05, sm_100a): lanes [lane0, lane1] x columns [col0, col1].
struct TmemRegion {
  int lane0 = 0, lane1 = 0, col0 = 0, col1 = 0;
};
// "LANES:COLUMNS", each FIRST-LAST or one number ("0-31:0-7"); Error naming `option` otherwise.
TmemRegion parse_tmem_region(const std::string& text, const std::string& option);
// The allocations of a CTA's tensor memory, then the region's 32-bit cells, 8 to a line, lane by
// lane; a cell nobody wrote is "--------".
std::string tmem_dump(const TensorMemory& tm, const TmemRegion& r);
// The region as JSON: {"lane", "column", "words": [...]} per lane (null for a cell nobody wrote).
nlohmann::json tmem_json(const TensorMemory& tm, const TmemRegion& r);

// "OFFSET:LENGTH" (decimal or 0x hex); Error naming `option` otherwise.
std::pair<std::uint64_t, std::uint64_t> parse_range(const std::string& text, const std::string& option,
                                                    std::uint64_t max_length = 1U << 20);

}  // namespace ptxmma::cli
