// A fragment layout: which (lane, register, element) holds which matrix element, as a table built
// once from the YAML expressions and checked to be a bijection.
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

  [[nodiscard]] int distinct() const { return regs / copies; }
  [[nodiscard]] const FragmentCoord& coord(int lane, int reg, int elem) const {
    return to_coord_[static_cast<std::size_t>((lane * distinct() + reg % distinct()) * elems_per_reg + elem)];
  }
  [[nodiscard]] const FragmentSlot& slot(int problem, int row, int col) const {
    return to_slot_[static_cast<std::size_t>((problem * rows + row) * cols + col)];
  }

  // Fills both tables from a function of (lane, reg, elem) over the first copy's registers; throws
  // ptxmma::Error naming the layout and the first clash or hole when the map is not a bijection
  // onto problems x rows x cols.
  template <class F>
  void build(F&& coord_of) {
    to_coord_.clear();
    for (int lane = 0; lane < lanes; ++lane)
      for (int r = 0; r < distinct(); ++r)
        for (int e = 0; e < elems_per_reg; ++e) to_coord_.push_back(coord_of(lane, r, e));
    index();
  }

 private:
  void index();  // checks the bijection and builds to_slot_
  std::vector<FragmentCoord> to_coord_;
  std::vector<FragmentSlot> to_slot_;
};

}  // namespace ptxmma
