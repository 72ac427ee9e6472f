// `ptxmma layout WGMMA [--desc-a 0x.. --desc-b 0x.. --trans-a 0|1 --trans-b 0|1 --address 0x..]`:
// the warpgroup register layouts (A register form, C/D) and, given descriptors, the shared-memory
// byte address of every A / B element, and which element a shared byte holds.
#pragma once
#include <CLI/CLI.hpp>
#include <iosfwd>
#include <string>
#include <vector>

namespace ptxmma::cli {

struct WgmmaLayoutOptions {
  std::string desc_a, desc_b;           // 64-bit descriptors as text (0x... or decimal)
  int trans_a = 0, trans_b = 0;         // imm-trans-a / imm-trans-b
  std::vector<std::string> addresses;   // shared byte addresses to look up
  [[nodiscard]] bool given() const {
    return !desc_a.empty() || !desc_b.empty() || trans_a != 0 || trans_b != 0 || !addresses.empty();
  }
};

void add_wgmma_layout_options(CLI::App& cmd, WgmmaLayoutOptions& o);
// `svg` non-empty: write the picture there instead of printing (layout_svg.hpp).
void print_wgmma_layout(std::ostream& os, const std::string& ptx, const std::string& arch, const std::string& operands,
                        const std::string& view, const WgmmaLayoutOptions& o, const std::string& svg = {});

}  // namespace ptxmma::cli
