// A fragment layout's two tables, (lane, register, element) -> (problem, row, column) and back,
// are each other's inverse: the check every layout test of every family makes.
#pragma once
#include <gtest/gtest.h>

#include "sim/layout/fragment_layout.hpp"

namespace ptxmma {

inline void expect_inverse_tables(const FragmentLayout& l) {
  EXPECT_EQ(l.lanes * l.regs * l.elems_per_reg, l.problems * l.rows * l.cols);
  for (int lane = 0; lane < l.lanes; ++lane)
    for (int r = 0; r < l.regs; ++r)
      for (int e = 0; e < l.elems_per_reg; ++e) {
        const FragmentCoord& c = l.coord(lane, r, e);
        const FragmentSlot& s = l.slot(c.problem, c.row, c.col);
        ASSERT_EQ(s.lane, lane);
        ASSERT_EQ(s.reg, r);
        ASSERT_EQ(s.elem, e);
      }
}

}  // namespace ptxmma
