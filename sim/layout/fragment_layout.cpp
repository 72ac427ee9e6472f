#include "sim/layout/fragment_layout.hpp"

#include <fmt/format.h>

#include "sim/error.hpp"

namespace ptxmma {

void FragmentLayout::index(const std::vector<bool>& chosen) {
  const std::size_t cells = static_cast<std::size_t>(problems) * rows * cols;
  const std::size_t slots = cells * static_cast<std::size_t>(holders);
  const std::string held = holders == 1 ? "" : fmt::format(" = {} holders of", holders);
  if (to_coord_.size() != slots)
    throw Error(fmt::format("layout {}: {} lanes x {} registers x {} elements = {} slots, but the matrix has {}{} {} "
                            "cells ({} problem(s) of {}x{})",
                            name, lanes, distinct(), elems_per_reg, to_coord_.size(), slots, held, cells, problems,
                            rows, cols));
  constexpr FragmentSlot kHole{-1, -1, -1};
  to_slot_.assign(slots, kHole);
  std::vector<int> count(cells, 0);  // holders found so far, the chosen one at index 0
  for (int lane = 0; lane < lanes; ++lane)
    for (int r = 0; r < distinct(); ++r)
      for (int e = 0; e < elems_per_reg; ++e) {
        const std::size_t at = static_cast<std::size_t>((lane * distinct() + r) * elems_per_reg + e);
        const FragmentCoord& c = to_coord_[at];
        if (c.problem < 0 || c.problem >= problems || c.row < 0 || c.row >= rows || c.col < 0 || c.col >= cols)
          throw Error(fmt::format("layout {}: lane {} register {} element {} maps to (problem {}, row {}, col {}), "
                                  "outside {}x{}",
                                  name, lane, r, e, c.problem, c.row, c.col, rows, cols));
        const auto cell = static_cast<std::size_t>((c.problem * rows + c.row) * cols + c.col);
        FragmentSlot* h = &to_slot_[cell * static_cast<std::size_t>(holders)];
        const FragmentSlot here{lane, r, e};
        if (holders == 1) {
          if (h->lane >= 0)
            throw Error(fmt::format("layout {}: not a bijection: lane {} register {} element {} and lane {} register "
                                    "{} element {} both map to (problem {}, row {}, col {})",
                                    name, h->lane, h->reg, h->elem, lane, r, e, c.problem, c.row, c.col));
          *h = here;
          continue;
        }
        if (count[cell] == holders)
          throw Error(fmt::format("layout {}: (problem {}, row {}, col {}) is held by more than its {} holders: lane "
                                  "{} register {} element {} too",
                                  name, c.problem, c.row, c.col, holders, lane, r, e));
        if (chosen[at]) {
          if (h->lane >= 0)
            throw Error(fmt::format("layout {}: (problem {}, row {}, col {}) is read from two holders, lane {} "
                                    "register {} element {} and lane {} register {} element {}; 'reads' must choose "
                                    "one",
                                    name, c.problem, c.row, c.col, h->lane, h->reg, h->elem, lane, r, e));
          *h = here;
        } else {
          // The unchosen holders after the chosen one, in slot order.
          int k = 1;
          while (k < holders && h[k].lane >= 0) ++k;
          if (k == holders)
            throw Error(fmt::format("layout {}: (problem {}, row {}, col {}) is read from none of its holders (lane {} "
                                    "register {} element {} ... lane {} register {} element {}); 'reads' must choose "
                                    "one",
                                    name, c.problem, c.row, c.col, h[1].lane, h[1].reg, h[1].elem, lane, r, e));
          h[k] = here;
        }
        ++count[cell];
      }
  // With as many slots as cells x holders, an element held too few times leaves another held too
  // often (found above), so every element has its holders, and one of them chosen.
}

}  // namespace ptxmma
