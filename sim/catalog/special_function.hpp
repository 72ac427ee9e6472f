// The approximate special-function instructions ptxmma models bit-exactly (docs/hardware/
// special-functions-sm90.md): their PTX names and one evaluation of a register's bits.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxmma {

enum class SpecialKind { rcp, rsqrt, sqrt, ex2, tanh, lg2, sin, cos, div_approx, div_full };
enum class SpecialType { f32, f64, f16, f16x2, bf16, bf16x2 };

struct SpecialInstruction {
  SpecialKind kind = SpecialKind::rcp;
  SpecialType type = SpecialType::f32;
  bool ftz = false;
};

// "rcp.approx.ftz.f32", "ex2.approx.f16x2", ...; nullopt for anything not modelled.
std::optional<SpecialInstruction> parse_special_instruction(std::string_view name);
std::string name(const SpecialInstruction& s);
// Every modelled instruction's name (for messages and the eval command's help).
std::vector<std::string> special_instruction_names();

// How many source registers it reads: 2 for div, else 1.
int arity(const SpecialInstruction& s);

// The result register's bits for the source registers' bits (the low 16 bits for f16/bf16, the
// low 32 for f32; div: a / b, otherwise b is not read).
std::uint64_t evaluate(const SpecialInstruction& s, std::uint64_t a, std::uint64_t b = 0);

}  // namespace ptxmma
