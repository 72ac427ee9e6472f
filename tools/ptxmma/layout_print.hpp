// Printing fragment layouts as tables (ptxmma layout, for mma and wgmma).
#pragma once
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "sim/layout/fragment_layout.hpp"
#include "sim/layout/layout_loader.hpp"
#include "sim/layout/scale_layout.hpp"
#include "sim/layout/sparse_metadata.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma::cli {

using Table = std::vector<std::vector<std::string>>;

// Column 0 left-aligned (row labels), the rest right-aligned (or left-aligned), two spaces apart.
void print_table(std::ostream& os, const Table& t, const std::string& indent, bool right = true);

// One operand: a header line, the formulas, the matrix view (which lane/register/element holds each
// cell) and the lane view (what each register element of each lane holds).
//   op     "A", "B", "C", "D";  dims "M x K", ...;  `what` extra words after the layout's shape
void print_fragment(std::ostream& os, std::string_view op, std::string_view dims, const FragmentLayout& l, Type t,
                    const LayoutFormula& f, bool matrix, bool lanes, std::string_view what = {});

// mma.sp / wgmma.mma_async.sp: for each sparsity selector, which thread's metadata nibble says which
// columns of each chunk of each A row hold the stored elements. `warps` warps of m.rows rows each,
// warp w reading its own threads 32w + lane (wgmma: 4); `unit` names a thread ("lane", "thread").
void print_metadata(std::ostream& os, std::string_view header, std::string_view unit, SparsePattern p,
                    const SparseMetadata& m, int warps);

// Block-scaled mma: the scale map (configs/mma/block_scale.yaml) and the instruction's selectors.
struct ScaleSelection {
  const ScaleLayout* layout = nullptr;
  int scale_vec = 1;  // V: K-blocks of each row of A / column of B
  int byte_a = 0, tid_a = 0, byte_b = 0, tid_b = 0;
  Type type = Type::ue8m0;
  // Where scale factor (x, v) lives, x a row of A or a column of B: lane * 4 + byte.
  [[nodiscard]] int source(bool a, int x, int v) const {
    return ScaleLayout::source(a ? layout->a : layout->b, scale_vec, a ? tid_a : tid_b, a ? byte_a : byte_b, x, v);
  }
};

// SF_A (M x V) or SF_B (V x N): which lane and byte of scale-a-data / scale-b-data hold each scale
// factor, T<lane>:b<byte>.
void print_scales(std::ostream& os, bool a, const ScaleSelection& s);

}  // namespace ptxmma::cli
