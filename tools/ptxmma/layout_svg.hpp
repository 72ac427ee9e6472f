// SVG pictures of what `ptxmma layout` prints, drawn from the same data as execution (the
// catalogue's FragmentLayout tables, the block-scale map and the descriptor's OperandAddressing),
// never a second copy (docs/pictures.md):
//  * the fragments in CuTe's arrangement: A (M x K) on the left, B (K x N) on top, C/D (M x N) in
//    the middle, so that row r of A lies beside row r of D and column n of B above column n of D.
//    A cell says who holds the element, T<lane>:r<register>[<element>] as the PTX ISA's figures
//    do, coloured by lane (lane_palette.hpp). Operands of sub-byte elements (8 or more to a
//    register: b1, 4-bit) get one cell per run of elements a register holds side by side along K.
//    Block-scaled mma adds where each scale factor lives (lane and byte of scale-a-data left of
//    A, of scale-b-data above B) and marks the K-blocks they scale;
//  * below, the lane views side by side: one row per lane (thread for wgmma), one column per
//    register element under register headers, each cell naming the element(s) it holds;
//  * a descriptor: the shared-memory bytes an operand reads, one cell per 16-byte chunk in address
//    order (8 chunks per 128-byte line), coloured by the row (m of A, n of B) of its elements and
//    labelled with the row and K range it holds.
// Every cell is a <rect class="cell ..."> with data-* attributes (a range "a-b" where a cell
// covers several elements), so tests and scripts can count and check them.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sim/exec/descriptor.hpp"
#include "sim/layout/fragment_layout.hpp"
#include "sim/numeric/type.hpp"
#include "tools/ptxmma/layout_print.hpp"

namespace ptxmma::cli {

struct SvgFragment {
  std::string op;  // "A", "B", "C/D"; "C" and "D" where their layouts differ
  const FragmentLayout* layout = nullptr;
  Type type = Type::f32;
  bool sparse = false;  // A of a sparse mma: M x K/2, the stored elements in K order
};

struct SvgDescriptor {
  char op = 'A';
  const OperandAddressing* at = nullptr;
  Type type = Type::f16;
};

// Which views of the fragments to draw (`--view both|matrix|lanes`).
struct SvgViews {
  bool matrix = true, lanes = true;
};

// One SVG document: the title (its first line large, the others as notes under it), the
// fragments' captions and arrangement, their lane views, then each descriptor picture.
std::string layout_svg(const std::string& title, const std::vector<SvgFragment>& fragments,
                       const std::vector<SvgDescriptor>& descriptors = {},
                       const std::optional<ScaleSelection>& scales = std::nullopt, SvgViews views = {});

// Writes `svg` to `path` and prints one line naming the file and the cells of each picture;
// Error when the file cannot be written.
void write_svg(const std::string& path, const std::string& svg, const std::vector<SvgFragment>& fragments,
               const std::vector<SvgDescriptor>& descriptors);

}  // namespace ptxmma::cli
