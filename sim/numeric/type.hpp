// Element types of the tensor-core instructions and their bit-level parameters.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace ptxmma {

enum class Type : std::uint8_t {
  f64, f32, tf32, f16, bf16, e4m3, e5m2, e3m2, e2m3, e2m1, ue8m0, ue4m3,
  s32, s8, u8, s4, u4, b1,
};

// How a format spells NaN (and whether it has one).
enum class NanCode : std::uint8_t {
  ieee,            // exponent all ones, fraction non-zero
  all_ones_low,    // e4m3 / ue4m3: only exponent and fraction all ones (S.1111.111)
  all_ones,        // ue8m0: only 0xFF
  none,            // FP6, FP4
};

struct TypeInfo {
  std::string_view name;
  Type type;
  int bits;         // width of the encoding
  int shift;        // where the encoding sits in its container (tf32: bits [31:13] of a b32)
  bool is_float;
  bool is_signed;
  // Floating point only.
  int exp_bits = 0;
  int man_bits = 0;
  int bias = 0;
  bool has_inf = false;
  bool has_subnormals = true;   // ue8m0: exponent code 0 is the normal value 2^-127
  NanCode nan = NanCode::none;

  [[nodiscard]] constexpr std::uint64_t mask() const {
    return bits == 64 ? ~0ULL : ((1ULL << bits) - 1);
  }
  [[nodiscard]] constexpr std::uint64_t sign_bit() const { return is_signed ? 1ULL << (bits - 1) : 0; }
  [[nodiscard]] constexpr std::uint32_t exp_max_code() const { return (1U << exp_bits) - 1; }
  // Smallest unbiased exponent of a normal number (also the exponent of subnormals).
  [[nodiscard]] constexpr int emin() const { return has_subnormals ? 1 - bias : -bias; }
  // Largest finite encoding's magnitude, in the format's bits.
  [[nodiscard]] std::uint64_t max_finite() const;
  // NaN produced by conversions into this format (canonical, positive); 0 if the format has no NaN.
  [[nodiscard]] std::uint64_t canonical_nan() const;
  [[nodiscard]] std::uint64_t inf_bits(bool negative) const;
};

const TypeInfo& info(Type t);
std::optional<Type> parse_type(std::string_view name);
std::string_view name(Type t);
std::span<const TypeInfo> all_types();

}  // namespace ptxmma
