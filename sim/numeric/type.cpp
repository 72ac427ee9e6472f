#include "sim/numeric/type.hpp"

#include <array>

namespace ptxmma {
namespace {

constexpr TypeInfo flt(std::string_view n, Type t, int bits, int e, int m, bool inf, NanCode nan,
                       int shift = 0, bool sign = true, bool subnormals = true) {
  return TypeInfo{n, t, bits, shift, true, sign, e, m, (1 << (e - 1)) - 1, inf, subnormals, nan};
}
constexpr TypeInfo integer(std::string_view n, Type t, int bits, bool sign) {
  return TypeInfo{n, t, bits, 0, false, sign};
}

// docs/numerics.md §1.1 (PTX ISA 5.2.3, OCP MX v1.0).
constexpr std::array<TypeInfo, 18> kTypes = {{
    flt("f64", Type::f64, 64, 11, 52, true, NanCode::ieee),
    flt("f32", Type::f32, 32, 8, 23, true, NanCode::ieee),
    flt("tf32", Type::tf32, 19, 8, 10, true, NanCode::ieee, 13),
    flt("f16", Type::f16, 16, 5, 10, true, NanCode::ieee),
    flt("bf16", Type::bf16, 16, 8, 7, true, NanCode::ieee),
    flt("e4m3", Type::e4m3, 8, 4, 3, false, NanCode::all_ones_low),
    flt("e5m2", Type::e5m2, 8, 5, 2, true, NanCode::ieee),
    flt("e3m2", Type::e3m2, 6, 3, 2, false, NanCode::none),
    flt("e2m3", Type::e2m3, 6, 2, 3, false, NanCode::none),
    flt("e2m1", Type::e2m1, 4, 2, 1, false, NanCode::none),
    flt("ue8m0", Type::ue8m0, 8, 8, 0, false, NanCode::all_ones, 0, false, false),
    flt("ue4m3", Type::ue4m3, 7, 4, 3, false, NanCode::all_ones_low, 0, false),
    integer("s32", Type::s32, 32, true),
    integer("s8", Type::s8, 8, true),
    integer("u8", Type::u8, 8, false),
    integer("s4", Type::s4, 4, true),
    integer("u4", Type::u4, 4, false),
    integer("b1", Type::b1, 1, false),
}};

}  // namespace

std::uint64_t TypeInfo::max_finite() const {
  const std::uint64_t frac_all = (1ULL << man_bits) - 1;
  switch (nan) {
    case NanCode::ieee: return (static_cast<std::uint64_t>(exp_max_code() - 1) << man_bits) | frac_all;
    case NanCode::all_ones_low: return (static_cast<std::uint64_t>(exp_max_code()) << man_bits) | (frac_all - 1);
    case NanCode::all_ones: return (static_cast<std::uint64_t>(exp_max_code()) << man_bits) - 1;
    case NanCode::none: return (static_cast<std::uint64_t>(exp_max_code()) << man_bits) | frac_all;
  }
  return 0;
}

std::uint64_t TypeInfo::canonical_nan() const {
  switch (nan) {
    case NanCode::ieee:
      // f32 0x7fffffff, f16 0x7fff, bf16 0x7fff, e5m2 0x7f: every fraction bit set (CUDA's choice).
      return (mask() >> 1);
    case NanCode::all_ones_low:
    case NanCode::all_ones: return mask() >> (is_signed ? 1 : 0);
    case NanCode::none: return 0;
  }
  return 0;
}

std::uint64_t TypeInfo::inf_bits(bool negative) const {
  const std::uint64_t inf = static_cast<std::uint64_t>(exp_max_code()) << man_bits;
  return negative ? inf | sign_bit() : inf;
}

const TypeInfo& info(Type t) { return kTypes[static_cast<std::size_t>(t)]; }

std::optional<Type> parse_type(std::string_view n) {
  for (const auto& ti : kTypes)
    if (ti.name == n) return ti.type;
  return std::nullopt;
}

std::string_view name(Type t) { return info(t).name; }
std::span<const TypeInfo> all_types() { return kTypes; }

}  // namespace ptxmma
