// Fragment layouts as arrays: which (lane, register, element) holds which (problem, row, col).
#include <nanobind/stl/string.h>

#include "python/src/bindings.hpp"

namespace ptxmma::py {

nb::dict layout_maps(const FragmentLayout& l) {
  std::vector<std::int32_t> coord, slot;
  coord.reserve(static_cast<std::size_t>(l.lanes * l.regs * l.elems_per_reg * 3));
  for (int lane = 0; lane < l.lanes; ++lane)
    for (int r = 0; r < l.regs; ++r)
      for (int e = 0; e < l.elems_per_reg; ++e) {
        const FragmentCoord& c = l.coord(lane, r, e);
        coord.insert(coord.end(), {c.problem, c.row, c.col});
      }
  slot.reserve(static_cast<std::size_t>(l.problems * l.rows * l.cols * 3));
  for (int p = 0; p < l.problems; ++p)
    for (int row = 0; row < l.rows; ++row)
      for (int col = 0; col < l.cols; ++col) {
        const FragmentSlot& s = l.slot(p, row, col);
        slot.insert(slot.end(), {s.lane, s.reg, s.elem});
      }
  const auto z = [](int x) { return static_cast<std::size_t>(x); };
  nb::dict out;
  out["name"] = l.name;
  out["coord"] = to_numpy(std::move(coord), {z(l.lanes), z(l.regs), z(l.elems_per_reg), 3});
  out["slot"] = to_numpy(std::move(slot), {z(l.problems), z(l.rows), z(l.cols), 3});
  return out;
}

void bind_layout(nb::module_& m) {
  m.def(
      "mma_layout",
      [](const std::string& instr, const std::string& arch) {
        const MatrixVariant& v = *prepare_mma(instr, arch).ins.variant;
        nb::dict out;
        for (const Operand o : {Operand::a, Operand::b, Operand::c, Operand::d}) out[name(o).data()] = layout_maps(v.layout(o));
        return out;
      },
      nb::arg("instr"), nb::arg("arch"));
}

}  // namespace ptxmma::py
