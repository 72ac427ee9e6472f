// The add_tree engine (docs/numerics.md: the fixed addition orders of emulated paths, m8n8k4 .f16
// on sm_90) over a whole tile, where the host computes exactly what the model does: f16 x f16
// products are exact in binary32 (22 significant bits, exponents within its range), and each
// addition of the order is one binary32 addition in round-to-nearest. So the tile runs on the
// host's float arithmetic, the order applied to all outputs at once (a stack of M x N vectors),
// rather than on dot()'s exact terms, which stay the oracle. Outputs with a NaN or Inf among their
// operands (A's row, B's column, C) are left for dot(): the model's NaN is not the host's.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/model/model.hpp"
#include "sim/model/tile.hpp"

namespace ptxmma {

class AddTreeTile {
 public:
  // Null unless the model is an addition order in binary32, round to nearest, over f16 A and B,
  // f16 or f32 C and D, dense and unscaled, adding exactly the K products and C.
  static std::unique_ptr<AddTreeTile> make(const Model& m, const TileSpec& s);
  AddTreeTile(const AddTree& t, const TileSpec& s);

  // Every output; whether any was left for dot() (special() says which).
  bool run(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d);
  [[nodiscard]] bool special(int i, int j) const {
    return a_special_[static_cast<std::size_t>(i)] != 0 || b_special_[static_cast<std::size_t>(j)] != 0 ||
           c_special_[static_cast<std::size_t>(i * s_.n + j)] != 0;
  }

 private:
  const AddTree& tree_;
  TileSpec s_;
  std::vector<float> a_, b_, bt_, c_;  // A and B row-major, B k-major (bt_[k * N + j]), C
  std::vector<float> stack_;       // the order's stack, M x N floats an entry
  std::vector<char> a_special_, b_special_, c_special_;
};

}  // namespace ptxmma
