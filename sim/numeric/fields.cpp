#include "sim/numeric/fields.hpp"

namespace ptxmma {

std::string_view name(FpClass c) {
  switch (c) {
    case FpClass::zero: return "zero";
    case FpClass::subnormal: return "subnormal";
    case FpClass::normal: return "normal";
    case FpClass::infinity: return "infinity";
    case FpClass::nan: return "NaN";
  }
  return "?";
}

Fields decode(Type t, std::uint64_t code) {
  const TypeInfo& ti = info(t);
  code &= ti.mask();
  Fields f;
  f.sign = (code & ti.sign_bit()) != 0;
  f.biased_exp = static_cast<std::uint32_t>((code >> ti.man_bits) & ti.exp_max_code());
  f.fraction = code & ((1ULL << ti.man_bits) - 1);
  const std::uint64_t frac_all = (1ULL << ti.man_bits) - 1;
  const bool top = f.biased_exp == ti.exp_max_code();
  bool is_nan = false;
  bool is_inf = false;
  switch (ti.nan) {
    case NanCode::ieee:
      is_nan = top && f.fraction != 0;
      is_inf = top && f.fraction == 0 && ti.has_inf;
      break;
    case NanCode::all_ones_low: is_nan = top && f.fraction == frac_all; break;
    case NanCode::all_ones: is_nan = top; break;
    case NanCode::none: break;
  }
  if (is_nan || is_inf) {
    f.cls = is_nan ? FpClass::nan : FpClass::infinity;
    f.exponent = static_cast<int>(f.biased_exp) - ti.bias;
    f.significand = f.fraction;
    return f;
  }
  if (f.biased_exp == 0 && ti.has_subnormals) {
    f.exponent = ti.emin();
    f.significand = f.fraction;
    f.cls = f.fraction == 0 ? FpClass::zero : FpClass::subnormal;
    return f;
  }
  f.exponent = static_cast<int>(f.biased_exp) - ti.bias;
  f.significand = f.fraction | (1ULL << ti.man_bits);
  f.cls = FpClass::normal;
  return f;
}

std::int64_t integer_value(Type t, std::uint64_t code) {
  const TypeInfo& ti = info(t);
  code &= ti.mask();
  if (ti.is_signed && (code & ti.sign_bit())) return static_cast<std::int64_t>(code) - (1LL << ti.bits);
  return static_cast<std::int64_t>(code);
}

}  // namespace ptxmma
