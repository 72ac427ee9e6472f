// PTX instruction and register types (.b32, .s64, .f16x2, .e4m3x2, .pred, ...): widths, classes
// and the operand type-checking rule of the PTX ISA ("Operand Type Information").
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "sim/numeric/type.hpp"

namespace ptxmma::ptx {

enum class PtxType : std::uint8_t {
  none, pred,
  b8, b16, b32, b64, b128,
  u8, u16, u32, u64,
  s8, s16, s32, s64,
  f16, f16x2, bf16, bf16x2, tf32, f32, f64,
  e4m3, e5m2, e4m3x2, e5m2x2, e4m3x4, e5m2x4, e2m1x2, e2m1x4, e3m2x2, e2m3x2, ue8m0x2,
};

enum class TypeClass : std::uint8_t { none, pred, bits, unsigned_int, signed_int, floating, narrow };

std::optional<PtxType> parse_ptx_type(std::string_view token);  // "b32" or ".b32"
std::string_view name(PtxType t);                                // "b32"
int bits(PtxType t);                                             // pred: 1
TypeClass type_class(PtxType t);
// Types a .reg (or .shared/.global/.param) declaration may use.
bool declarable(PtxType t);
// The element format of a float or narrow type (f16x2 -> f16, e4m3x2 -> e4m3); nullopt otherwise.
std::optional<Type> element_format(PtxType t);
// Elements in one value: f16x2 -> 2, e2m1x4 -> 4, f32 -> 1.
int lanes_of(PtxType t);

// Whether a register declared `reg` may be an operand of an instruction of type `ins`:
// same type; or same size with either a .b type; or same size, both integer; narrow packed
// formats (.e4m3x2 ...) take bit-size or integer registers of their size. `wider`: ld, st and
// cvt let a register be wider than the instruction type (integer and bit-size types only).
bool compatible(PtxType ins, PtxType reg, bool wider = false);

}  // namespace ptxmma::ptx
