// Oracle agreement for cvt into the narrow formats (docs/numerics.md §1.3, §1.6).
//
// Three implementations are compared:
//   fast      convert() (rounding.cpp: bit manipulation on the significand), the code under test;
//   rational  round_exact() (exact.cpp: Boost rationals), the reference oracle; slow (~3 us a call);
//   grid      GridOracle below: the destination's finite values listed from decode() (checked
//             exhaustively in exhaustive_test.cpp) as doubles, the neighbours lo <= |x| < hi found
//             by binary search, and the mode applied by exact double comparisons (every source
//             value and every midpoint between two grid values is a double). Independent of both.
//
// What is checked, per destination format (f16 bf16 tf32 e4m3 e5m2 e3m2 e2m3 e2m1 ue8m0 ue4m3) and
// per flag combination (rn rna rz rm rp) x (satfinite or not) x (relu or not):
//   FastVsGridOracle.EveryF16AndBF16Encoding       all 2 x 65536 encodings: fast == grid
//   FastVsGridOracle.F32RandomAndBoundary          >= 1,000,000 f32 inputs (100,000,000 with
//                                                  PTXMMA_LONG=1): fast == grid
//   FastVsRationalOracle.BoundaryAndSampled        f32 boundary values, every grid value and midpoint
//                                                  of the small formats (each +-2 f32 ulps, both
//                                                  signs), sampled f16/bf16 encodings (every one with
//                                                  PTXMMA_LONG=1) and random f32: fast == rational == grid
// NaN and Inf inputs go through the documented rules (GridOracle::special), which restate §1.3.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "sim/numeric/exact.hpp"
#include "sim/numeric/fields.hpp"
#include "sim/numeric/rounding.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma {
namespace {

constexpr Type kTargets[] = {Type::f16,  Type::bf16, Type::tf32, Type::e4m3,  Type::e5m2,
                             Type::e3m2, Type::e2m3, Type::e2m1, Type::ue8m0, Type::ue4m3};
constexpr Rounding kModes[] = {Rounding::rn, Rounding::rna, Rounding::rz, Rounding::rm, Rounding::rp};

bool long_run() {
  const char* v = std::getenv("PTXMMA_LONG");
  return v != nullptr && std::string(v) == "1";
}

std::vector<ConvertFlags> all_flags() {
  std::vector<ConvertFlags> out;
  for (const Rounding m : kModes)
    for (const bool sat : {false, true})
      for (const bool relu : {false, true}) out.push_back(ConvertFlags{m, sat, relu});
  return out;
}

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string flag_text(ConvertFlags f) {
  return fmt::format(".{}{}{}", name(f.mode), f.satfinite ? ".satfinite" : "", f.relu ? ".relu" : "");
}

// A source encoding and its value, decoded without the code under test.
struct Source {
  Type type;
  std::uint64_t code;
  bool nan = false, inf = false, sign = false;
  double value = 0;  // finite only
};

Source from_f32(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  Source s{Type::f32, bits};
  s.nan = std::isnan(f);
  s.inf = std::isinf(f);
  s.sign = std::signbit(f);
  s.value = static_cast<double>(f);
  return s;
}

Source from_bf16(std::uint32_t code) {
  Source s = from_f32(code << 16);
  s.type = Type::bf16;
  s.code = code;
  return s;
}

Source from_f16(std::uint32_t code) {
  Source s{Type::f16, code};
  const std::uint32_t e = (code >> 10) & 31, m = code & 1023;
  s.sign = (code >> 15) & 1;
  s.nan = e == 31 && m != 0;
  s.inf = e == 31 && m == 0;
  const double mag = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, static_cast<int>(e) - 25);
  s.value = s.sign ? -mag : mag;
  return s;
}

std::uint32_t f32_bits(float f) { return std::bit_cast<std::uint32_t>(f); }

// Where |x| falls on a destination grid.
struct Located {
  bool beyond = false;  // |x| >= the first grid step above the largest finite value
  std::size_t idx = 0;  // vals[idx] <= |x| < vals[idx + 1] (or < beyond)
  bool exact = false;
  int vs_mid = 0;  // sign of |x| - midpoint(lo, hi)
};

class GridOracle {
 public:
  explicit GridOracle(Type t) : ti_(info(t)) {
    if (!ti_.has_subnormals) {  // ue8m0: no zero; values below 2^-127 end at code 0x00 (round_exact's rule)
      vals_.push_back(0.0);
      codes_.push_back(0);
    }
    const std::uint64_t n = ti_.is_signed ? ti_.sign_bit() : ti_.mask() + 1;
    for (std::uint64_t c = 0; c < n; ++c) {
      const Fields f = decode(t, c);
      if (f.cls == FpClass::nan || f.cls == FpClass::infinity) continue;
      vals_.push_back(std::ldexp(static_cast<double>(f.significand), f.exponent - ti_.man_bits));
      codes_.push_back(c);
    }
    for (std::size_t i = 1; i < vals_.size(); ++i)
      if (!(vals_[i - 1] < vals_[i])) throw std::logic_error("grid not increasing");
    const double maxv = vals_.back();
    beyond_ = maxv + std::ldexp(1.0, std::ilogb(maxv) - ti_.man_bits);
    for (const double v : vals_) {
      if (v == 0) {
        even_.push_back(true);
        continue;
      }
      const int eb = std::max(std::ilogb(v), ti_.emin());
      const double sig = std::ldexp(v, ti_.man_bits - eb);  // an integer
      even_.push_back(std::fmod(sig, 2.0) == 0);
    }
  }

  const std::vector<double>& values() const { return vals_; }
  double beyond() const { return beyond_; }
  const TypeInfo& info_() const { return ti_; }

  Located locate(double mag) const {
    Located l;
    if (mag >= beyond_) {
      l.beyond = true;
      return l;
    }
    l.idx = static_cast<std::size_t>(std::upper_bound(vals_.begin(), vals_.end(), mag) - vals_.begin()) - 1;
    const double lo = vals_[l.idx];
    const double hi = l.idx + 1 < vals_.size() ? vals_[l.idx + 1] : beyond_;
    l.exact = mag == lo;
    const double mid = (lo + hi) / 2;  // exact: lo and hi have few significant bits
    l.vs_mid = mag < mid ? -1 : (mag > mid ? 1 : 0);
    return l;
  }

  std::uint64_t round(const Source& x, const Located& l, ConvertFlags f) const {
    if (x.nan || x.inf) return special(x, f);
    if (f.relu && x.sign) return 0;  // negative results (-0 included) become +0
    const bool negative = x.sign && ti_.is_signed;  // unsigned formats take |x|
    const std::uint64_t sign_bit = negative ? ti_.sign_bit() : 0;
    if (x.value == 0) return sign_bit;  // ue8m0: 0x00
    const bool away = f.mode == Rounding::rn || f.mode == Rounding::rna ||
                      (f.mode == Rounding::rp && !negative) || (f.mode == Rounding::rm && negative);
    std::size_t r = l.idx;
    bool over = l.beyond;
    if (!l.beyond && !l.exact) {
      bool up = false;
      switch (f.mode) {
        case Rounding::rn: up = l.vs_mid > 0 || (l.vs_mid == 0 && !even_[l.idx]); break;
        case Rounding::rna: up = l.vs_mid >= 0; break;
        case Rounding::rz: up = false; break;
        case Rounding::rm: up = negative; break;
        case Rounding::rp: up = !negative; break;
      }
      if (up) ++r;
      over = r == vals_.size();
    }
    if (over) {
      if (f.satfinite || !(away || f.overflow_to_inf)) return ti_.max_finite() | sign_bit;
      if (ti_.has_inf) return ti_.inf_bits(negative);
      if (ti_.nan != NanCode::none) return ti_.canonical_nan();
      return ti_.max_finite() | sign_bit;  // FP6/FP4
    }
    return codes_[r] | sign_bit;
  }

  // convert's documented NaN rule: NaNs of f16/bf16/tf32/f32/f64 keep sign and payload into an IEEE
  // format with at least as many fraction bits, unless .relu.
  bool keeps_payload(const Source& x, ConvertFlags f) const {
    const TypeInfo& si = info(x.type);
    return x.nan && ti_.nan == NanCode::ieee && si.nan == NanCode::ieee && si.bits >= 16 &&
           ti_.man_bits >= si.man_bits && !f.relu;
  }

  // §1.3 for NaN and Inf inputs.
  std::uint64_t special(const Source& x, ConvertFlags f) const {
    if (x.nan) {
      const TypeInfo& si = info(x.type);
      if (keeps_payload(x, f)) {
        const std::uint64_t payload = (x.code & ((1ull << si.man_bits) - 1)) << (ti_.man_bits - si.man_bits);
        return ti_.inf_bits(x.sign) | (1ull << (ti_.man_bits - 1)) | payload;  // quietened, sign kept
      }
      if (ti_.nan == NanCode::none) return ti_.max_finite();  // FP6/FP4: NaN -> +MAX_NORM
      return ti_.canonical_nan();
    }
    if (f.relu && x.sign) return 0;
    const bool negative = x.sign && ti_.is_signed;
    const std::uint64_t sign_bit = negative ? ti_.sign_bit() : 0;
    if (ti_.has_inf && !f.satfinite) return ti_.inf_bits(negative);
    if (f.satfinite || ti_.nan == NanCode::none) return ti_.max_finite() | sign_bit;
    return ti_.canonical_nan();  // e4m3 0x7F, ue8m0 0xFF
  }

  std::uint64_t round(const Source& x, ConvertFlags f) const {
    return round(x, x.nan || x.inf ? Located{} : locate(std::fabs(x.value)), f);
  }

 private:
  const TypeInfo& ti_;
  std::vector<double> vals_;
  std::vector<std::uint64_t> codes_;
  std::vector<bool> even_;
  double beyond_ = 0;
};

const GridOracle& grid(Type t) {
  static const std::vector<GridOracle> grids = [] {
    std::vector<GridOracle> g;
    for (const Type t : kTargets) g.emplace_back(t);
    return g;
  }();
  for (std::size_t i = 0; i < std::size(kTargets); ++i)
    if (kTargets[i] == t) return grids[i];
  throw std::logic_error("no grid");
}

// Mismatch collection, usable from several threads.
class Mismatches {
 public:
  void add(const std::string& what) {
    std::lock_guard<std::mutex> lock(mu_);
    if (++count_ <= 20) first_ += what + "\n";
  }
  long count() const { return count_.load(); }
  const std::string& first() const { return first_; }

 private:
  std::mutex mu_;
  std::atomic<long> count_{0};
  std::string first_;
};

std::string describe(const Source& x, Type dst, ConvertFlags f) {
  return std::string(name(x.type)) + " " + hex(x.code) + " (" + std::to_string(x.value) + ") -> " +
         std::string(name(dst)) + flag_text(f);
}

// ---------------------------------------------------------------------------------------------
// f32 inputs: named boundaries of every format, all grid values and midpoints of the small
// formats (a sample for f16/bf16/tf32), each perturbed by up to 2 f32 ulps, both signs; specials.

std::vector<double> anchors(Type t, bool every_grid_value) {
  const GridOracle& g = grid(t);
  const auto& v = g.values();
  const TypeInfo& ti = info(t);
  const std::size_t first = ti.has_subnormals ? 1 : 0;  // smallest non-zero grid value
  const double maxv = v.back(), beyond = g.beyond(), minsub = v[first];
  const double minnorm = std::ldexp(1.0, ti.emin());
  std::vector<double> a = {maxv,
                           beyond,
                           (maxv + beyond) / 2,
                           (v[v.size() - 2] + maxv) / 2,
                           minsub,
                           minsub / 2,
                           minsub / 4,
                           minsub * 1.5,
                           minsub * 2,
                           minnorm,
                           minnorm - minsub / 2,
                           minnorm + std::ldexp(1.0, ti.emin() - ti.man_bits - 1),
                           1.0,
                           1.0 + std::ldexp(1.0, -ti.man_bits - 1),
                           1.5,
                           3.0};
  if (every_grid_value) {
    const bool all = v.size() <= 1024;
    for (std::size_t i = 0; i + 1 < v.size(); ++i) {
      if (!all && i % 97 != 0 && i > 64 && i + 64 < v.size()) continue;
      a.push_back(v[i]);
      a.push_back((v[i] + v[i + 1]) / 2);
    }
  }
  return a;
}

void add_perturbed(std::vector<std::uint32_t>& out, double anchor, int radius) {
  const auto f = static_cast<float>(anchor);
  if (!std::isfinite(f) || static_cast<double>(f) != anchor || anchor < 0) return;  // not an f32
  const std::uint32_t u = f32_bits(f);
  for (int d = -radius; d <= radius; ++d) {
    const std::int64_t w = static_cast<std::int64_t>(u) + d;
    if (w < 0 || w >= 0x7f800000) continue;
    out.push_back(static_cast<std::uint32_t>(w));
    out.push_back(static_cast<std::uint32_t>(w) | 0x80000000u);
  }
}

std::vector<std::uint32_t> special_f32() {
  return {0x00000000, 0x80000000, 0x7f800000, 0xff800000,  // zeros, infinities
          0x7fc00000, 0xffc00000, 0x7fffffff, 0xffffffff,  // quiet NaNs
          0x7f800001, 0xff800001, 0x7fbfffff, 0x7f802000,  // signalling NaNs
          0x00000001, 0x80000001, 0x007fffff, 0x00800000,  // f32 subnormals, min normal
          0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000};
}

// Boundary set for one destination: named points of every format, every grid value and midpoint of
// the destination itself.
std::vector<std::uint32_t> boundary_f32(Type dst, bool small) {
  std::vector<std::uint32_t> out = special_f32();
  for (const Type t : kTargets)
    for (const double a : anchors(t, false)) add_perturbed(out, a, 2);
  if (!small || grid(dst).values().size() <= 1024)
    for (const double a : anchors(dst, true)) add_perturbed(out, a, small ? 1 : 2);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Random f32 input number `i` for destination `dst` (deterministic).
class RandomF32 {
 public:
  RandomF32(Type dst, std::uint64_t chunk) : g_(grid(dst)), rng_(0x5eed0000ull + chunk * 1315423911ull +
                                                                  static_cast<std::uint64_t>(dst)) {
    const TypeInfo& ti = info(dst);
    lo_exp_ = std::max(-149, ti.emin() - ti.man_bits - 4);
    hi_exp_ = std::min(127, std::ilogb(g_.beyond()) + 2);
  }
  std::uint32_t next() {
    const std::uint64_t r = rng_();
    const unsigned kind = static_cast<unsigned>(r % 20);
    const std::uint32_t sign = (r >> 8) & 1 ? 0x80000000u : 0;
    if (kind < 5) return static_cast<std::uint32_t>(rng_());  // any bit pattern
    if (kind < 12) {                                           // the destination's range, any f32 there
      const int e = lo_exp_ + static_cast<int>((r >> 9) % static_cast<unsigned>(hi_exp_ - lo_exp_ + 1));
      const double m = 1.0 + std::ldexp(static_cast<double>((r >> 20) & 0x7fffff), -23);
      const auto f = static_cast<float>(std::ldexp(m, e));
      return f32_bits(f) | sign;
    }
    // Near a grid value or a midpoint, within 3 f32 ulps.
    const auto& v = g_.values();
    const std::size_t i = static_cast<std::size_t>((r >> 9) % v.size());
    const double hi = i + 1 < v.size() ? v[i + 1] : g_.beyond();
    const double a = (r >> 40) & 1 ? v[i] : (v[i] + hi) / 2;
    auto f = static_cast<float>(a);
    if (!std::isfinite(f)) f = std::numeric_limits<float>::max();
    std::int64_t w = static_cast<std::int64_t>(f32_bits(f)) + static_cast<int>((r >> 41) % 7) - 3;
    w = std::clamp<std::int64_t>(w, 0, 0x7f7fffff);
    return static_cast<std::uint32_t>(w) | sign;
  }

 private:
  const GridOracle& g_;
  std::mt19937_64 rng_;
  int lo_exp_ = 0, hi_exp_ = 0;
};

class Target : public ::testing::TestWithParam<Type> {};

std::string target_name(const ::testing::TestParamInfo<Type>& p) { return std::string(name(p.param)); }

// Fast path against the grid oracle for one input under all 20 flag combinations.
void check_fast_vs_grid(const Source& x, Type dst, const std::vector<ConvertFlags>& flags, Mismatches& bad) {
  const GridOracle& g = grid(dst);
  const Located l = x.nan || x.inf ? Located{} : g.locate(std::fabs(x.value));
  for (const ConvertFlags f : flags) {
    const std::uint64_t want = g.round(x, l, f);
    const std::uint64_t got = convert(x.type, x.code, dst, f);
    if (got != want) bad.add(describe(x, dst, f) + ": convert " + hex(got) + ", grid oracle " + hex(want));
  }
}

TEST_P(Target, FastVsGridOracleEveryF16AndBF16Encoding) {
  const Type dst = GetParam();
  const auto flags = all_flags();
  Mismatches bad;
  for (std::uint32_t c = 0; c < 0x10000; ++c) {
    check_fast_vs_grid(from_f16(c), dst, flags, bad);
    check_fast_vs_grid(from_bf16(c), dst, flags, bad);
  }
  EXPECT_EQ(bad.count(), 0) << bad.first();
}

TEST_P(Target, FastVsGridOracleF32RandomAndBoundary) {
  const Type dst = GetParam();
  const auto flags = all_flags();
  const std::vector<std::uint32_t> boundary = boundary_f32(dst, false);
  const std::uint64_t total = long_run() ? 100'000'000 : 1'000'000;
  ASSERT_LT(boundary.size(), total);
  const std::uint64_t random_count = total - boundary.size();
  Mismatches bad;
  for (const std::uint32_t b : boundary) check_fast_vs_grid(from_f32(b), dst, flags, bad);
  constexpr std::uint64_t kChunk = 1 << 16;
  const std::uint64_t chunks = (random_count + kChunk - 1) / kChunk;
  const unsigned threads = std::max(1u, std::min(std::thread::hardware_concurrency(), 16u));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (std::uint64_t ch = t; ch < chunks; ch += threads) {
        RandomF32 gen(dst, ch);
        const std::uint64_t n = std::min(kChunk, random_count - ch * kChunk);
        for (std::uint64_t i = 0; i < n && bad.count() < 1000; ++i) check_fast_vs_grid(from_f32(gen.next()), dst, flags, bad);
      }
    });
  }
  for (auto& th : pool) th.join();
  EXPECT_EQ(bad.count(), 0) << bad.first();
  RecordProperty("f32_inputs", static_cast<int>(total));
  RecordProperty("boundary_inputs", static_cast<int>(boundary.size()));
}

// The rational oracle on a subset; the grid oracle must agree with it too (so that the full runs
// above inherit its authority).
TEST_P(Target, FastVsRationalOracleBoundaryAndSampled) {
  const Type dst = GetParam();
  const auto flags = all_flags();
  const GridOracle& g = grid(dst);
  std::vector<Source> inputs;
  for (const std::uint32_t b : boundary_f32(dst, true)) inputs.push_back(from_f32(b));
  RandomF32 gen(dst, 999'999);
  for (int i = 0; i < 500; ++i) inputs.push_back(from_f32(gen.next()));
  const std::uint32_t stride = long_run() ? 1 : 37;
  for (std::uint32_t c = 0; c < 0x10000; c += stride) {
    inputs.push_back(from_f16(c));
    inputs.push_back(from_bf16(c));
  }
  Mismatches bad;
  long calls = 0;
  for (const Source& x : inputs) {
    ExactValue ev;
    ev.cls = x.nan ? FpClass::nan : x.inf ? FpClass::infinity : x.value == 0 ? FpClass::zero : FpClass::normal;
    ev.negative = x.sign;
    if (!x.nan && !x.inf) {
      int e = 0;
      const double frac = std::frexp(x.value, &e);
      const auto n = static_cast<std::int64_t>(std::ldexp(frac, 53));
      ev.value = Rational(n) * pow2(e - 53);
    }
    const Located l = x.nan || x.inf ? Located{} : g.locate(std::fabs(x.value));
    for (const ConvertFlags f : flags) {
      const std::uint64_t fast = convert(x.type, x.code, dst, f);
      const std::uint64_t grid_code = g.round(x, l, f);
      // NaNs that keep their payload are beyond the oracle (it sees values, not encodings).
      const std::uint64_t exact = g.keeps_payload(x, f) ? grid_code : round_exact(dst, ev, f);
      ++calls;
      if (fast != exact || grid_code != exact)
        bad.add(describe(x, dst, f) + ": convert " + hex(fast) + ", round_exact " + hex(exact) + ", grid " +
                hex(grid_code));
    }
  }
  EXPECT_EQ(bad.count(), 0) << bad.first();
  RecordProperty("inputs", static_cast<int>(inputs.size()));
  RecordProperty("rational_calls", static_cast<int>(calls));
}

INSTANTIATE_TEST_SUITE_P(Cvt, Target, ::testing::ValuesIn(kTargets), target_name);

// ---------------------------------------------------------------------------------------------
// Integer destinations: saturating, NaN -> 0 (PTX cvt .rni/.rzi/.rmi/.rpi; rna too).

std::uint64_t int_reference(const Source& x, Type dst, Rounding mode) {
  const TypeInfo& ti = info(dst);
  const double hi = ti.is_signed ? std::ldexp(1.0, ti.bits - 1) - 1 : std::ldexp(1.0, ti.bits) - 1;
  const double lo = ti.is_signed ? -std::ldexp(1.0, ti.bits - 1) : 0;
  double r;
  if (x.nan) {
    r = 0;
  } else if (x.inf) {
    r = x.sign ? lo : hi;
  } else {
    const double mag = std::fabs(x.value), n = std::floor(mag), frac = mag - n;  // exact
    const bool odd = std::fmod(n, 2.0) != 0, neg = x.value < 0;
    bool up = false;
    switch (mode) {
      case Rounding::rn: up = frac > 0.5 || (frac == 0.5 && odd); break;
      case Rounding::rna: up = frac >= 0.5; break;
      case Rounding::rz: up = false; break;
      case Rounding::rm: up = neg && frac > 0; break;
      case Rounding::rp: up = !neg && frac > 0; break;
    }
    r = (neg ? -1 : 1) * (n + (up ? 1 : 0));
    r = std::clamp(r, lo, hi);
  }
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(r)) & ti.mask();
}

TEST(CvtToInteger, FastVsDoubleReferenceAndRationalOracle) {
  const Type dsts[] = {Type::s32, Type::s8, Type::u8, Type::s4, Type::u4};
  std::vector<Source> inputs;
  for (std::uint32_t c = 0; c < 0x10000; ++c) {
    inputs.push_back(from_f16(c));
    inputs.push_back(from_bf16(c));
  }
  for (const std::uint32_t b : special_f32()) inputs.push_back(from_f32(b));
  for (const double a : {0.5, 1.5, 2.5, 127.5, 128.5, 255.5, 7.5, 8.5, 15.5, 2147483520.0, 2147483648.0, 4294967296.0})
    for (const double d : {a, std::nextafter(a, 0.0), std::nextafter(a, 1e300)}) {
      inputs.push_back(from_f32(f32_bits(static_cast<float>(d))));
      inputs.push_back(from_f32(f32_bits(static_cast<float>(-d))));
    }
  Mismatches bad;
  std::size_t i = 0;
  for (const Source& x : inputs) {
    const bool oracle = i++ % 41 == 0 || x.type == Type::f32;
    for (const Type dst : dsts) {
      for (const Rounding m : kModes) {
        const ConvertFlags f{m};
        const std::uint64_t want = int_reference(x, dst, m);
        const std::uint64_t got = convert(x.type, x.code, dst, f);
        if (got != want) bad.add(describe(x, dst, f) + ": convert " + hex(got) + ", reference " + hex(want));
        if (oracle) {
          ExactValue ev = exact_value(x.type, x.code);
          const std::uint64_t exact = round_exact(dst, ev, f);
          if (exact != want) bad.add(describe(x, dst, f) + ": round_exact " + hex(exact) + ", reference " + hex(want));
        }
      }
    }
  }
  EXPECT_EQ(bad.count(), 0) << bad.first();
}

// ---------------------------------------------------------------------------------------------
// Other sources: f64 (against the host's own double -> float cast for .rn, and the rational oracle
// on a sample into every narrow format) and the integer types (rational oracle).

TEST(CvtFromF64, ToF32RnMatchesHostCastAndRationalOracle) {
  std::mt19937_64 rng(77);
  Mismatches bad;
  const auto flags = all_flags();
  for (int i = 0; i < 400000; ++i) {
    std::uint64_t b = rng();
    if (i % 2) {  // exponents near the f32 range, subnormals included
      const std::uint64_t e = 1023 - 160 + (rng() % 300);
      b = (b & 0x800fffffffffffffull) | (e << 52);
    }
    const double d = std::bit_cast<double>(b);
    const std::uint64_t got = convert(Type::f64, b, Type::f32, ConvertFlags{});
    std::uint64_t want = f32_bits(static_cast<float>(d));
    if (std::isnan(d)) want = 0x7fffffff;  // canonical (the host keeps the payload)
    if (got != want) bad.add("f64 " + hex(b) + " -> f32.rn: convert " + hex(got) + ", host " + hex(want));
    if (i % 250 == 0 && !std::isnan(d)) {
      const ExactValue ev = exact_value(Type::f64, b);
      for (const ConvertFlags f : flags)
        for (const Type dst : {Type::f32, Type::f16, Type::bf16, Type::tf32, Type::e4m3, Type::e2m1, Type::ue8m0}) {
          const std::uint64_t fast = convert(Type::f64, b, dst, f), exact = round_exact(dst, ev, f);
          if (fast != exact)
            bad.add("f64 " + hex(b) + " -> " + std::string(name(dst)) + flag_text(f) + ": convert " + hex(fast) +
                    ", round_exact " + hex(exact));
        }
    }
  }
  EXPECT_EQ(bad.count(), 0) << bad.first();
}

TEST(CvtFromInteger, FastVsRationalOracle) {
  std::vector<std::pair<Type, std::uint64_t>> inputs;
  for (const Type t : {Type::s8, Type::u8, Type::s4, Type::u4})
    for (std::uint64_t c = 0; c <= info(t).mask(); ++c) inputs.emplace_back(t, c);
  std::mt19937_64 rng(78);
  for (int i = 0; i < 300; ++i) inputs.emplace_back(Type::s32, rng() & 0xffffffffu);
  for (const std::uint64_t c : {0x7fffffffull, 0x80000000ull, 0x80000001ull, 0xffffffffull, 0x0000fff0ull, 0x00010000ull})
    inputs.emplace_back(Type::s32, c);
  const Type dsts[] = {Type::f32, Type::f16, Type::bf16, Type::tf32, Type::e4m3, Type::e5m2, Type::e2m1, Type::ue8m0,
                       Type::s8, Type::u4};
  Mismatches bad;
  for (const auto& [src, c] : inputs) {
    const ExactValue ev = exact_value(src, c);
    for (const ConvertFlags f : all_flags())
      for (const Type dst : dsts) {
        const std::uint64_t fast = convert(src, c, dst, f), exact = round_exact(dst, ev, f);
        if (fast != exact)
          bad.add(std::string(name(src)) + " " + hex(c) + " -> " + std::string(name(dst)) + flag_text(f) +
                  ": convert " + hex(fast) + ", round_exact " + hex(exact));
      }
  }
  EXPECT_EQ(bad.count(), 0) << bad.first();
}

}  // namespace
}  // namespace ptxmma
