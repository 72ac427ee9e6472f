#include "sim/layout/fragment_layout.hpp"

#include <fmt/format.h>

#include "sim/error.hpp"

namespace ptxmma {

void FragmentLayout::index() {
  const std::size_t cells = static_cast<std::size_t>(problems) * rows * cols;
  if (to_coord_.size() != cells)
    throw Error(fmt::format("layout {}: {} lanes x {} registers x {} elements = {} slots, but the matrix has {} "
                            "cells ({} problem(s) of {}x{})",
                            name, lanes, distinct(), elems_per_reg, to_coord_.size(), cells, problems, rows, cols));
  constexpr FragmentSlot kHole{-1, -1, -1};
  to_slot_.assign(cells, kHole);
  for (int lane = 0; lane < lanes; ++lane)
    for (int r = 0; r < distinct(); ++r)
      for (int e = 0; e < elems_per_reg; ++e) {
        const FragmentCoord& c = coord(lane, r, e);
        if (c.problem < 0 || c.problem >= problems || c.row < 0 || c.row >= rows || c.col < 0 || c.col >= cols)
          throw Error(fmt::format("layout {}: lane {} register {} element {} maps to (problem {}, row {}, col {}), "
                                  "outside {}x{}",
                                  name, lane, r, e, c.problem, c.row, c.col, rows, cols));
        FragmentSlot& s = to_slot_[static_cast<std::size_t>((c.problem * rows + c.row) * cols + c.col)];
        if (s.lane >= 0)
          throw Error(fmt::format("layout {}: not a bijection: lane {} register {} element {} and lane {} register {} "
                                  "element {} both map to (problem {}, row {}, col {})",
                                  name, s.lane, s.reg, s.elem, lane, r, e, c.problem, c.row, c.col));
        s = FragmentSlot{lane, r, e};
      }
}

}  // namespace ptxmma
