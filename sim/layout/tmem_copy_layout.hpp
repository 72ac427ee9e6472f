// tcgen05.ld / tcgen05.st data movement: which tensor-memory lane and column each thread's
// register holds, per shape (.32x32b, .16x64b, .16x128b, .16x256b, .16x32bx2), from
// configs/tcgen05/tmem_copy.yaml, checked to be a bijection. docs/tcgen05.md §6.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxmma {

struct TmemCopyShape {
  std::string name;  // "16x256b"
  int rows = 0;      // TMEM lanes spanned from the address's lane
  int regs = 0;      // registers per thread of .x1
  int repeat = 0;    // columns from one repetition to the next
  bool halves = false;  // 16x32bx2: two 16-lane halves, the second at immHalfSplitoff
  // Of .x1, per lane * regs + r: the TMEM lane and column relative to the address, and the half.
  struct Cell {
    std::uint16_t row = 0, col = 0, half = 0;
  };
  std::vector<Cell> cells;

  // Register `reg` (0 .. regs * num - 1) of `lane`: its TMEM lane and column relative to the
  // address, and its half (16x32bx2: half 1's columns are further offset by immHalfSplitoff).
  // With .pack::16b the columns are 2 * col and 2 * col + 1.
  [[nodiscard]] Cell at(int lane, int reg) const {
    Cell c = cells[static_cast<std::size_t>(lane * regs + reg % regs)];
    c.col = static_cast<std::uint16_t>(c.col + (reg / regs) * repeat);
    return c;
  }
  // The largest .num (.x1 .. .x128) whose registers stay within 128.
  [[nodiscard]] int max_num() const { return 128 / regs; }
};

class TmemCopyLayouts {
 public:
  // Loads and checks the file; errors name the file, line and the clash.
  static TmemCopyLayouts load(const std::string& path);
  // The shape named `name`, or null.
  [[nodiscard]] const TmemCopyShape* find(std::string_view name) const;
  [[nodiscard]] const std::vector<TmemCopyShape>& shapes() const { return shapes_; }

 private:
  std::vector<TmemCopyShape> shapes_;
};

// The process-wide layouts, loaded once from config_dir().
const TmemCopyLayouts& tmem_copy_layouts();

}  // namespace ptxmma
