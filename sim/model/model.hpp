// Rounding models as data: the parameters of one machine path on one architecture, loaded from
// configs/models/<arch>.yaml. The engines of dot.hpp (one element, the reference) and tile.hpp (whole
// tiles) interpret them.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/numeric/rounding.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma {

enum class Engine : std::uint8_t {
  block_fma,  // aligned, truncated block sums (docs/numerics.md §2)
  fma_chain,  // correctly rounded fused multiply-adds, k increasing (f64)
  integer,    // exact integer sum, wrap or saturate
  popc,       // b1: C + popc(a op b)
  add_tree,   // exact products combined by IEEE additions in a fixed order (emulated paths)
};

constexpr int kMaxK = 256;  // the longest dot product of any instruction (b1 m16n8k256)

// A fixed order of additions over the products p0..p(K-1) and C, e.g. "(((p0 + p1) + p2) + p3) + c",
// kept in postfix: a leaf k >= 0 is product k, kC is C, kZero is +0, kAdd adds the two values on top.
struct AddTree {
  static constexpr int kC = -1;
  static constexpr int kAdd = -2;
  static constexpr int kZero = -3;
  std::vector<int> postfix;
  std::string text;
  Type format = Type::f32;            // every addition is rounded to this format
  Rounding round = Rounding::rn;
  // Parses `text`; throws Error naming the position of a syntax error.
  static AddTree parse(const std::string& text);
};

// Block FMA parameters (docs/numerics.md §2.1). The K products are dealt to `blocks` blocks run by
// run (k goes to block (k / run) % blocks); blocks execute in order, each adding its products to
// the running sum, which is rounded to the output format after every block.
struct BlockFma {
  enum class CEntry : std::uint8_t {
    first_block,  // C is a term of the first block, aligned and truncated like a product
    final_add,    // the blocks start from +0; C is added last by one IEEE addition
  };
  int blocks = 1;
  int run = 1;
  int frac_bits = 25;                  // F: bits kept below the block's largest exponent
  bool zeros_set_exponent = false;     // whether zero terms take part in the maximum
  // Per output format (f32, f16): the rounding of each block sum and the lower clamp of E.
  // `frac`: the block sum keeps only this many fraction bits (in the format's exponent range,
  // subnormals on the grid 2^(emin - frac)) before it is stored in the format, e.g. 13 for the
  // e8m13 sums of FP8 on sm_89 (docs/numerics.md §2.1, output fraction); unset = the format's own.
  struct Output {
    Rounding round = Rounding::rz;
    std::optional<int> exp_floor;
    std::optional<int> frac;
  };
  Output f32{Rounding::rz, {}, {}};
  Output f16{Rounding::rn, {}, {}};
  [[nodiscard]] const Output& output(Type d) const { return d == Type::f16 ? f16 : f32; }
  CEntry c_entry = CEntry::first_block;
  Rounding final_add_round = Rounding::rn;
  // Block-scaled kinds (docs/numerics.md §4.6): how the scale factors of A's row and B's column enter.
  // `scale_group` 0: each product is a term whose exponent is raised by both scales' exponents
  // (ue8m0 scales are powers of two). G > 0: each run of G consecutive products is summed exactly,
  // and that sum times both scales (significands too: ue4m3) is one term whose exponent, for the
  // alignment, is the sum of the scales' exponents.
  int scale_group = 0;
};

struct Model {
  std::string name;  // "<arch>/<family>[/<selector>]", for messages and explain
  Engine engine = Engine::block_fma;
  BlockFma block;
  AddTree tree;
  std::uint64_t nan_f32 = 0x7fffffff;
  std::uint64_t nan_f16 = 0x7fff;
  std::uint64_t nan_invalid = 0xfff8000000000000;  // f64: 0 x Inf, Inf - Inf
  std::string nan_priority = "abc";                // fma_chain: which NaN operand of a*b+c wins
};

// All models of one architecture; `select` finds the one for a machine-path family and D type.
class ModelSet {
 public:
  static ModelSet load(const std::string& path);
  [[nodiscard]] const Model& select(const std::string& family, Type a, Type d) const;
  std::string arch;

 private:
  struct Entry {
    std::string family;
    std::optional<Type> a, d;
    Model model;
  };
  std::vector<Entry> entries_;
  friend const ModelSet& models_for(const std::string& arch);
};

// The model set of `arch` from the config directory, loaded once.
const ModelSet& models_for(const std::string& arch);

}  // namespace ptxmma
