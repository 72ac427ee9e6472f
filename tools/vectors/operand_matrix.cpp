#include "tools/vectors/operand_matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "sim/error.hpp"
#include "sim/exec/mma.hpp"
#include "sim/numeric/packing.hpp"
#include "tools/vectors/value_text.hpp"

namespace ptxmma {

int matrix_instruction(const ptx::Program& p, int line) {
  int found = -1;
  for (std::size_t i = 0; i < p.code.size(); ++i) {
    const ptx::Instruction& ins = p.code[i];
    if ((ins.d.mma || ins.d.wgmma) && (line == 0 || ins.loc.line == line)) found = static_cast<int>(i);
  }
  if (found < 0)
    throw Error(line == 0 ? fmt::format("{}: no mma or wgmma.mma_async instruction to show as a matrix", p.file)
                          : fmt::format("{}:{}: no mma or wgmma.mma_async instruction on this line", p.file, line));
  return found;
}

OperandMatrix operand_matrix(const Machine& m, int pc, std::string_view which, int warp, int cta) {
  const ptx::Program& p = m.program();
  const ptx::Instruction& ins = p.code.at(static_cast<std::size_t>(pc));
  if (which.size() != 1 || std::string_view("ABCD").find(which[0]) == std::string_view::npos)
    throw Error(fmt::format("'{}' is not an operand: give A, B, C or D", which));
  const char w = which[0];
  std::optional<RegisterCodec> codec;
  const ptx::Operand* op = nullptr;
  int first_thread = warp * 32;
  if (ins.d.mma) {
    const MatrixVariant& v = *ins.d.mma->variant;
    codec = v.codec(w == 'A' ? Operand::a : w == 'B' ? Operand::b : w == 'C' ? Operand::c : Operand::d);
    op = &ins.ops[w == 'D' ? 0 : w == 'A' ? 1 : w == 'B' ? 2 : 3];
  } else if (ins.d.wgmma) {
    const MatrixVariant& v = *ins.d.wgmma->ins.variant;
    if (w == 'B' || (w == 'A' && ins.ops[1].kind != ptx::Operand::Kind::vec))
      throw Error(fmt::format("{}:{}: {} of '{}' is in shared memory (a descriptor); `ptxmma layout` with --desc "
                              "shows where",
                              p.file, ins.loc.line, which, ins.text));
    codec = w == 'A' ? v.codec(Operand::a) : v.codec(Operand::d);
    op = &ins.ops[w == 'A' ? 1 : 0];
    first_thread = (warp / 4) * 128;
  } else {
    throw Error(fmt::format("{}:{}: '{}' is not an mma or wgmma.mma_async", p.file, ins.loc.line, ins.text));
  }
  const FragmentLayout* l = &codec->layout();
  if (first_thread + l->lanes > m.threads())
    throw Error(fmt::format("warp {} has no {}-thread group of its own in this run", warp, l->lanes));
  OperandMatrix om;
  om.title = fmt::format("{} of {} (line {}{}{})", which, ins.text, ins.loc.line,
                         m.grid().ctas() > 1 ? ", " + m.cta(cta).name() : "",
                         l->lanes == 128 ? fmt::format(", warps {}-{}", m.warp_id(first_thread / 32), m.warp_id(first_thread / 32 + 3))
                         : m.warps() > 1 ? fmt::format(", warp {}", m.warp_id(warp))
                                         : "");
  om.rows = codec->rows();
  om.cols = codec->cols();
  om.type = codec->type();
  om.bits = codec->bits();
  for (int r = 0; r < om.rows; ++r)
    for (int c = 0; c < om.cols; ++c) {
      const RegisterCodec::Place at = codec->place(r / l->rows, r % l->rows, c);
      om.cells.push_back(codec->element_of(
          m.reg(first_thread + at.thread, op->elems.at(static_cast<std::size_t>(at.reg)).reg, cta), at));
    }
  return om;
}

std::string format_matrix(const OperandMatrix& om) {
  const ValueView view = parse_view(name(om.type), om.bits);
  std::vector<std::string> text;
  std::size_t width = 1;
  for (const std::uint64_t c : om.cells) {
    text.push_back(typed_text(c, om.bits, view));
    width = std::max(width, text.back().size());
  }
  std::string out = fmt::format("{}: {} x {} {}\n", om.title, om.rows, om.cols, name(om.type));
  out += fmt::format("{:>4}", "");
  for (int c = 0; c < om.cols; ++c) out += fmt::format(" {:>{}}", c, width);
  out += "\n";
  for (int r = 0; r < om.rows; ++r) {
    out += fmt::format("{:>4}", r);
    for (int c = 0; c < om.cols; ++c) out += fmt::format(" {:>{}}", text[static_cast<std::size_t>(r * om.cols + c)], width);
    out += "\n";
  }
  return out;
}

}  // namespace ptxmma
