// A fragment layout: which (lane, register, element) holds which matrix element, as a table built
// once from the YAML expressions and checked to be a bijection, or, where each element is held by
// several lanes (Volta's wmma A and B), a covering with one chosen holder per element.
#pragma once
#include <string>
#include <vector>

namespace ptxmma {

// m8n8k4 .f16 computes four independent products per warp: `problem` tells which (0 elsewhere).
struct FragmentCoord {
  int problem = 0;
  int row = 0;
  int col = 0;
};
struct FragmentSlot {
  int lane = 0;
  int reg = 0;   // PTX register of the operand (a 64-bit register for f64)
  int elem = 0;  // element inside the register, element 0 in the low bits
};

class FragmentLayout {
 public:
  std::string name;     // as in configs/, e.g. "m16n8k16.a.16bit"
  int lanes = 32;       // 32 (warp) or 128 (warpgroup)
  int problems = 1;
  int rows = 0, cols = 0;
  int regs = 0;         // registers per lane, copies included
  int elems_per_reg = 1;
  // The registers hold the fragment `copies` times: register r + k * distinct() repeats register r
  // (wmma's f16 A and B on sm_90, docs/hardware/wmma-sm90.md). Reads take the first copy.
  int copies = 1;
  // Each element is held by `holders` (lane, register, element) slots of the first copy (Volta's
  // wmma A and B: two lanes, docs/hardware/wmma-layouts-published.md); the product reads the one
  // the layout chooses (slot()), a load fills them all.
  int holders = 1;

  [[nodiscard]] int distinct() const { return regs / copies; }
  [[nodiscard]] const FragmentCoord& coord(int lane, int reg, int elem) const {
    return to_coord_[static_cast<std::size_t>((lane * distinct() + reg % distinct()) * elems_per_reg + elem)];
  }
  // The slot the product reads (with holders > 1: the chosen holder).
  [[nodiscard]] const FragmentSlot& slot(int problem, int row, int col) const { return holder(problem, row, col, 0); }
  // Holder k (0 .. holders-1) of an element; holder 0 is the chosen one.
  [[nodiscard]] const FragmentSlot& holder(int problem, int row, int col, int k) const {
    return to_slot_[static_cast<std::size_t>(((problem * rows + row) * cols + col) * holders + k)];
  }
  // Whether (lane, reg, elem) is the slot the product reads of its element.
  [[nodiscard]] bool chosen(int lane, int reg, int elem) const {
    const FragmentCoord& c = coord(lane, reg, elem);
    const FragmentSlot& s = slot(c.problem, c.row, c.col);
    return s.lane == lane && s.reg == reg % distinct() && s.elem == elem;
  }

  // Fills both tables from a function of (lane, reg, elem) over the first copy's registers; throws
  // ptxmma::Error naming the layout and the first clash or hole when the map is not a bijection
  // onto problems x rows x cols.
  template <class F>
  void build(F&& coord_of) {
    build(coord_of, [](int, int, int) { return true; });
  }
  // The same with holders > 1: `chosen_of(lane, reg, elem)` says whether the product reads that
  // slot. Throws ptxmma::Error naming the layout and the first element held by other than `holders`
  // slots or read from other than one of them.
  template <class F, class C>
  void build(F&& coord_of, C&& chosen_of) {
    to_coord_.clear();
    std::vector<bool> chosen;
    for (int lane = 0; lane < lanes; ++lane)
      for (int r = 0; r < distinct(); ++r)
        for (int e = 0; e < elems_per_reg; ++e) {
          to_coord_.push_back(coord_of(lane, r, e));
          chosen.push_back(holders == 1 || chosen_of(lane, r, e));
        }
    index(chosen);
  }

 private:
  // Checks the bijection (the covering) and builds to_slot_; `chosen` parallels to_coord_.
  void index(const std::vector<bool>& chosen);
  std::vector<FragmentCoord> to_coord_;
  std::vector<FragmentSlot> to_slot_;  // `holders` per element, the chosen one first
};

}  // namespace ptxmma
