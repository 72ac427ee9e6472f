// The fma_chain engine (f64, docs/numerics.md §4.3) over a whole tile: D = fma(a_{K-1}, b_{K-1}, ...
// fma(a_0, b_0, C)), each step one correctly rounded IEEE 754 fused multiply-add in the
// instruction's mode. That is exactly the host's fma on binary64 in the same dynamic rounding
// mode (no flushing of subnormals), so the tile runs on the host's FMA unit, 8 columns of 4 rows
// at a time, rather than on the integer significands of dot()'s fma_step, which stays the oracle.
// Outputs with a NaN or Inf among their operands (A's row, B's column, C) are left for dot(): the
// model's NaN choice is not the host's.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/model/model.hpp"
#include "sim/model/tile.hpp"

namespace ptxmma {

class FmaTile {
 public:
  // Null unless the model is an fma chain on f64 A, B, C, D in .rn, .rz, .rm or .rp.
  static std::unique_ptr<FmaTile> make(const Model& m, const TileSpec& s);
  explicit FmaTile(const TileSpec& s);

  // Every output; whether any was left for dot() (special() says which).
  bool run(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d);
  [[nodiscard]] bool special(int i, int j) const {
    return a_special_[static_cast<std::size_t>(i)] != 0 || b_special_[static_cast<std::size_t>(j)] != 0 ||
           c_special_[static_cast<std::size_t>(i * s_.n + j)] != 0;
  }

 private:
  static constexpr int kLanes = 8;  // columns per pass
  TileSpec s_;
  int np_;                        // N rounded up to kLanes
  std::vector<double> bt_;        // B k-major: bt_[k * np_ + j]
  std::vector<double> acc_;       // C in, D out: acc_[i * np_ + j]
  std::vector<char> a_special_, b_special_, c_special_;
};

}  // namespace ptxmma
