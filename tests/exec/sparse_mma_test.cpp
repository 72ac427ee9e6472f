// Sparse mma.sp against an independent reference: every sparse catalogue variant, each selector,
// both spellings, small integer values (every sum exact in any model), random valid metadata. The
// reference places A's stored elements by the metadata rules of docs/mma-catalogue.md §3.3 written
// out here by hand, not by configs/mma/sparse.yaml, and multiplies in int64.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>

#include "sim/catalog/mma_family.hpp"
#include "sim/error.hpp"
#include "sim/exec/mma.hpp"
#include "sim/model/model.hpp"
#include "sim/numeric/exact.hpp"
#include "sim/numeric/packing.hpp"
#include "sim/util/target.hpp"

namespace ptxmma {
namespace {

// (lane, nibble) that describes (row, chunk) under selector `sel`, per §3.3's table.
std::pair<int, int> metadata_source(const std::string& cls, int row, int chunk, int sel) {
  const int g = row % 8, hi = row / 8;
  if (cls == "m1") return {4 * g + sel, chunk + 4 * hi};
  if (cls == "m2") return {4 * g + 2 * sel + chunk / 4, chunk % 4 + 4 * hi};
  if (cls == "m3") return {4 * g + 2 * sel + hi, chunk};
  return {4 * g + hi + 2 * (chunk / 8), chunk % 8};  // m4
}

std::uint32_t register_bits(Type t, std::int64_t v) {
  ExactValue x;
  x.cls = v == 0 ? FpClass::zero : FpClass::normal;
  x.negative = v < 0;
  x.value = Rational(v);
  return static_cast<std::uint32_t>(round_exact(t, x, ConvertFlags{}) << info(t).shift);
}

std::int64_t small(std::mt19937& rng, Type t) {
  const bool is_unsigned = t == Type::u8 || t == Type::u4;
  return static_cast<std::int64_t>(rng() % 7) - (is_unsigned ? 0 : 3);
}

struct Case {
  std::vector<std::uint32_t> a, b, c, e, d;
  std::vector<std::int64_t> want;  // M x N
};

Case make_case(const MatrixVariant& v, int sel, std::mt19937& rng) {
  const Shape s = v.shape;
  const int per = stored_per_chunk(v.pattern), width = chunk_columns(v.pattern), chunks = s.k / width;
  const bool ordered = v.sparse == Sparsity::ordered;
  const auto words = [&](Operand o) { return v.words(o); };
  Case c;
  c.a.assign(32 * static_cast<std::size_t>(words(Operand::a)), 0);
  c.b.assign(32 * static_cast<std::size_t>(words(Operand::b)), 0);
  c.c.assign(32 * static_cast<std::size_t>(words(Operand::c)), 0);
  c.d.assign(32 * static_cast<std::size_t>(words(Operand::d)), 0);
  // Metadata: every nibble of every lane valid; the described ones chosen per (row, chunk).
  c.e.assign(32, 0);
  const auto nibble = [&] {
    if (v.pattern == SparsePattern::one_of_two) return rng() % 2 ? 0b0100U : 0b1110U;
    unsigned i0 = rng() % 4, i1 = rng() % 3;
    i1 += i1 >= i0;
    if (ordered && i0 > i1) std::swap(i0, i1);
    return i0 | (i1 << 2);
  };
  for (auto& w : c.e)
    for (int q = 0; q < 8; ++q) w |= nibble() << (4 * q);
  const auto put = [&](Operand o, int row, int col, std::uint32_t bits) {
    const FragmentLayout& l = v.layout(o);
    const FragmentSlot& slot = l.slot(0, row, col);
    const int eb = element_bits(v.type(o), v.container);
    std::uint32_t& w = (o == Operand::a ? c.a : o == Operand::b ? c.b : c.c)[static_cast<std::size_t>(
        slot.lane * words(o) + slot.reg)];
    w = eb == 32 ? bits : set_element(w, eb, slot.elem, bits);
  };
  std::vector<std::int64_t> logical(static_cast<std::size_t>(s.m * s.k), 0), bm(static_cast<std::size_t>(s.k * s.n));
  for (int row = 0; row < s.m; ++row)
    for (int ch = 0; ch < chunks; ++ch) {
      const auto [lane, q] = metadata_source(v.metadata->name, row, ch, sel);
      const unsigned nib = (c.e[static_cast<std::size_t>(lane)] >> (4 * q)) & 0xFU;
      for (int st = 0; st < per; ++st) {
        int col = 0;  // §3.3: which column of the chunk stored element st is
        if (v.pattern == SparsePattern::one_of_two) col = nib == 0b0100 ? 0 : 1;
        else if (v.pattern == SparsePattern::two_of_four) col = static_cast<int>((nib >> (2 * st)) & 3);
        else col = 2 * static_cast<int>((nib >> (2 * (st / 2))) & 3) + st % 2;
        const std::int64_t x = small(rng, v.a);
        logical[static_cast<std::size_t>(row * s.k + ch * width + col)] = x;
        put(Operand::a, row, ch * per + st, register_bits(v.a, x));
      }
    }
  for (int k = 0; k < s.k; ++k)
    for (int n = 0; n < s.n; ++n) {
      const std::int64_t x = small(rng, v.b);
      bm[static_cast<std::size_t>(k * s.n + n)] = x;
      put(Operand::b, k, n, register_bits(v.b, x));
    }
  for (int m = 0; m < s.m; ++m)
    for (int n = 0; n < s.n; ++n) {
      std::int64_t acc = static_cast<std::int64_t>(rng() % 21) - 10;
      const std::uint32_t cb = register_bits(v.c, acc);
      if (element_bits(v.c, v.container) == 32) {
        const FragmentSlot& slot = v.lc->slot(0, m, n);
        c.c[static_cast<std::size_t>(slot.lane * words(Operand::c) + slot.reg)] = cb;
      } else {
        put(Operand::c, m, n, cb);
      }
      for (int k = 0; k < s.k; ++k)
        acc += logical[static_cast<std::size_t>(m * s.k + k)] * bm[static_cast<std::size_t>(k * s.n + n)];
      c.want.push_back(acc);
    }
  return c;
}

TEST(SparseMma, EveryVariantSelectorAndSpellingAgainstHandPlacedReference) {
  std::mt19937 rng(12345);
  int variants = 0, checked = 0;
  for (const MatrixVariant& v : mma_catalog().variants()) {
    if (v.sparse == Sparsity::dense || *target_rank(v.targets.first) > *target_rank("sm_90a")) continue;
    ++variants;
    const Model& model = models_for("sm_90a").select(v.family, v.a, v.d);
    const MmaExecutor x(v, model, MmaOptions{Rounding::rn, v.satfinite});
    for (int sel = 0; sel < v.metadata->selectors; ++sel)
      for (int rep = 0; rep < 3; ++rep) {
        Case c = make_case(v, sel, rng);
        const auto wpl = [&](Operand o) { return v.words(o); };
        x.run({c.a, wpl(Operand::a)}, {c.b, wpl(Operand::b)}, {c.c, wpl(Operand::c)}, c.d, {c.e, sel});
        for (int m = 0; m < v.shape.m; ++m)
          for (int n = 0; n < v.shape.n; ++n) {
            const FragmentSlot& slot = v.ld->slot(0, m, n);
            const std::uint32_t w = c.d[static_cast<std::size_t>(slot.lane * wpl(Operand::d) + slot.reg)];
            const int db = element_bits(v.d, v.container);
            const std::uint64_t code = db == 32 ? w >> info(v.d).shift : get_element(w, db, slot.elem);
            const std::int64_t want = c.want[static_cast<std::size_t>(m * v.shape.n + n)];
            ASSERT_EQ(code, register_bits(v.d, want) >> info(v.d).shift)
                << v.ptx << " selector " << sel << " D[" << m << "][" << n << "] should be " << want;
            ++checked;
          }
      }
  }
  EXPECT_EQ(variants, 88);  // the 44 sparse variants sm_90 runs, in both spellings
  EXPECT_GT(checked, 0);
}

TEST(SparseMma, UndefinedMetadataIsALocatedError) {
  const MatrixVariant& v = mma_catalog().find(
      MatrixSelector{{16, 8, 16}, MatrixLayout::row, MatrixLayout::col, Type::f16, Type::f16, Type::f32, Type::f32,
                  false, BitOp::none, MmaKind::none, false, 0, std::nullopt, Sparsity::ordered});
  const MmaExecutor x(v, models_for("sm_90a").select(v.family, v.a, v.d), MmaOptions{});
  std::vector<std::uint32_t> a(64), b(64), c(128), d(128), e(32, 0x44444444U);  // 0b0100: indices 0, 1
  EXPECT_NO_THROW(x.run({a, 2}, {b, 2}, {c, 4}, d, {e, 1}));
  e[5] = 0x44404444U;  // lane 5 = 4*1 + selector 1, nibble 4: row 9, chunk 0: index 0 twice
  try {
    x.run({a, 2}, {b, 2}, {c, 4}, d, {e, 1});
    ADD_FAILURE() << "no error";
  } catch (const Error& err) {
    EXPECT_STREQ(err.what(), "sparse metadata: lane 5 nibble 4 = 0b0000 (A row 9, K columns 0-3): both indices are "
                             "the same; the result is undefined");
  }
  e[5] = 0x44414444U;  // 0b0001: indices 1, 0: plain .sp takes it, ordered_metadata does not
  EXPECT_THROW(x.run({a, 2}, {b, 2}, {c, 4}, d, {e, 1}), Error);
  EXPECT_THROW(x.run({a, 2}, {b, 2}, {c, 4}, d, {e, 4}), Error);  // selectors 0..3
}

// The logical A of a sparse mma, compressed: every nonzero code stored at the column the metadata
// names (read back through §3.3's hand-placed sources), increasing columns, nothing written to the
// nibbles the selector does not read.
TEST(SparseMma, CompressedLogicalAKeepsEveryNonzeroWhereTheMetadataSaysItIs) {
  std::mt19937 rng(777);
  int checked = 0;
  for (const MatrixVariant& v : mma_catalog().variants()) {
    if (v.sparse != Sparsity::ordered || *target_rank(v.targets.first) > *target_rank("sm_90a")) continue;
    const Shape s = v.shape;
    const int per = stored_per_chunk(v.pattern), width = chunk_columns(v.pattern), chunks = s.k / width;
    for (int sel = 0; sel < v.metadata->selectors; ++sel) {
      std::vector<std::uint64_t> logical(static_cast<std::size_t>(s.m * s.k), 0);
      for (int row = 0; row < s.m; ++row)
        for (int ch = 0; ch < chunks; ++ch) {
          // Nonzeros in at most `per` columns; 4:8 within two pairs of its four.
          const int groups = v.pattern == SparsePattern::four_of_eight ? 4 : width;
          const int kept_groups = v.pattern == SparsePattern::four_of_eight ? 2 : per;
          std::vector<int> g(static_cast<std::size_t>(groups));
          for (int i = 0; i < groups; ++i) g[static_cast<std::size_t>(i)] = i;
          std::shuffle(g.begin(), g.end(), rng);
          for (int i = 0; i < kept_groups; ++i)
            for (int e = 0; e < width / groups; ++e)
              if (rng() % 3 != 0)
                logical[static_cast<std::size_t>(row * s.k + ch * width + g[static_cast<std::size_t>(i)] * width / groups +
                                                 e)] = 1 + rng() % 15;
        }
      const SparseMetadata::Compressed got = v.metadata->compress(v.pattern, logical, s.k, sel);
      std::vector<std::uint32_t> read(32, 0);  // the nibbles this selector reads
      for (int row = 0; row < s.m; ++row)
        for (int ch = 0; ch < chunks; ++ch) {
          const auto [lane, q] = metadata_source(v.metadata->name, row, ch, sel);
          read[static_cast<std::size_t>(lane)] |= 0xFU << (4 * q);
          const unsigned nib = (got.meta[static_cast<std::size_t>(lane)] >> (4 * q)) & 0xFU;
          std::vector<bool> kept(static_cast<std::size_t>(width));
          int last = -1;
          for (int st = 0; st < per; ++st) {
            int col = 0;
            if (v.pattern == SparsePattern::one_of_two) col = nib == 0b0100 ? 0 : 1;
            else if (v.pattern == SparsePattern::two_of_four) col = static_cast<int>((nib >> (2 * st)) & 3);
            else col = 2 * static_cast<int>((nib >> (2 * (st / 2))) & 3) + st % 2;
            ASSERT_GT(col, last) << v.ptx << " row " << row << " chunk " << ch;
            last = col;
            kept[static_cast<std::size_t>(col)] = true;
            ASSERT_EQ(got.stored[static_cast<std::size_t>(row * s.k / 2 + ch * per + st)],
                      logical[static_cast<std::size_t>(row * s.k + ch * width + col)]);
          }
          for (int col = 0; col < width; ++col)
            ASSERT_TRUE(kept[static_cast<std::size_t>(col)] ||
                        logical[static_cast<std::size_t>(row * s.k + ch * width + col)] == 0)
                << v.ptx << " row " << row << " column " << ch * width + col << " dropped";
          ++checked;
        }
      for (int lane = 0; lane < 32; ++lane)
        EXPECT_EQ(got.meta[static_cast<std::size_t>(lane)] & ~read[static_cast<std::size_t>(lane)], 0U);
    }
  }
  EXPECT_GT(checked, 0);
}

TEST(SparseMma, CompressingTooManyNonzerosNamesTheChunk) {
  const MatrixVariant& v = mma_catalog().find(
      MatrixSelector{{16, 8, 16}, MatrixLayout::row, MatrixLayout::col, Type::f16, Type::f16, Type::f32, Type::f32,
                  false, BitOp::none, MmaKind::none, false, 0, std::nullopt, Sparsity::ordered});
  std::vector<std::uint64_t> a(16 * 16, 0);
  a[3 * 16 + 4] = a[3 * 16 + 6] = a[3 * 16 + 7] = 0x3C00;
  try {
    (void)v.metadata->compress(v.pattern, a, 16, 0);
    ADD_FAILURE() << "no error";
  } catch (const Error& err) {
    EXPECT_STREQ(err.what(), "sparse A: row 3, columns 4-7 hold 3 nonzero elements; 2:4 sparsity keeps 2");
  }
  EXPECT_EQ(covering_nibble(SparsePattern::four_of_eight, 0b10000001), 0b1100);  // pairs 0 and 3
  EXPECT_EQ(covering_nibble(SparsePattern::four_of_eight, 0b00010101), -1);      // three pairs
  EXPECT_EQ(covering_nibble(SparsePattern::one_of_two, 0), 0b0100);
}

}  // namespace
}  // namespace ptxmma
