// Cross-check of convert() against NVIDIA's own software reference: the host-side code of the CUDA
// toolkit headers cuda_fp16.h, cuda_bf16.h, cuda_fp8.h, cuda_fp6.h and cuda_fp4.h (compiled here by
// the host C++ compiler, so every intrinsic below runs its C++ emulation of the PTX cvt).
// Built only where the headers are found (tests/CMakeLists.txt); not part of ptxmma_tests.
//
// Known, documented differences (checked as such, not hidden):
//   * FP8 without satfinite (__NV_NOSAT, no PTX equivalent): e4m3 overflow is 0x7F|sign in CUDA,
//     the canonical 0x7F in ptxmma (both NaN).
//   * f16 -> f32 (__half2float) canonicalises NaN to 0x7FFFFFFF; bf16 -> f32 (__bfloat162float)
//     keeps the bits as they are (signalling NaNs stay signalling). convert() keeps sign and payload
//     and quietens (numerics-formats.md: unverified choice).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "sim/numeric/fields.hpp"
#include "sim/numeric/packing.hpp"
#include "sim/numeric/rounding.hpp"

namespace ptxmma {
namespace {

std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }
float from_bits(std::uint32_t u) { return std::bit_cast<float>(u); }

std::uint16_t raw(__half h) { return __half_raw(h).x; }
std::uint16_t raw(__nv_bfloat16 b) { return __nv_bfloat16_raw(b).x; }
__half_raw half_raw(std::uint16_t x) {
  __half_raw r;
  r.x = x;
  return r;
}
__nv_bfloat16_raw bf16_raw(std::uint16_t x) {
  __nv_bfloat16_raw r;
  r.x = x;
  return r;
}

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// f32 inputs: every f16 and bf16 value, every grid value and midpoint of the narrow formats within
// 3 f32 ulps, specials, and 2,000,000 random values (any bit pattern; exponents in [-30, 20]).
const std::vector<std::uint32_t>& f32_inputs() {
  static const std::vector<std::uint32_t> inputs = [] {
    std::vector<std::uint32_t> v;
    for (std::uint32_t c = 0; c < 0x10000; ++c) {
      v.push_back(bits(__half2float(__ushort_as_half(static_cast<unsigned short>(c)))));
      v.push_back(c << 16);
    }
    for (const Type t : {Type::e4m3, Type::e5m2, Type::e3m2, Type::e2m3, Type::e2m1, Type::ue8m0}) {
      const TypeInfo& ti = info(t);
      double prev = -1;
      for (std::uint64_t c = 0; c <= ti.mask(); ++c) {
        const Fields f = decode(t, c);
        if (f.cls == FpClass::nan || f.cls == FpClass::infinity || f.sign) continue;
        const double x = std::ldexp(static_cast<double>(f.significand), f.exponent - ti.man_bits);
        for (const double a : {x, prev >= 0 ? (prev + x) / 2 : x, x * 1.125, x * 1.0625 + 0.5 * x}) {
          const auto fa = static_cast<float>(a);
          if (!std::isfinite(fa)) continue;
          for (int d = -3; d <= 3; ++d) {
            const std::int64_t w = static_cast<std::int64_t>(bits(fa)) + d;
            if (w < 0 || w >= 0x7f800000) continue;
            v.push_back(static_cast<std::uint32_t>(w));
            v.push_back(static_cast<std::uint32_t>(w) | 0x80000000u);
          }
        }
        prev = x;
      }
    }
    for (const std::uint32_t s : {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u,
                                  0x7f800001u, 0xff800001u, 0x7fffffffu, 0x00000001u, 0x007fffffu, 0x00800000u,
                                  0x7f7fffffu, 0xff7fffffu, 0x00400000u, 0x00400001u, 0x7effffffu, 0x7f000000u})
      v.push_back(s);
    std::mt19937_64 rng(20240917);
    for (int i = 0; i < 1000000; ++i) v.push_back(static_cast<std::uint32_t>(rng()));
    for (int i = 0; i < 1000000; ++i) {
      const std::uint64_t r = rng();
      const int e = static_cast<int>(r % 51) - 30;
      const auto f = static_cast<float>(std::ldexp(1.0 + std::ldexp(static_cast<double>((r >> 8) & 0x7fffff), -23), e));
      v.push_back(bits(f) | ((r >> 40) & 1 ? 0x80000000u : 0));
    }
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  }();
  return inputs;
}

// Compares convert(src, code, dst, flags) with an NVIDIA function over a set of source codes.
// `same` decides equality (default: identical bits).
template <typename Codes, typename Nv>
void compare(const char* what, Type src, const Codes& codes, Type dst, ConvertFlags flags, Nv nvidia,
             std::function<bool(std::uint64_t, std::uint64_t)> same = {}) {
  long bad = 0, n = 0;
  std::string first;
  for (const auto code : codes) {
    ++n;
    const std::uint64_t ours = convert(src, code, dst, flags);
    const std::uint64_t theirs = nvidia(code);
    if (same ? same(ours, theirs) : ours == theirs) continue;
    if (++bad <= 10)
      first += std::string(name(src)) + " " + hex(code) + ": ptxmma " + hex(ours) + ", NVIDIA " + hex(theirs) + "\n";
  }
  EXPECT_EQ(bad, 0) << what << ": " << bad << " of " << n << " differ\n" << first;
}

std::vector<std::uint32_t> all_codes(int bits) {
  std::vector<std::uint32_t> v(std::size_t{1} << bits);
  for (std::uint32_t i = 0; i < v.size(); ++i) v[i] = i;
  return v;
}

constexpr ConvertFlags kRn{Rounding::rn}, kRz{Rounding::rz}, kRm{Rounding::rm}, kRp{Rounding::rp};
constexpr ConvertFlags kRnSat{Rounding::rn, true}, kRzSat{Rounding::rz, true}, kRpSat{Rounding::rp, true};

TEST(NvidiaHostCvt, F32ToF16EveryMode) {
  const auto& in = f32_inputs();
  RecordProperty("f32_inputs", static_cast<int>(in.size()));
  std::printf("%zu distinct f32 inputs\n", in.size());
  compare("__float2half_rn", Type::f32, in, Type::f16, kRn, [](std::uint32_t x) { return raw(__float2half_rn(from_bits(x))); });
  compare("__float2half_rz", Type::f32, in, Type::f16, kRz, [](std::uint32_t x) { return raw(__float2half_rz(from_bits(x))); });
  compare("__float2half_rd", Type::f32, in, Type::f16, kRm, [](std::uint32_t x) { return raw(__float2half_rd(from_bits(x))); });
  compare("__float2half_ru", Type::f32, in, Type::f16, kRp, [](std::uint32_t x) { return raw(__float2half_ru(from_bits(x))); });
}

TEST(NvidiaHostCvt, F32ToBF16EveryMode) {
  const auto& in = f32_inputs();
  compare("__float2bfloat16_rn", Type::f32, in, Type::bf16, kRn,
          [](std::uint32_t x) { return raw(__float2bfloat16_rn(from_bits(x))); });
  compare("__float2bfloat16_rz", Type::f32, in, Type::bf16, kRz,
          [](std::uint32_t x) { return raw(__float2bfloat16_rz(from_bits(x))); });
  compare("__float2bfloat16_rd", Type::f32, in, Type::bf16, kRm,
          [](std::uint32_t x) { return raw(__float2bfloat16_rd(from_bits(x))); });
  compare("__float2bfloat16_ru", Type::f32, in, Type::bf16, kRp,
          [](std::uint32_t x) { return raw(__float2bfloat16_ru(from_bits(x))); });
}

TEST(NvidiaHostCvt, ToFP8Satfinite) {
  const auto& in = f32_inputs();
  const auto f16 = all_codes(16);
  for (const auto& [t, nv] : {std::pair{Type::e4m3, __NV_E4M3}, std::pair{Type::e5m2, __NV_E5M2}}) {
    const std::string tn(name(t));
    compare(("__nv_cvt_float_to_fp8 " + tn).c_str(), Type::f32, in, t, kRnSat,
            [nv](std::uint32_t x) { return __nv_cvt_float_to_fp8(from_bits(x), __NV_SATFINITE, nv); });
    compare(("__nv_cvt_halfraw_to_fp8 " + tn).c_str(), Type::f16, f16, t, kRnSat, [nv](std::uint32_t x) {
      return __nv_cvt_halfraw_to_fp8(half_raw(static_cast<std::uint16_t>(x)), __NV_SATFINITE, nv);
    });
    compare(("__nv_cvt_bfloat16raw_to_fp8 " + tn).c_str(), Type::bf16, f16, t, kRnSat, [nv](std::uint32_t x) {
      return __nv_cvt_bfloat16raw_to_fp8(bf16_raw(static_cast<std::uint16_t>(x)), __NV_SATFINITE, nv);
    });
  }
}

TEST(NvidiaHostCvt, ToFP8WithoutSatfiniteUpToTheSignOfE4M3NaN) {
  const auto& in = f32_inputs();
  const auto nan_e4m3 = [](std::uint64_t a, std::uint64_t b) { return a == b || ((a & 0x7f) == 0x7f && (b & 0x7f) == 0x7f); };
  compare("__nv_cvt_float_to_fp8 e4m3 NOSAT", Type::f32, in, Type::e4m3, kRn,
          [](std::uint32_t x) { return __nv_cvt_float_to_fp8(from_bits(x), __NV_NOSAT, __NV_E4M3); }, nan_e4m3);
  compare("__nv_cvt_float_to_fp8 e5m2 NOSAT", Type::f32, in, Type::e5m2, kRn,
          [](std::uint32_t x) { return __nv_cvt_float_to_fp8(from_bits(x), __NV_NOSAT, __NV_E5M2); });
}

TEST(NvidiaHostCvt, ToFP6AndFP4RnAndRz) {
  const auto& in = f32_inputs();
  const auto f16 = all_codes(16);
  for (const auto& [mode, cuda_mode] : {std::pair{kRnSat, cudaRoundNearest}, std::pair{kRzSat, cudaRoundZero}}) {
    const std::string m(name(mode.mode));
    for (const auto& [t, nv] : {std::pair{Type::e2m3, __NV_E2M3}, std::pair{Type::e3m2, __NV_E3M2}}) {
      const std::string tn = std::string(name(t)) + " " + m;
      compare(("__nv_cvt_float_to_fp6 " + tn).c_str(), Type::f32, in, t, mode,
              [nv, cuda_mode](std::uint32_t x) { return __nv_cvt_float_to_fp6(from_bits(x), nv, cuda_mode); });
      compare(("__nv_cvt_halfraw_to_fp6 " + tn).c_str(), Type::f16, f16, t, mode, [nv, cuda_mode](std::uint32_t x) {
        return __nv_cvt_halfraw_to_fp6(half_raw(static_cast<std::uint16_t>(x)), nv, cuda_mode);
      });
      compare(("__nv_cvt_bfloat16raw_to_fp6 " + tn).c_str(), Type::bf16, f16, t, mode, [nv, cuda_mode](std::uint32_t x) {
        return __nv_cvt_bfloat16raw_to_fp6(bf16_raw(static_cast<std::uint16_t>(x)), nv, cuda_mode);
      });
    }
    compare(("__nv_cvt_float_to_fp4 e2m1 " + m).c_str(), Type::f32, in, Type::e2m1, mode,
            [cuda_mode](std::uint32_t x) { return __nv_cvt_float_to_fp4(from_bits(x), __NV_E2M1, cuda_mode); });
    compare(("__nv_cvt_halfraw_to_fp4 e2m1 " + m).c_str(), Type::f16, f16, Type::e2m1, mode, [cuda_mode](std::uint32_t x) {
      return __nv_cvt_halfraw_to_fp4(half_raw(static_cast<std::uint16_t>(x)), __NV_E2M1, cuda_mode);
    });
    compare(("__nv_cvt_bfloat16raw_to_fp4 e2m1 " + m).c_str(), Type::bf16, f16, Type::e2m1, mode,
            [cuda_mode](std::uint32_t x) {
              return __nv_cvt_bfloat16raw_to_fp4(bf16_raw(static_cast<std::uint16_t>(x)), __NV_E2M1, cuda_mode);
            });
  }
}

TEST(NvidiaHostCvt, ToUE8M0RzAndRp) {
  const auto& in = f32_inputs();
  const auto bf16 = all_codes(16);
  for (const auto& [mode, cuda_mode] : {std::pair{Rounding::rz, cudaRoundZero}, std::pair{Rounding::rp, cudaRoundPosInf}}) {
    for (const auto& [sat, nv_sat] : {std::pair{false, __NV_NOSAT}, std::pair{true, __NV_SATFINITE}}) {
      const ConvertFlags f{mode, sat};
      const std::string what = std::string(name(mode)) + (sat ? " satfinite" : "");
      compare(("__nv_cvt_float_to_e8m0 " + what).c_str(), Type::f32, in, Type::ue8m0, f,
              [cuda_mode, nv_sat](std::uint32_t x) { return __nv_cvt_float_to_e8m0(from_bits(x), nv_sat, cuda_mode); });
      compare(("__nv_cvt_bfloat16raw_to_e8m0 " + what).c_str(), Type::bf16, bf16, Type::ue8m0, f,
              [cuda_mode, nv_sat](std::uint32_t x) {
                return __nv_cvt_bfloat16raw_to_e8m0(bf16_raw(static_cast<std::uint16_t>(x)), nv_sat, cuda_mode);
              });
    }
  }
}

TEST(NvidiaHostCvt, UpConversions) {
  compare("__nv_cvt_fp8_to_halfraw e4m3", Type::e4m3, all_codes(8), Type::f16, kRn,
          [](std::uint32_t x) { return __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(x), __NV_E4M3).x; });
  compare("__nv_cvt_fp8_to_halfraw e5m2", Type::e5m2, all_codes(8), Type::f16, kRn,
          [](std::uint32_t x) { return __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(x), __NV_E5M2).x; });
  compare("__nv_cvt_fp6_to_halfraw e2m3", Type::e2m3, all_codes(6), Type::f16, kRn,
          [](std::uint32_t x) { return __nv_cvt_fp6_to_halfraw(static_cast<__nv_fp6_storage_t>(x), __NV_E2M3).x; });
  compare("__nv_cvt_fp6_to_halfraw e3m2", Type::e3m2, all_codes(6), Type::f16, kRn,
          [](std::uint32_t x) { return __nv_cvt_fp6_to_halfraw(static_cast<__nv_fp6_storage_t>(x), __NV_E3M2).x; });
  compare("__nv_cvt_fp4_to_halfraw e2m1", Type::e2m1, all_codes(4), Type::f16, kRn,
          [](std::uint32_t x) { return __nv_cvt_fp4_to_halfraw(static_cast<__nv_fp4_storage_t>(x), __NV_E2M1).x; });
  compare("__nv_cvt_e8m0_to_bf16raw", Type::ue8m0, all_codes(8), Type::bf16, kRn,
          [](std::uint32_t x) { return __nv_cvt_e8m0_to_bf16raw(static_cast<__nv_fp8_storage_t>(x)).x; });
  // Finite values and infinities identical; NaNs: both NaN (payload rules differ, see the header).
  const auto nan_f32 = [](std::uint64_t a, std::uint64_t b) {
    return a == b || ((a & 0x7fffffff) > 0x7f800000 && (b & 0x7fffffff) > 0x7f800000);
  };
  compare("__half2float", Type::f16, all_codes(16), Type::f32, kRn,
          [](std::uint32_t x) { return bits(__half2float(__ushort_as_half(static_cast<unsigned short>(x)))); }, nan_f32);
  compare("__bfloat162float", Type::bf16, all_codes(16), Type::f32, kRn,
          [](std::uint32_t x) { return bits(__bfloat162float(__ushort_as_bfloat16(static_cast<unsigned short>(x)))); },
          nan_f32);
  EXPECT_EQ(bits(__half2float(__ushort_as_half(0xfd01))), 0x7fffffffu);  // the documented difference
  EXPECT_EQ(convert(Type::f16, 0xfd01, Type::f32, kRn), 0xffe02000u);
}

// §1.4: cvt d, a, b puts a in the high element; CUDA passes float2.y as a and .x as b.
TEST(NvidiaHostCvt, PackedPairsMatchPackPair) {
  const auto& in = f32_inputs();
  long bad = 0;
  for (std::size_t i = 0; i + 1 < in.size(); i += 7) {
    const float lo = from_bits(in[i]), hi = from_bits(in[i + 1]);
    const float2 xy{lo, hi};
    const auto one = [&](Type t, ConvertFlags f, std::uint32_t nvidia) {
      const auto a = static_cast<std::uint32_t>(convert(Type::f32, in[i + 1], t, f));
      const auto b = static_cast<std::uint32_t>(convert(Type::f32, in[i], t, f));
      if (pack_pair(t, a, b) != nvidia && ++bad <= 10)
        ADD_FAILURE() << name(t) << " pair (" << hex(in[i + 1]) << ", " << hex(in[i]) << "): ptxmma "
                      << hex(pack_pair(t, a, b)) << ", NVIDIA " << hex(nvidia);
    };
    one(Type::e4m3, kRnSat, __nv_cvt_float2_to_fp8x2(xy, __NV_SATFINITE, __NV_E4M3));
    one(Type::e5m2, kRnSat, __nv_cvt_float2_to_fp8x2(xy, __NV_SATFINITE, __NV_E5M2));
    one(Type::e2m3, kRnSat, __nv_cvt_float2_to_fp6x2(xy, __NV_E2M3, cudaRoundNearest));
    one(Type::e3m2, kRnSat, __nv_cvt_float2_to_fp6x2(xy, __NV_E3M2, cudaRoundNearest));
    one(Type::e2m1, kRnSat, __nv_cvt_float2_to_fp4x2(xy, __NV_E2M1, cudaRoundNearest));
    one(Type::ue8m0, kRpSat, __nv_cvt_float2_to_e8m0x2(xy, __NV_SATFINITE, cudaRoundPosInf));
    const __half2 h2 = __floats2half2_rn(lo, hi);  // .x = lo in the low half
    std::uint32_t h2bits;
    std::memcpy(&h2bits, &h2, sizeof h2bits);
    one(Type::f16, kRn, h2bits);
    const __nv_bfloat162 b2 = __floats2bfloat162_rn(lo, hi);
    std::uint32_t b2bits;
    std::memcpy(&b2bits, &b2, sizeof b2bits);
    one(Type::bf16, kRn, b2bits);
  }
  EXPECT_EQ(bad, 0);
}

}  // namespace
}  // namespace ptxmma
