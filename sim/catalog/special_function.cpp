#include "sim/catalog/special_function.hpp"

#include <array>

#include "sim/catalog/special_tables.hpp"
#include "sim/error.hpp"
#include "sim/numeric/division.hpp"
#include "sim/numeric/exp2.hpp"
#include "sim/numeric/half_special.hpp"
#include "sim/numeric/hyperbolic_tangent.hpp"
#include "sim/numeric/log2.hpp"
#include "sim/numeric/reciprocal.hpp"
#include "sim/numeric/sine_cosine.hpp"
#include "sim/numeric/square_root.hpp"

namespace ptxmma {

namespace {

// Each modelled instruction as PTX spells it (bf16 ex2 exists only with .ftz, tanh only without;
// rcp's .f64 approximation exists only with .ftz).
constexpr std::array kForms = {
    std::pair{"rcp.approx.f32", SpecialInstruction{SpecialKind::rcp, SpecialType::f32, false}},
    std::pair{"rcp.approx.ftz.f32", SpecialInstruction{SpecialKind::rcp, SpecialType::f32, true}},
    std::pair{"rsqrt.approx.f32", SpecialInstruction{SpecialKind::rsqrt, SpecialType::f32, false}},
    std::pair{"rsqrt.approx.ftz.f32", SpecialInstruction{SpecialKind::rsqrt, SpecialType::f32, true}},
    std::pair{"sqrt.approx.f32", SpecialInstruction{SpecialKind::sqrt, SpecialType::f32, false}},
    std::pair{"sqrt.approx.ftz.f32", SpecialInstruction{SpecialKind::sqrt, SpecialType::f32, true}},
    std::pair{"ex2.approx.f32", SpecialInstruction{SpecialKind::ex2, SpecialType::f32, false}},
    std::pair{"ex2.approx.ftz.f32", SpecialInstruction{SpecialKind::ex2, SpecialType::f32, true}},
    std::pair{"ex2.approx.f16", SpecialInstruction{SpecialKind::ex2, SpecialType::f16, false}},
    std::pair{"ex2.approx.f16x2", SpecialInstruction{SpecialKind::ex2, SpecialType::f16x2, false}},
    std::pair{"ex2.approx.ftz.bf16", SpecialInstruction{SpecialKind::ex2, SpecialType::bf16, true}},
    std::pair{"ex2.approx.ftz.bf16x2", SpecialInstruction{SpecialKind::ex2, SpecialType::bf16x2, true}},
    std::pair{"tanh.approx.f32", SpecialInstruction{SpecialKind::tanh, SpecialType::f32, false}},
    std::pair{"tanh.approx.f16", SpecialInstruction{SpecialKind::tanh, SpecialType::f16, false}},
    std::pair{"tanh.approx.f16x2", SpecialInstruction{SpecialKind::tanh, SpecialType::f16x2, false}},
    std::pair{"tanh.approx.bf16", SpecialInstruction{SpecialKind::tanh, SpecialType::bf16, false}},
    std::pair{"tanh.approx.bf16x2", SpecialInstruction{SpecialKind::tanh, SpecialType::bf16x2, false}},
    std::pair{"lg2.approx.f32", SpecialInstruction{SpecialKind::lg2, SpecialType::f32, false}},
    std::pair{"lg2.approx.ftz.f32", SpecialInstruction{SpecialKind::lg2, SpecialType::f32, true}},
    std::pair{"sin.approx.f32", SpecialInstruction{SpecialKind::sin, SpecialType::f32, false}},
    std::pair{"sin.approx.ftz.f32", SpecialInstruction{SpecialKind::sin, SpecialType::f32, true}},
    std::pair{"cos.approx.f32", SpecialInstruction{SpecialKind::cos, SpecialType::f32, false}},
    std::pair{"cos.approx.ftz.f32", SpecialInstruction{SpecialKind::cos, SpecialType::f32, true}},
    std::pair{"rcp.approx.ftz.f64", SpecialInstruction{SpecialKind::rcp, SpecialType::f64, true}},
    std::pair{"rsqrt.approx.ftz.f64", SpecialInstruction{SpecialKind::rsqrt, SpecialType::f64, true}},
    std::pair{"rsqrt.approx.f64", SpecialInstruction{SpecialKind::rsqrt, SpecialType::f64, false}},
    std::pair{"div.approx.f32", SpecialInstruction{SpecialKind::div_approx, SpecialType::f32, false}},
    std::pair{"div.approx.ftz.f32", SpecialInstruction{SpecialKind::div_approx, SpecialType::f32, true}},
    std::pair{"div.full.f32", SpecialInstruction{SpecialKind::div_full, SpecialType::f32, false}},
    std::pair{"div.full.ftz.f32", SpecialInstruction{SpecialKind::div_full, SpecialType::f32, true}},
};

bool same(const SpecialInstruction& a, const SpecialInstruction& b) {
  return a.kind == b.kind && a.type == b.type && a.ftz == b.ftz;
}

const SpecialTable& half_table(const SpecialInstruction& s) {
  const bool bf16 = s.type == SpecialType::bf16 || s.type == SpecialType::bf16x2;
  if (s.kind == SpecialKind::ex2) return special_table(bf16 ? SpecialTableId::ex2_bf16 : SpecialTableId::ex2_f16);
  return special_table(bf16 ? SpecialTableId::tanh_bf16 : SpecialTableId::tanh_f16);
}

}  // namespace

std::optional<SpecialInstruction> parse_special_instruction(std::string_view name) {
  for (const auto& [n, s] : kForms)
    if (name == n) return s;
  return std::nullopt;
}

std::string name(const SpecialInstruction& s) {
  for (const auto& [n, f] : kForms)
    if (same(f, s)) return n;
  return "?";
}

std::vector<std::string> special_instruction_names() {
  std::vector<std::string> out;
  for (const auto& [n, s] : kForms) out.emplace_back(n);
  return out;
}

int arity(const SpecialInstruction& s) {
  return s.kind == SpecialKind::div_approx || s.kind == SpecialKind::div_full ? 2 : 1;
}

std::uint64_t evaluate(const SpecialInstruction& s, std::uint64_t a, std::uint64_t b) {
  switch (s.type) {
    case SpecialType::f16:
    case SpecialType::bf16: return half_special(half_table(s), static_cast<std::uint16_t>(a));
    case SpecialType::f16x2:
    case SpecialType::bf16x2: return half_special_x2(half_table(s), static_cast<std::uint32_t>(a));
    case SpecialType::f64:
      if (s.kind == SpecialKind::rcp) return rcp_approx_ftz_f64(special_table(SpecialTableId::rcp_f64), a);
      if (s.kind == SpecialKind::rsqrt)
        return s.ftz ? rsqrt_approx_ftz_f64(special_table(SpecialTableId::rsqrt_f64), a)
                     : rsqrt_approx_f64(special_table(SpecialTableId::rsqrt_f64), a);
      break;
    case SpecialType::f32: {
      const auto x = static_cast<std::uint32_t>(a), y = static_cast<std::uint32_t>(b);
      switch (s.kind) {
        case SpecialKind::rcp: return rcp_approx_f32(special_table(SpecialTableId::rcp), x, s.ftz);
        case SpecialKind::rsqrt: return rsqrt_approx_f32(special_table(SpecialTableId::rsqrt), x, s.ftz);
        case SpecialKind::sqrt: return sqrt_approx_f32(special_table(SpecialTableId::sqrt), x, s.ftz);
        case SpecialKind::ex2: return ex2_approx_f32(special_table(SpecialTableId::ex2), x, s.ftz);
        case SpecialKind::lg2: return lg2_approx_f32(special_table(SpecialTableId::lg2), x, s.ftz);
        case SpecialKind::div_approx: return div_approx_f32(special_table(SpecialTableId::rcp), x, y, s.ftz);
        case SpecialKind::div_full: return div_full_f32(special_table(SpecialTableId::rcp), x, y, s.ftz);
        case SpecialKind::tanh: return tanh_approx_f32(special_table(SpecialTableId::tanh), x);
        // .ftz changes no result: every input below 2^-25 reads the table's first entry.
        case SpecialKind::sin: return sin_approx_f32(special_table(SpecialTableId::sin), x);
        case SpecialKind::cos: return cos_approx_f32(special_table(SpecialTableId::cos), x);
      }
      break;
    }
  }
  throw Error(name(s) + " is not modelled");
}

}  // namespace ptxmma
