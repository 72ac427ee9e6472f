// The tile kernels (block-FMA fixed-point loops, f64 FMA chains, integer, popc) against dot(), output by output,
// on random tiles shaped to reach every path: specials in A, B and C, zeros, subnormals,
// cancellation, overflow, huge and tiny C, every block layout and rounding of the models.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <tuple>
#include <vector>

#include "sim/model/dot.hpp"
#include "sim/model/tile.hpp"
#include "tools/vectors/explanation.hpp"

namespace ptxmma {
namespace {

class Codes {
 public:
  explicit Codes(std::uint64_t seed) : rng_(seed) {}
  std::uint64_t draw(Type t) {
    const TypeInfo& ti = info(t);
    if (!ti.is_float) return rng_() & ti.mask();
    const std::uint64_t frac = rng_() & ((1ULL << ti.man_bits) - 1);
    const std::uint64_t sign = (rng_() & 1) ? ti.sign_bit() : 0;
    const int top = static_cast<int>(ti.exp_max_code());
    int biased;
    switch (rng_() % 16) {
      case 0: return rng_() & ti.mask();  // any bits, specials included
      case 1: return sign;                // +-0
      case 2: biased = static_cast<int>(rng_() % 3); break;              // subnormal, tiny
      case 3: biased = top - 1 - static_cast<int>(rng_() % 2); break;    // near overflow
      case 4: return sign | (static_cast<std::uint64_t>(ti.bias) << ti.man_bits);  // +-1: cancellation
      default: biased = ti.bias - 4 + static_cast<int>(rng_() % 9); break;
    }
    biased = std::clamp(biased, 0, top - 1);
    std::uint64_t code = sign | (static_cast<std::uint64_t>(biased) << ti.man_bits) | frac;
    if (ti.nan == NanCode::all_ones_low && (code & ~ti.sign_bit()) == (ti.mask() >> 1)) code &= ~1ULL;
    return code;
  }
  // Mostly finite tiles: a special in one row or column in a few of them.
  std::uint64_t draw_mostly_finite(Type t, bool specials) {
    for (;;) {
      const std::uint64_t c = draw(t);
      if (specials || !info(t).is_float) return c;
      const Fields f = decode(t, c);
      if (f.cls != FpClass::nan && f.cls != FpClass::infinity) return c;
    }
  }
  // A finite value of magnitude near 2^e (e within the format's range).
  std::uint64_t near(Type t, int e) {
    const TypeInfo& ti = info(t);
    const int biased = std::clamp(e + ti.bias + static_cast<int>(rng_() % 7) - 3, 0, static_cast<int>(ti.exp_max_code()) - 1);
    return ((rng_() & 1) ? ti.sign_bit() : 0) | (static_cast<std::uint64_t>(biased) << ti.man_bits) |
           (rng_() & ((1ULL << ti.man_bits) - 1));
  }
  bool chance(int percent) { return static_cast<int>(rng_() % 100) < percent; }

 private:
  std::mt19937_64 rng_;
};

// tiny_at: draw A and B near 2^tiny_at and C near the smallest normal (sums in the subnormal range of D).
// s.problems: that many problems one after another in each array, each against its own dot()s.
void check_tile(const Model& model, const TileSpec& s, int tiles, std::uint64_t seed, std::optional<int> tiny_at = {}) {
  Codes in(seed);
  TileKernel kernel(model, s);
  const auto mk = static_cast<std::size_t>(s.problems * s.m * s.k), nk = static_cast<std::size_t>(s.problems * s.n * s.k);
  const auto mn = static_cast<std::size_t>(s.problems * s.m * s.n);
  std::vector<std::uint64_t> a(mk), b(nk), c(mn), d(mn);
  long failures = 0;
  for (int t = 0; t < tiles; ++t) {
    const bool specials = in.chance(20);
    for (auto& x : a) x = in.draw_mostly_finite(s.a, specials);
    for (auto& x : b) x = in.draw_mostly_finite(s.b, specials);
    for (auto& x : c) x = in.draw_mostly_finite(s.c, in.chance(50));
    if (tiny_at) {
      for (auto& x : a) x = in.near(s.a, *tiny_at);
      for (auto& x : b) x = in.near(s.b, *tiny_at);
      for (auto& x : c) x = in.chance(50) ? 0 : in.near(s.c, info(s.c).emin() - 8);
    }
    kernel.run(a.data(), b.data(), c.data(), d.data());
    for (int i = 0; i < s.problems * s.m; ++i)  // row i of problem i / M
      for (int j = 0; j < s.n; ++j) {
        const std::size_t at = static_cast<std::size_t>(i * s.n + j);
        const int column = i / s.m * s.n + j;
        const DotRequest r{s.a, s.b, s.c, s.d, &a[static_cast<std::size_t>(i * s.k)],
                           &b[static_cast<std::size_t>(column * s.k)], s.k, c[at], s.rounding, s.satfinite, s.bitop};
        const std::uint64_t want = dot(model, r);
        if (d[at] != want && ++failures <= 5) {
          DotTrace trace;
          dot(model, r, &trace);
          std::string steps;
          for (const auto& l : explanation_lines(explanation_json(model, trace))) steps += "\n  " + l;
          ADD_FAILURE() << model.name << " tile " << t << " (" << i << ", " << j << "): kernel " << std::hex << d[at]
                        << ", dot " << want << steps;
        }
      }
  }
  EXPECT_EQ(failures, 0) << model.name << ": of " << tiles << " tiles of " << s.m << "x" << s.n << "x" << s.k;
}

// run_words (elements straight from register words, the words in a scattered placement) against run().
void check_words(const Model& model, const TileSpec& s, int tiles, std::uint64_t seed) {
  Codes in(seed);
  TileKernel by_codes(model, s), by_words(model, s);
  ASSERT_TRUE(by_words.takes_words());
  const int bits = info(s.a).bits;
  const auto per_word = static_cast<std::size_t>(32 / bits);
  const auto place = [&](std::size_t words, std::vector<std::uint32_t>& index) {  // a permutation of the words
    index.resize(words);
    for (std::size_t w = 0; w < words; ++w) index[w] = static_cast<std::uint32_t>(w);
    std::shuffle(index.begin(), index.end(), std::mt19937_64(seed));
  };
  const auto mk = static_cast<std::size_t>(s.problems * s.m * s.k), nk = static_cast<std::size_t>(s.problems * s.n * s.k);
  std::vector<std::uint32_t> ai, bi;
  place(mk / per_word, ai);
  place(nk / per_word, bi);
  std::vector<std::uint64_t> a(mk), b(nk), c(static_cast<std::size_t>(s.problems * s.m * s.n)), d1(c.size()),
      d2(c.size());
  std::vector<std::uint32_t> aw(ai.size()), bw(bi.size());
  for (int t = 0; t < tiles; ++t) {
    const bool specials = in.chance(20);
    std::fill(aw.begin(), aw.end(), 0);
    std::fill(bw.begin(), bw.end(), 0);
    // Element k of row r of problem p: word q = k / per_word of the row, at index[(p * words + q) *
    // rows + r] (words per row).
    const auto put = [&](std::vector<std::uint32_t>& words, const std::vector<std::uint32_t>& index, int rows,
                         std::size_t x, std::uint64_t code) {
      const auto r_all = x / static_cast<std::size_t>(s.k), k = x % static_cast<std::size_t>(s.k);
      const auto p = r_all / static_cast<std::size_t>(rows), r = r_all % static_cast<std::size_t>(rows);
      const auto row_words = static_cast<std::size_t>(s.k) / per_word;
      words[index[(p * row_words + k / per_word) * static_cast<std::size_t>(rows) + r]] |=
          static_cast<std::uint32_t>(code << (k % per_word * static_cast<std::size_t>(bits)));
    };
    for (std::size_t x = 0; x < mk; ++x) put(aw, ai, s.m, x, a[x] = in.draw_mostly_finite(s.a, specials));
    for (std::size_t x = 0; x < nk; ++x) put(bw, bi, s.n, x, b[x] = in.draw_mostly_finite(s.b, specials));
    for (auto& x : c) x = in.draw_mostly_finite(s.c, in.chance(50));
    by_codes.run(a.data(), b.data(), c.data(), d1.data());
    by_words.run_words({aw.data(), ai.data()}, {bw.data(), bi.data()}, c.data(), d2.data());
    ASSERT_EQ(d1, d2) << model.name << " tile " << t;
  }
}

const Model& model(const char* arch, const char* family, Type a, Type d) { return models_for(arch).select(family, a, d); }

TEST(TileKernel, BlockFmaSm90) {
  check_tile(model("sm_90a", "hmma", Type::f16, Type::f32), {Type::f16, Type::f16, Type::f32, Type::f32, 16, 8, 16}, 3000, 1);
  check_tile(model("sm_90a", "hmma", Type::f16, Type::f16), {Type::f16, Type::f16, Type::f16, Type::f16, 16, 8, 16}, 3000, 2);
  check_tile(model("sm_90a", "hmma", Type::bf16, Type::f32), {Type::bf16, Type::bf16, Type::f32, Type::f32, 16, 8, 16}, 3000, 3);
  check_tile(model("sm_90a", "hmma", Type::tf32, Type::f32), {Type::tf32, Type::tf32, Type::f32, Type::f32, 16, 8, 8}, 3000, 4);
  check_tile(model("sm_90a", "fp8_via_hmma", Type::e4m3, Type::f32), {Type::e4m3, Type::e5m2, Type::f32, Type::f32, 16, 8, 32}, 3000, 5);
  check_tile(model("sm_90a", "fp8_via_hmma", Type::e5m2, Type::f16), {Type::e5m2, Type::e4m3, Type::f16, Type::f16, 16, 8, 32}, 3000, 6);
  // wgmma: N not a multiple of the 8 lanes is padded; QGMMA narrows its sums to 13 bits.
  check_tile(model("sm_90a", "hgmma", Type::f16, Type::f32), {Type::f16, Type::f16, Type::f32, Type::f32, 64, 24, 16}, 300, 7);
  check_tile(model("sm_90a", "hgmma", Type::bf16, Type::f16), {Type::bf16, Type::bf16, Type::f16, Type::f16, 8, 13, 16}, 1000, 8);
  check_tile(model("sm_90a", "qgmma", Type::e4m3, Type::f32), {Type::e4m3, Type::e4m3, Type::f32, Type::f32, 64, 16, 32}, 300, 9);
  check_tile(model("sm_90a", "qgmma", Type::e5m2, Type::f16), {Type::e5m2, Type::e4m3, Type::f16, Type::f16, 64, 8, 32}, 300, 10);
}

TEST(TileKernel, FromRegisterWords) {
  check_words(model("sm_90a", "hmma", Type::f16, Type::f32), {Type::f16, Type::f16, Type::f32, Type::f32, 16, 8, 16}, 1000, 80);
  check_words(model("sm_90a", "fp8_via_hmma", Type::e4m3, Type::f16), {Type::e4m3, Type::e4m3, Type::f16, Type::f16, 16, 8, 32}, 1000, 81);
  check_words(model("sm_90a", "fp8_via_hmma", Type::e5m2, Type::f32), {Type::e5m2, Type::e4m3, Type::f32, Type::f32, 16, 8, 32}, 1000, 82);
  check_words(model("sm_90a", "hmma", Type::bf16, Type::f32), {Type::bf16, Type::bf16, Type::f32, Type::f32, 16, 8, 16}, 1000, 83);
  check_words(model("sm_90a", "hmma", Type::f16, Type::f16), {Type::f16, Type::f16, Type::f16, Type::f16, 16, 8, 8}, 1000, 84);
  // Rows and columns that do not fill 8 lanes; zeros that set the exponent.
  check_words(model("sm_90a", "hgmma", Type::bf16, Type::f16), {Type::bf16, Type::bf16, Type::f16, Type::f16, 12, 13, 16}, 1000, 85);
  Model zeros = model("sm_89", "fp8_via_hmma", Type::e4m3, Type::f32);
  zeros.block.zeros_set_exponent = true;
  check_words(zeros, {Type::e4m3, Type::e5m2, Type::f32, Type::f32, 16, 8, 32}, 1000, 86);
}

// Sums below the smallest normal of D: the subnormal grid, and the exponent floors.
TEST(TileKernel, BlockFmaSubnormalSums) {
  for (const int e : {-63, -66, -70}) {
    check_tile(model("sm_90a", "hmma", Type::bf16, Type::f32), {Type::bf16, Type::bf16, Type::f32, Type::f32, 16, 8, 16}, 500, 11, e);
    check_tile(model("sm_90a", "hmma", Type::tf32, Type::f32), {Type::tf32, Type::tf32, Type::f32, Type::f32, 16, 8, 8}, 500, 12, e);
    check_tile(model("sm_89", "hmma", Type::bf16, Type::f32), {Type::bf16, Type::bf16, Type::f32, Type::f32, 16, 8, 16}, 500, 13, e);
  }
  check_tile(model("sm_90a", "hmma", Type::f16, Type::f16), {Type::f16, Type::f16, Type::f16, Type::f16, 16, 8, 16}, 500, 14, -10);
}

// Chained blocks of 4 / 8 / 16 (blocks, run), F = 23, 24 and 13, floors or none, e8m13 sums.
TEST(TileKernel, BlockFmaOtherArchitectures) {
  for (const char* arch : {"sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_100a", "sm_120a"}) {
    const ModelSet& set = models_for(arch);
    check_tile(set.select("hmma", Type::f16, Type::f32), {Type::f16, Type::f16, Type::f32, Type::f32, 16, 8, 16}, 500, 20);
    check_tile(set.select("hmma", Type::f16, Type::f16), {Type::f16, Type::f16, Type::f16, Type::f16, 16, 8, 16}, 500, 21);
  }
  check_tile(model("sm_89", "fp8_via_hmma", Type::e4m3, Type::f32), {Type::e4m3, Type::e5m2, Type::f32, Type::f32, 16, 8, 32}, 1000, 22);
  check_tile(model("sm_89", "fp8_via_hmma", Type::e4m3, Type::f16), {Type::e4m3, Type::e4m3, Type::f16, Type::f16, 16, 8, 32}, 1000, 23);
  check_tile(model("sm_86", "hmma", Type::tf32, Type::f32), {Type::tf32, Type::tf32, Type::f32, Type::f32, 16, 8, 8}, 1000, 24);
  check_tile(model("sm_120a", "mxf4", Type::e2m1, Type::f32), {Type::e2m1, Type::e2m1, Type::f32, Type::f32, 16, 8, 64}, 300, 25);
}

// Volta's m8n8k4 .f16 (one block of 4 products and C, F = 23): the three D/C pairs, sums in the
// subnormal range of f16 D, tf32's m16n8k4 (products that are no float values) and a K that is
// none of the shapes' (one_block's loops without a constant K).
TEST(TileKernel, BlockFmaOneBlock) {
  const ModelSet& volta = models_for("sm_70");
  for (const Type d : {Type::f16, Type::f32})
    for (const Type c : {Type::f16, Type::f32}) {
      if (d == Type::f16 && c == Type::f32) continue;  // no such mma
      TileSpec s{Type::f16, Type::f16, c, d, 8, 8, 4};
      check_tile(volta.select("hmma_m8n8k4", Type::f16, d), s, 3000, 26);
      check_tile(volta.select("hmma_m8n8k4", Type::f16, d), s, 300, 27, -12);
      check_words(volta.select("hmma_m8n8k4", Type::f16, d), s, 1000, 28);
      s.problems = 4;  // the instruction's four quad-pairs in one run
      check_tile(volta.select("hmma_m8n8k4", Type::f16, d), s, 1000, 32);
      check_words(volta.select("hmma_m8n8k4", Type::f16, d), s, 1000, 33);
    }
  check_tile(model("sm_90a", "hmma", Type::tf32, Type::f32), {Type::tf32, Type::tf32, Type::f32, Type::f32, 16, 8, 4}, 2000, 29);
  check_tile(model("sm_90a", "hmma", Type::f16, Type::f16), {Type::f16, Type::f16, Type::f16, Type::f16, 5, 11, 6}, 1000, 30);
  check_tile(model("sm_90a", "hmma", Type::bf16, Type::f32), {Type::bf16, Type::bf16, Type::f32, Type::f32, 12, 16, 12}, 1000, 31);
  // Problems whose rows and columns do not fill 8 lanes.
  TileSpec odd{Type::f16, Type::f16, Type::f32, Type::f32, 5, 11, 6};
  odd.problems = 3;
  check_tile(model("sm_90a", "hmma", Type::f16, Type::f32), odd, 1000, 34);
  odd.k = 8;
  check_words(model("sm_90a", "hmma", Type::f16, Type::f32), odd, 1000, 35);
}

// Parameters no YAML file uses yet: every rounding of narrowed and full sums, zeros that set
// the exponent.
TEST(TileKernel, BlockFmaEveryRounding) {
  Model m = model("sm_89", "fp8_via_hmma", Type::e4m3, Type::f32);
  for (Rounding r : {Rounding::rn, Rounding::rna, Rounding::rz, Rounding::rm, Rounding::rp}) {
    for (const std::optional<int> frac : {std::optional<int>{}, std::optional<int>{9}}) {
      m.block.f32 = {r, frac ? std::nullopt : std::optional<int>{-133}, frac};
      m.block.f16 = {r, -20, frac ? std::optional<int>{4} : std::nullopt};
      m.block.zeros_set_exponent = r == Rounding::rm;
      check_tile(m, {Type::e4m3, Type::e5m2, Type::f32, Type::f32, 16, 8, 32}, 300, 40 + static_cast<int>(r));
      check_tile(m, {Type::e5m2, Type::e4m3, Type::f16, Type::f16, 16, 8, 32}, 300, 50 + static_cast<int>(r));
    }
  }
}

TEST(TileKernel, IntegerAndPopc) {
  const Model& imma = model("sm_90a", "imma", Type::s8, Type::s32);
  check_tile(imma, {Type::s8, Type::u8, Type::s32, Type::s32, 16, 8, 32, Rounding::rn, true}, 2000, 60);
  check_tile(imma, {Type::u8, Type::u8, Type::s32, Type::s32, 16, 8, 32}, 2000, 61);
  check_tile(imma, {Type::s4, Type::u4, Type::s32, Type::s32, 16, 8, 64, Rounding::rn, true}, 2000, 62);
  const Model& bmma = model("sm_90a", "bmma", Type::b1, Type::s32);
  check_tile(bmma, {Type::b1, Type::b1, Type::s32, Type::s32, 16, 8, 256, Rounding::rn, false, BitOp::and_popc}, 1000, 63);
  check_tile(bmma, {Type::b1, Type::b1, Type::s32, Type::s32, 8, 8, 128, Rounding::rn, false, BitOp::xor_popc}, 1000, 64);
}

// f64 chains on the host's FMA in every mode: the mma shapes, rows and columns that do not fill
// the 4 x 8 passes; sums and running sums in the subnormal range (products near 2^-1040, C near
// the smallest normal), overflow, exact cancellation (the sign of zero in .rm).
TEST(TileKernel, FmaChainF64) {
  const Model& dmma = model("sm_90a", "dmma", Type::f64, Type::f64);
  for (Rounding r : {Rounding::rn, Rounding::rz, Rounding::rm, Rounding::rp}) {
    const int seed = 100 + 10 * static_cast<int>(r);
    check_tile(dmma, {Type::f64, Type::f64, Type::f64, Type::f64, 8, 8, 4, r}, 2000, seed);
    check_tile(dmma, {Type::f64, Type::f64, Type::f64, Type::f64, 16, 8, 16, r}, 1000, seed + 1);
    check_tile(dmma, {Type::f64, Type::f64, Type::f64, Type::f64, 7, 13, 5, r}, 1000, seed + 2);
    for (const int e : {-520, -537, -560})
      check_tile(dmma, {Type::f64, Type::f64, Type::f64, Type::f64, 16, 8, 8, r}, 300, seed + 3, e);
  }
  check_tile(model("sm_120a", "dmma", Type::f64, Type::f64), {Type::f64, Type::f64, Type::f64, Type::f64, 16, 8, 4, Rounding::rz}, 500, 150);
}

// f64 chains of signed zeros, ones and the smallest subnormal: the sign of every zero sum and
// product in every mode (a broadcast that adds +0 to -0 once lost it).
TEST(TileKernel, FmaChainF64SignedZeros) {
  const Model& dmma = model("sm_90a", "dmma", Type::f64, Type::f64);
  const std::uint64_t values[] = {0, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000, 1, 0x8000000000000001};
  std::mt19937_64 rng(160);
  for (Rounding r : {Rounding::rn, Rounding::rz, Rounding::rm, Rounding::rp}) {
    const TileSpec s{Type::f64, Type::f64, Type::f64, Type::f64, 8, 8, 4, r};
    TileKernel kernel(dmma, s);
    std::vector<std::uint64_t> a(32), b(32), c(64), d(64);
    for (int t = 0; t < 500; ++t) {
      for (auto* v : {&a, &b, &c})
        for (auto& x : *v) x = values[rng() % (v == &c ? 2 : 6)];
      kernel.run(a.data(), b.data(), c.data(), d.data());
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
          const DotRequest q{s.a, s.b, s.c, s.d, &a[static_cast<std::size_t>(i * 4)], &b[static_cast<std::size_t>(j * 4)], 4,
                             c[static_cast<std::size_t>(i * 8 + j)], r};
          ASSERT_EQ(d[static_cast<std::size_t>(i * 8 + j)], dot(dmma, q)) << name(r) << " tile " << t << " (" << i << ", " << j << ")";
        }
    }
  }
}

// Sparse A (run_sparse) against dot() on the B rows each row picks: rows pick any of B's 2K rows
// (repeats included), and B's other rows hold specials that must not matter.
void check_sparse(const Model& model, TileSpec s, int tiles, std::uint64_t seed) {
  s.sparse = true;
  Codes in(seed);
  std::mt19937_64 pick(seed);
  TileKernel kernel(model, s);
  const auto mk = static_cast<std::size_t>(s.m * s.k), nk2 = static_cast<std::size_t>(s.n * 2 * s.k);
  const auto mn = static_cast<std::size_t>(s.m * s.n);
  std::vector<std::uint64_t> a(mk), b(nk2), c(mn), d(mn), row(static_cast<std::size_t>(s.k));
  std::vector<int> cols(mk);
  long failures = 0;
  for (int t = 0; t < tiles; ++t) {
    const bool specials = in.chance(20);
    for (auto& x : a) x = in.draw_mostly_finite(s.a, specials);
    for (auto& x : b) x = in.draw_mostly_finite(s.b, specials || in.chance(5));
    for (auto& x : c) x = in.draw_mostly_finite(s.c, in.chance(50));
    for (auto& x : cols) x = static_cast<int>(pick() % static_cast<std::uint64_t>(2 * s.k));
    kernel.run_sparse(a.data(), b.data(), cols.data(), c.data(), d.data());
    for (int i = 0; i < s.m; ++i)
      for (int j = 0; j < s.n; ++j) {
        for (int x = 0; x < s.k; ++x)
          row[static_cast<std::size_t>(x)] = b[static_cast<std::size_t>(j * 2 * s.k + cols[static_cast<std::size_t>(i * s.k + x)])];
        const std::size_t at = static_cast<std::size_t>(i * s.n + j);
        const DotRequest r{s.a, s.b, s.c, s.d, &a[static_cast<std::size_t>(i * s.k)], row.data(), s.k, c[at],
                           s.rounding, s.satfinite, s.bitop};
        const std::uint64_t want = dot(model, r);
        if (d[at] != want && ++failures <= 5)
          ADD_FAILURE() << model.name << " sparse tile " << t << " (" << i << ", " << j << "): kernel " << std::hex
                        << d[at] << ", dot " << want;
      }
  }
  EXPECT_EQ(failures, 0) << model.name << ": of " << tiles << " sparse tiles of " << s.m << "x" << s.n << "x" << s.k;
}

TEST(TileKernel, Sparse) {
  check_sparse(model("sm_90a", "hmma", Type::f16, Type::f32), {Type::f16, Type::f16, Type::f32, Type::f32, 16, 8, 16}, 2000, 200);
  check_sparse(model("sm_90a", "hmma", Type::f16, Type::f16), {Type::f16, Type::f16, Type::f16, Type::f16, 16, 8, 8}, 2000, 201);
  check_sparse(model("sm_90a", "hmma", Type::bf16, Type::f32), {Type::bf16, Type::bf16, Type::f32, Type::f32, 16, 8, 16}, 2000, 202);
  check_sparse(model("sm_90a", "hmma", Type::tf32, Type::f32), {Type::tf32, Type::tf32, Type::f32, Type::f32, 16, 8, 8}, 2000, 203);
  check_sparse(model("sm_90a", "fp8_via_hmma", Type::e4m3, Type::f32), {Type::e4m3, Type::e5m2, Type::f32, Type::f32, 16, 8, 32}, 2000, 204);
  check_sparse(model("sm_89", "fp8_via_hmma", Type::e4m3, Type::f16), {Type::e4m3, Type::e4m3, Type::f16, Type::f16, 16, 8, 32}, 1000, 205);
  check_sparse(model("sm_80", "hmma", Type::f16, Type::f32), {Type::f16, Type::f16, Type::f32, Type::f32, 16, 8, 16}, 1000, 206);
  check_sparse(model("sm_90a", "hgmma", Type::f16, Type::f32), {Type::f16, Type::f16, Type::f32, Type::f32, 64, 24, 16}, 200, 207);
  check_sparse(model("sm_90a", "qgmma", Type::e4m3, Type::f32), {Type::e4m3, Type::e4m3, Type::f32, Type::f32, 64, 16, 32}, 200, 208);
  check_sparse(model("sm_90a", "qgmma", Type::e5m2, Type::f16), {Type::e5m2, Type::e4m3, Type::f16, Type::f16, 64, 8, 32}, 200, 209);
  const Model& imma = model("sm_90a", "imma", Type::s8, Type::s32);
  check_sparse(imma, {Type::s8, Type::u8, Type::s32, Type::s32, 16, 8, 32, Rounding::rn, true}, 2000, 210);
  check_sparse(imma, {Type::u4, Type::s4, Type::s32, Type::s32, 16, 8, 64}, 2000, 211);
  check_sparse(model("sm_90a", "bmma", Type::b1, Type::s32),
               {Type::b1, Type::b1, Type::s32, Type::s32, 16, 8, 128, Rounding::rn, false, BitOp::and_popc}, 500, 212);
  // F = 25 over 32 products: two int32 sums per block.
  check_sparse(model("sm_120a", "f8f6f4", Type::e4m3, Type::f16), {Type::e4m3, Type::e2m1, Type::f16, Type::f16, 16, 8, 32}, 500, 213);
  check_sparse(model("sm_120a", "f8f6f4", Type::e5m2, Type::f32), {Type::e5m2, Type::e3m2, Type::f32, Type::f32, 16, 8, 32}, 500, 214);
  check_sparse(model("sm_120a", "fp8_via_hmma", Type::e4m3, Type::f16), {Type::e4m3, Type::e5m2, Type::f16, Type::f16, 16, 8, 32}, 500, 215);
}

// sm_120a's kind::f8f6f4 (F = 25 over 32 products: two int32 sums per block), every pair of types.
TEST(TileKernel, KindF8f6f4) {
  const Type types[] = {Type::e4m3, Type::e5m2, Type::e3m2, Type::e2m3, Type::e2m1};
  int seed = 220;
  for (const Type a : types)
    for (const Type b : types)
      for (const Type d : {Type::f32, Type::f16})
        check_tile(model("sm_120a", "f8f6f4", a, d), {a, b, d, d, 16, 8, 32}, 100, seed++);
  check_tile(model("sm_120a", "fp8_via_hmma", Type::e4m3, Type::f32), {Type::e4m3, Type::e5m2, Type::f32, Type::f32, 16, 8, 32}, 500, seed++);
  // Every element the largest of its type, one sign: 32 terms near 2^27 each, a sum past int32.
  for (const Type a : types)
    for (const Type b : types)
      for (const bool negative : {false, true}) {
        const Model& m = model("sm_120a", "f8f6f4", a, Type::f32);
        const TileSpec s{a, b, Type::f32, Type::f32, 16, 8, 32};
        const std::vector<std::uint64_t> x(16 * 32, info(a).max_finite() | (negative ? info(a).sign_bit() : 0));
        const std::vector<std::uint64_t> y(8 * 32, info(b).max_finite()), c(16 * 8, 0);
        std::vector<std::uint64_t> d(c.size());
        TileKernel(m, s).run(x.data(), y.data(), c.data(), d.data());
        const DotRequest r{a, b, Type::f32, Type::f32, x.data(), y.data(), 32, 0};
        EXPECT_EQ(d, std::vector<std::uint64_t>(d.size(), dot(m, r))) << name(a) << " x " << name(b);
      }
  for (const int e : {-12, -16})
    check_tile(model("sm_120a", "f8f6f4", Type::e5m2, Type::f32), {Type::e5m2, Type::e5m2, Type::f32, Type::f32, 16, 8, 32}, 200, seed++, e);
}

// Block-scaled tiles (run_scaled: which scale and which B row each output takes) against dot()
// with the scales given directly: scales near 2^0, at both ends of the range and NaN; dense, and
// sparse with any B rows.
void check_scaled(const Model& model, TileSpec s, int tiles, std::uint64_t seed, bool sparse = false) {
  s.sparse = sparse;
  Codes in(seed);
  std::mt19937_64 pick(seed);
  TileKernel kernel(model, s);
  const int V = s.scale_vec, b_k = sparse ? 2 * s.k : s.k;
  const auto mk = static_cast<std::size_t>(s.m * s.k), nk = static_cast<std::size_t>(s.n * b_k);
  const auto mn = static_cast<std::size_t>(s.m * s.n);
  std::vector<std::uint64_t> a(mk), b(nk), c(mn), d(mn), row(static_cast<std::size_t>(s.k));
  std::vector<std::uint64_t> sa(static_cast<std::size_t>(s.m * V)), sb(static_cast<std::size_t>(s.n * V));
  std::vector<int> cols(mk);
  const auto scale = [&] {
    switch (pick() % 8) {
      case 0: return s.scale == Type::ue8m0 ? std::uint64_t{0xff} : std::uint64_t{0x7f};  // NaN
      case 1: return std::uint64_t{0};
      case 2: return s.scale == Type::ue8m0 ? std::uint64_t{0xfe} : std::uint64_t{0x7e};
      default: return s.scale == Type::ue8m0 ? 120 + pick() % 15 : pick() & 0x7e;
    }
  };
  long failures = 0;
  for (int t = 0; t < tiles; ++t) {
    const bool specials = in.chance(20);
    for (auto& x : a) x = in.draw_mostly_finite(s.a, specials);
    for (auto& x : b) x = in.draw_mostly_finite(s.b, specials);
    for (auto& x : c) x = in.draw_mostly_finite(s.c, in.chance(50));
    for (auto& x : cols) x = static_cast<int>(pick() % static_cast<std::uint64_t>(b_k));
    const bool nan_scales = in.chance(10);
    for (auto* v : {&sa, &sb})
      for (auto& x : *v)
        for (x = scale(); !nan_scales && (x == 0xff || (s.scale == Type::ue4m3 && x == 0x7f));) x = scale();
    // Adversarial tiles: every element at the largest magnitude (one sign, or mixed) with the
    // largest scales; products that cancel in pairs; every scale the smallest (or zero).
    const auto largest = [&](Type type, bool mixed) {
      return info(type).max_finite() | (mixed && in.chance(50) ? info(type).sign_bit() : 0);
    };
    switch (t % 5) {
      case 1:
      case 2:
        for (auto& x : a) x = largest(s.a, t % 5 == 2);
        for (auto& x : b) x = largest(s.b, t % 5 == 2);
        for (auto* v : {&sa, &sb})
          for (auto& x : *v) x = in.chance(80) ? (s.scale == Type::ue8m0 ? 0xfe : 0x7e) : x;
        break;
      case 3:  // a(k+1) b(k+1) = -a(k) b(k)
        for (int x = 0; x + 1 < s.m * s.k; x += 2) a[static_cast<std::size_t>(x + 1)] = a[static_cast<std::size_t>(x)];
        for (int x = 0; x + 1 < s.n * b_k; x += 2)
          b[static_cast<std::size_t>(x + 1)] = b[static_cast<std::size_t>(x)] ^ info(s.b).sign_bit();
        if (sparse)
          for (int x = 0; x + 1 < s.m * s.k; x += 2) cols[static_cast<std::size_t>(x + 1)] = cols[static_cast<std::size_t>(x)] ^ 1;
        break;
      case 4:
        for (auto* v : {&sa, &sb})
          for (auto& x : *v) x = in.chance(70) ? 0 : x;
        break;
      default: break;
    }
    kernel.run_scaled(a.data(), b.data(), sparse ? cols.data() : nullptr, sa.data(), sb.data(), c.data(), d.data());
    for (int i = 0; i < s.m; ++i)
      for (int j = 0; j < s.n; ++j) {
        std::vector<Term> at, bt;
        for (int x = 0; x < s.k; ++x) {
          const int k = sparse ? cols[static_cast<std::size_t>(i * s.k + x)] : x;
          at.push_back(make_term(s.a, a[static_cast<std::size_t>(i * s.k + x)]));
          bt.push_back(make_term(s.b, b[static_cast<std::size_t>(j * b_k + k)]));
        }
        Term ta[4], tb[4];
        for (int v = 0; v < V; ++v) {
          ta[v] = make_term(s.scale, sa[static_cast<std::size_t>(i * V + v)]);
          tb[v] = make_term(s.scale, sb[static_cast<std::size_t>(j * V + v)]);
        }
        const std::size_t at_ij = static_cast<std::size_t>(i * s.n + j);
        const Term ct = make_term(s.c, c[at_ij]);
        DotOperands r{s.a, s.b, s.c, s.d, at.data(), bt.data(), s.k, &ct};
        r.a_scales = ta;
        r.b_scales = tb;
        r.scale_k = s.k / V;
        const std::uint64_t want = dot(model, r);
        if (d[at_ij] != want && ++failures <= 5)
          ADD_FAILURE() << model.name << " scaled tile " << t << " (" << i << ", " << j << "): kernel " << std::hex
                        << d[at_ij] << ", dot " << want;
      }
  }
  EXPECT_EQ(failures, 0) << model.name << ": of " << tiles << " scaled tiles";
}

TEST(TileKernel, BlockScaled) {
  const Model& mx = model("sm_120a", "mxf8f6f4", Type::e4m3, Type::f32);
  const Type types[] = {Type::e4m3, Type::e5m2, Type::e3m2, Type::e2m3, Type::e2m1};
  int seed = 300;
  for (const Type a : types)
    for (const Type b : {Type::e4m3, Type::e2m1, Type::e3m2}) {
      TileSpec s{a, b, Type::f32, Type::f32, 16, 8, 32};
      s.scale_vec = 1;
      check_scaled(mx, s, 100, seed++);
      check_scaled(mx, s, 50, seed++, true);
    }
  for (const auto& [family, scale, v] : {std::tuple{"mxf4", Type::ue8m0, 2}, std::tuple{"mxf4nvf4", Type::ue8m0, 2},
                                         std::tuple{"mxf4nvf4", Type::ue8m0, 4}, std::tuple{"mxf4nvf4", Type::ue4m3, 4}}) {
    TileSpec s{Type::e2m1, Type::e2m1, Type::f32, Type::f32, 16, 8, 64};
    s.scale_vec = v;
    s.scale = scale;
    check_scaled(model("sm_120a", family, Type::e2m1, Type::f32), s, 300, seed++);
    check_scaled(model("sm_120a", family, Type::e2m1, Type::f32), s, 100, seed++, true);
  }
  // Rows and columns that do not fill the 4 x 8 passes; f16 D, rounded to nearest; zeros that set
  // the exponent (no YAML file has them: the fast loops follow dot() there too).
  TileSpec odd{Type::e2m1, Type::e2m1, Type::f32, Type::f32, 7, 13, 64};
  odd.scale_vec = 4;
  odd.scale = Type::ue4m3;
  Model zeros = model("sm_120a", "mxf4nvf4", Type::e2m1, Type::f32);
  check_scaled(zeros, odd, 200, seed++);
  zeros.block.zeros_set_exponent = true;
  check_scaled(zeros, odd, 200, seed++);
  check_scaled(zeros, {Type::e2m1, Type::e2m1, Type::f16, Type::f16, 16, 8, 64, Rounding::rn, false, BitOp::none, false, 4,
                       Type::ue4m3}, 200, seed++);
  Model mx_zeros = mx;
  mx_zeros.block.zeros_set_exponent = true;
  TileSpec mx_odd{Type::e5m2, Type::e2m3, Type::f16, Type::f16, 5, 11, 32};
  mx_odd.scale_vec = 1;
  check_scaled(mx_zeros, mx_odd, 200, seed++);
  check_scaled(mx, mx_odd, 200, seed++, true);
}

// m8n8k4 .f16's addition orders on the host's binary32 arithmetic (AddTreeTile), both D types and
// both C types: cancellation to +-0, subnormal products and sums, C near overflow.
TEST(TileKernel, AddTreeOrders) {
  for (const Type d : {Type::f16, Type::f32})
    for (const Type c : {Type::f16, Type::f32}) {
      if (d == Type::f16 && c == Type::f32) continue;  // no such mma
      const Model& m = model("sm_90a", "hmma_m8n8k4", Type::f16, d);
      TileSpec s{Type::f16, Type::f16, c, d, 8, 8, 4};
      check_tile(m, s, 3000, 71);
      check_tile(m, s, 300, 72, -12);  // products and sums below f16's and f32's normal ranges
      s.problems = 4;
      check_tile(m, s, 500, 73);
    }
}

}  // namespace
}  // namespace ptxmma
