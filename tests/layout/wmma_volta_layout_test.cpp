// Volta's wmma fragments (configs/wmma/layouts-volta.yaml): the facts GPGPU-Sim's functional
// model gives (accel-sim/gpgpu-sim_distribution 667834cf, src/cuda-sim/instructions.cc; the
// derivation of each is in docs/hardware/wmma-layouts-published.md), the covering of the two
// holders of A and B, and the sm_70 catalogue that uses them.
#include <gtest/gtest.h>

#include <string>

#include "isa/wmma_instruction.hpp"
#include "sim/catalog/wmma_family.hpp"
#include "tests/paths.hpp"

namespace ptxmma {
namespace {

const FragmentLayout& volta(const std::string& text) { return *parse_wmma_transfer(text, "sm_70").fragment; }

void expect_at(const FragmentLayout& l, int lane, int reg, int elem, int row, int col) {
  const FragmentCoord& c = l.coord(lane, reg, elem);
  EXPECT_EQ(c.row, row) << l.name << " lane " << lane << " register " << reg << " element " << elem;
  EXPECT_EQ(c.col, col) << l.name << " lane " << lane << " register " << reg << " element " << elem;
}

void expect_read_from(const FragmentLayout& l, int row, int col, int lane, int reg, int elem) {
  const FragmentSlot& s = l.slot(0, row, col);
  EXPECT_EQ(s.lane, lane) << l.name << " (" << row << ", " << col << ")";
  EXPECT_EQ(s.reg, reg) << l.name << " (" << row << ", " << col << ")";
  EXPECT_EQ(s.elem, elem) << l.name << " (" << row << ", " << col << ")";
}

// A .row: thread_group_offset's load_a_row gives threadgroup 4 (lanes 16-19) row 4, so lane 17
// holds row 5, and mma_ld_impl reads its 16 consecutive halves, k = 0 .. 15. Threadgroups 0 and 2
// share rows 0-3; mapping() has the product read k < 8 from lanes 0-7 / 16-23, k >= 8 from the others.
TEST(WmmaVoltaLayouts, ARowHoldsWholeRowsTwice) {
  const FragmentLayout& a = volta("wmma.load.a.sync.aligned.row.m16n16k16.f16");
  EXPECT_EQ(a.name, "m16n16k16.a.f16.row");
  EXPECT_EQ(a.holders, 2);
  expect_at(a, 17, 0, 0, 5, 0);
  expect_at(a, 17, 7, 1, 5, 15);
  expect_at(a, 8, 0, 0, 0, 0);  // the second holder of A(0, 0)
  expect_read_from(a, 0, 3, 0, 1, 1);
  expect_read_from(a, 0, 12, 8, 6, 0);
  EXPECT_EQ(a.holder(0, 0, 12, 1).lane, 0);
}

// A .col: load_a_col gives threadgroup 1 rows 8.. and lane t column t; mma_ld_impl steps i % 4
// down the rows and i / 4 four columns across, so lane 5 (threadgroup 1, t = 1) holds A(8 + i % 4,
// 1 + 4 (i / 4)) in element i.
TEST(WmmaVoltaLayouts, AColHoldsFourRowsOfFourColumns) {
  const FragmentLayout& a = volta("wmma.load.a.sync.aligned.col.m16n16k16.f16");
  EXPECT_EQ(a.name, "m16n16k16.a.f16.col");
  expect_at(a, 5, 2, 0, 8, 5);
  expect_at(a, 5, 1, 1, 11, 1);
  // A(11, 13) is element 15 of lanes 5 and 13; k >= 8 is read from lane 13, whose bit 3 is set.
  expect_read_from(a, 11, 13, 13, 7, 1);
  EXPECT_EQ(a.holder(0, 11, 13, 1).lane, 5);
}

// B is A's mirror: load_b_row gives threadgroup 1 columns 8.., load_b_col threadgroup 5 column 12.
TEST(WmmaVoltaLayouts, BMirrorsA) {
  const FragmentLayout& row = volta("wmma.load.b.sync.aligned.row.m16n16k16.f16");
  EXPECT_EQ(row.name, "m16n16k16.b.f16.row");
  expect_at(row, 4, 3, 1, 4, 11);
  const FragmentLayout& col = volta("wmma.load.b.sync.aligned.col.m16n16k16.f16");
  EXPECT_EQ(col.name, "m16n16k16.b.f16.col");
  expect_at(col, 20, 5, 0, 10, 12);
  expect_read_from(col, 10, 12, 28, 5, 0);  // k = 10: the holder in threadgroup 7
}

// C and D, one holder each and the same for .row and .col: load_c_float_row / _col and
// acc_float_offset (f32), load_c_half_row / _col (f16).
TEST(WmmaVoltaLayouts, AccumulatorsHaveOneHolder) {
  for (const char* layout : {"row", "col"}) {
    const FragmentLayout& f32 = volta(std::string("wmma.load.c.sync.aligned.") + layout + ".m16n16k16.f32");
    EXPECT_EQ(f32.holders, 1);
    expect_at(f32, 6, 3, 0, 10, 3);
    expect_at(f32, 27, 5, 0, 5, 15);
    const FragmentLayout& f16 = volta(std::string("wmma.store.d.sync.aligned.") + layout + ".m16n16k16.f16");
    expect_at(f16, 30, 2, 1, 14, 13);
  }
}

// Every Volta layout: each element held `holders` times, read from one of them, and the
// lane view and the matrix view agree.
TEST(WmmaVoltaLayouts, HoldersCoverEveryElementOnce) {
  const MatrixCatalog& sm70 = wmma_catalog("sm_70");
  int published = 0;
  for (const auto& [name, entry] : sm70.layouts().entries()) {
    if (!sm70.layouts().published(name)) continue;
    ++published;
    const FragmentLayout& l = entry.layout;
    std::vector<int> held(static_cast<std::size_t>(l.rows * l.cols), 0), read(held.size(), 0);
    for (int lane = 0; lane < 32; ++lane)
      for (int r = 0; r < l.regs; ++r)
        for (int e = 0; e < l.elems_per_reg; ++e) {
          const FragmentCoord& c = l.coord(lane, r, e);
          const auto cell = static_cast<std::size_t>(c.row * l.cols + c.col);
          ++held[cell];
          read[cell] += l.chosen(lane, r, e) ? 1 : 0;
        }
    for (std::size_t cell = 0; cell < held.size(); ++cell) {
      ASSERT_EQ(held[cell], l.holders) << name << " element " << cell;
      ASSERT_EQ(read[cell], 1) << name << " element " << cell;
    }
  }
  EXPECT_EQ(published, 6);
  EXPECT_EQ(sm70.layouts().published_by(), "GPGPU-Sim / Raihan et al.");
  // Elsewhere, and for the shapes GPGPU-Sim does not model, sm_90's layouts.
  EXPECT_EQ(volta("wmma.load.a.sync.aligned.row.m32n8k16.f16").name, "m32n8k16.a.16bit");
  EXPECT_EQ(parse_wmma_transfer("wmma.load.a.sync.aligned.col.m16n16k16.f16", "sm_75").fragment->name,
            "m16n16k16.a.f16");
  EXPECT_EQ(&wmma_catalog("sm_90a"), &wmma_catalog("sm_75"));
  EXPECT_NE(&wmma_catalog("sm_90a"), &sm70);
}

}  // namespace
}  // namespace ptxmma
