// The fast fixed-point engines against the exact rational reference, on random inputs shaped to
// reach every path: cancellation, alignment loss, subnormals, overflow, specials.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "sim/numeric/exact.hpp"
#include "tests/model/exact_model.hpp"
#include "tools/vectors/explanation.hpp"

namespace ptxmma {
namespace {

// Dot products per family: 1,000,000 by default, PTXMMA_RANDOM_DOTS overrides (the sanitizer
// build sets fewer; the long run more).
long dots_per_family() {
  if (const char* s = std::getenv("PTXMMA_RANDOM_DOTS")) return std::atol(s);
  return 1'000'000;
}

class Inputs {
 public:
  explicit Inputs(std::uint64_t seed) : rng_(seed) {}

  // A code of type t drawn from one of several shapes of input.
  std::uint64_t draw(Type t) {
    const TypeInfo& ti = info(t);
    if (!ti.is_float) return rng_() & ti.mask();
    const std::uint64_t frac = rng_() & ((1ULL << ti.man_bits) - 1);
    const std::uint64_t sign = (rng_() & 1) ? ti.sign_bit() : 0;
    const int top = static_cast<int>(ti.exp_max_code());
    int biased;
    switch (rng_() % 8) {
      case 0: return rng_() & ti.mask();                                         // any bits
      case 1: biased = static_cast<int>(rng_() % 3); break;                      // subnormal, tiny
      case 2: biased = top - 1 - static_cast<int>(rng_() % 2); break;            // near overflow
      case 3: return sign | (static_cast<std::uint64_t>(ti.bias) << ti.man_bits) |
                     ((rng_() & 1) << (ti.man_bits - 1));                        // +-1, +-1.5: cancellation
      default: biased = ti.bias - 3 + static_cast<int>(rng_() % 7); break;       // narrow
    }
    biased = std::clamp(biased, 0, top - 1);
    std::uint64_t code = sign | (static_cast<std::uint64_t>(biased) << ti.man_bits) | frac;
    if (ti.nan == NanCode::all_ones_low && (code & ~ti.sign_bit()) == (ti.mask() >> 1)) code &= ~1ULL;
    return code;
  }

 private:
  std::mt19937_64 rng_;
};

struct Family {
  const char* model_family;
  Type a, b, c, d;
  int k;
  Rounding rounding = Rounding::rn;
  bool satfinite = false;
  BitOp bitop = BitOp::none;
  const char* arch = "sm_90a";  // whose configs/models/<arch>.yaml gives the model
};

void check_model(const Model& m, const Family& f, long count, std::uint64_t seed) {
  Inputs in(seed);
  std::vector<std::uint64_t> a(static_cast<std::size_t>(f.k)), b(a.size());
  long failures = 0;
  for (long i = 0; i < count; ++i) {
    for (int k = 0; k < f.k; ++k) {
      a[static_cast<std::size_t>(k)] = in.draw(f.a);
      b[static_cast<std::size_t>(k)] = in.draw(f.b);
    }
    DotRequest r{f.a, f.b, f.c, f.d, a.data(), b.data(), f.k, in.draw(f.c), f.rounding, f.satfinite, f.bitop};
    const std::uint64_t fast = dot(m, r), exact = testing::exact_dot(m, r);
    if (fast != exact && ++failures <= 5) {
      DotTrace trace;
      dot(m, r, &trace);
      std::string steps;
      for (const auto& l : explanation_lines(explanation_json(m, trace))) steps += "\n  " + l;
      ADD_FAILURE() << m.name << " dot " << i << ": engine " << std::hex << fast << ", exact " << exact << steps;
    }
  }
  EXPECT_EQ(failures, 0) << "of " << count << " random dot products";
}

void check_family(const Family& f, long count, std::uint64_t seed) {
  check_model(models_for(f.arch).select(f.model_family, f.a, f.d), f, count, seed);
}

// A model family's count is shared among its type combinations and modes.
TEST(EngineVsExact, Hmma) {
  const long n = dots_per_family() / 4;
  check_family({"hmma", Type::f16, Type::f16, Type::f32, Type::f32, 16}, n, 1);
  check_family({"hmma", Type::f16, Type::f16, Type::f16, Type::f16, 16}, n, 2);
  check_family({"hmma", Type::bf16, Type::bf16, Type::f32, Type::f32, 16}, n, 3);
  check_family({"hmma", Type::tf32, Type::tf32, Type::f32, Type::f32, 8}, n, 4);
}
TEST(EngineVsExact, Fp8ViaHmma) {
  const long n = dots_per_family() / 2;
  check_family({"fp8_via_hmma", Type::e4m3, Type::e5m2, Type::f32, Type::f32, 32}, n, 5);
  check_family({"fp8_via_hmma", Type::e5m2, Type::e4m3, Type::f16, Type::f16, 16}, n, 6);
}
TEST(EngineVsExact, HmmaM8n8k4) {
  const long n = dots_per_family() / 2;
  check_family({"hmma_m8n8k4", Type::f16, Type::f16, Type::f16, Type::f32, 4}, n, 7);
  check_family({"hmma_m8n8k4", Type::f16, Type::f16, Type::f16, Type::f16, 4}, n, 8);
}
TEST(EngineVsExact, Dmma) {
  const long n = dots_per_family() / 4;
  for (Rounding r : {Rounding::rn, Rounding::rz, Rounding::rm, Rounding::rp})
    check_family({"dmma", Type::f64, Type::f64, Type::f64, Type::f64, 4, r}, n, 10 + static_cast<int>(r));
}
TEST(EngineVsExact, Integer) {
  check_family({"imma", Type::s8, Type::u8, Type::s32, Type::s32, 32, Rounding::rn, true}, dots_per_family() / 4, 20);
  check_family({"imma", Type::u4, Type::s4, Type::s32, Type::s32, 64}, dots_per_family() / 4, 21);
}
// The models of the other architectures: chained blocks of 4 / 8 / 16 (blocks, run), F = 23, 24,
// 13 and 35, exponent floors or none, and block sums narrowed to 13 fraction bits (e8m13).
TEST(EngineVsExact, OtherArchitectures) {
  const long n = dots_per_family() / 40;
  const Rounding rn = Rounding::rn;
  const BitOp none = BitOp::none;
  check_family({"hmma", Type::f16, Type::f16, Type::f32, Type::f32, 16, rn, false, none, "sm_70"}, n, 30);
  check_family({"hmma_m8n8k4", Type::f16, Type::f16, Type::f16, Type::f16, 4, rn, false, none, "sm_70"}, n, 31);
  check_family({"hmma", Type::f16, Type::f16, Type::f16, Type::f16, 16, rn, false, none, "sm_75"}, n, 32);
  check_family({"hmma", Type::bf16, Type::bf16, Type::f32, Type::f32, 16, rn, false, none, "sm_80"}, n, 33);
  check_family({"hmma", Type::tf32, Type::tf32, Type::f32, Type::f32, 8, rn, false, none, "sm_86"}, n, 34);
  check_family({"hmma", Type::f16, Type::f16, Type::f16, Type::f16, 16, rn, false, none, "sm_89"}, n, 35);
  check_family({"fp8_via_hmma", Type::e4m3, Type::e5m2, Type::f32, Type::f32, 32, rn, false, none, "sm_89"}, n, 36);
  check_family({"fp8_via_hmma", Type::e5m2, Type::e5m2, Type::f32, Type::f32, 16, rn, false, none, "sm_89"}, n, 37);
  check_family({"fp8_via_hmma", Type::e4m3, Type::e4m3, Type::f16, Type::f16, 32, rn, false, none, "sm_89"}, n, 38);
  check_family({"fp8_via_hmma", Type::e5m2, Type::e4m3, Type::f32, Type::f32, 32, rn, false, none, "sm_100a"}, n, 39);
  check_family({"hmma", Type::f16, Type::f16, Type::f32, Type::f32, 16, rn, false, none, "sm_100a"}, n, 40);
  check_family({"f8f6f4", Type::e4m3, Type::e4m3, Type::f16, Type::f16, 32, rn, false, none, "sm_120a"}, n, 41);
  check_family({"mxf4", Type::e2m1, Type::e2m1, Type::f32, Type::f32, 64, rn, false, none, "sm_120a"}, n, 42);
}

// Narrowed block sums in every rounding direction (the YAML files use only rz), with and
// without an exponent floor.
TEST(EngineVsExact, NarrowedBlockSums) {
  const long n = dots_per_family() / 100;
  const Family f32{"fp8_via_hmma", Type::e4m3, Type::e5m2, Type::f32, Type::f32, 32};
  const Family f16{"fp8_via_hmma", Type::e5m2, Type::e4m3, Type::f16, Type::f16, 32};
  Model m = models_for("sm_89").select("fp8_via_hmma", Type::e4m3, Type::f32);
  for (Rounding r : {Rounding::rn, Rounding::rna, Rounding::rz, Rounding::rm, Rounding::rp}) {
    m.block.f32 = {r, std::nullopt, 9};
    m.block.f16 = {r, -20, 4};
    check_model(m, f32, n, 50 + static_cast<int>(r));
    check_model(m, f16, n, 60 + static_cast<int>(r));
  }
}

TEST(EngineVsExact, Popc) {
  check_family({"bmma", Type::b1, Type::b1, Type::s32, Type::s32, 256, Rounding::rn, false, BitOp::xor_popc},
               dots_per_family() / 10, 22);
}

}  // namespace
}  // namespace ptxmma
