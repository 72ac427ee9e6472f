// SVG pictures of what `ptxmma layout` prints, drawn from the same data as execution (the
// catalogue's FragmentLayout tables and the descriptor's OperandAddressing), never a second copy:
//  * a fragment: the matrix view (one cell per element, coloured by lane, labelled
//    T<lane>:r<register>[<element>] as the PTX ISA's figures are) and the lane view (one row per
//    lane, one cell per register element, labelled with the element's (row, col));
//  * a descriptor: the shared-memory bytes an operand reads, one cell per 16-byte chunk in address
//    order (8 chunks per 128-byte line), coloured by the row (m of A, n of B) of its elements and
//    labelled with the row and K range it holds.
// Every cell is a <rect class="cell ..."> with data-* attributes, so tests and scripts can count
// and check them.
#pragma once
#include <string>
#include <vector>

#include "sim/exec/descriptor.hpp"
#include "sim/layout/fragment_layout.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma::cli {

struct SvgFragment {
  std::string op;  // "A", "B", "C/D"
  const FragmentLayout* layout = nullptr;
  Type type = Type::f32;
};

struct SvgDescriptor {
  char op = 'A';
  const OperandAddressing* at = nullptr;
  Type type = Type::f16;
};

// One SVG document: the title line, then each fragment (matrix and lane views), then each
// descriptor picture, stacked vertically.
std::string layout_svg(const std::string& title, const std::vector<SvgFragment>& fragments,
                       const std::vector<SvgDescriptor>& descriptors = {});

// Writes `svg` to `path` and prints one line naming the file and the cells of each picture;
// Error when the file cannot be written.
void write_svg(const std::string& path, const std::string& svg, const std::vector<SvgFragment>& fragments,
               const std::vector<SvgDescriptor>& descriptors);

}  // namespace ptxmma::cli
