#include "isa/ptx_types.hpp"

#include <array>

namespace ptxmma::ptx {
namespace {

struct Row {
  PtxType t;
  std::string_view name;
  int bits;
  TypeClass cls;
  bool declarable;
  std::optional<Type> elem;
  int lanes;
};

constexpr std::optional<Type> kNo = std::nullopt;

constexpr std::array<Row, 33> kRows = {{
    {PtxType::none, "", 0, TypeClass::none, false, kNo, 0},
    {PtxType::pred, "pred", 1, TypeClass::pred, true, kNo, 1},
    {PtxType::b8, "b8", 8, TypeClass::bits, true, kNo, 1},
    {PtxType::b16, "b16", 16, TypeClass::bits, true, kNo, 1},
    {PtxType::b32, "b32", 32, TypeClass::bits, true, kNo, 1},
    {PtxType::b64, "b64", 64, TypeClass::bits, true, kNo, 1},
    {PtxType::b128, "b128", 128, TypeClass::bits, false, kNo, 1},
    {PtxType::u8, "u8", 8, TypeClass::unsigned_int, true, kNo, 1},
    {PtxType::u16, "u16", 16, TypeClass::unsigned_int, true, kNo, 1},
    {PtxType::u32, "u32", 32, TypeClass::unsigned_int, true, kNo, 1},
    {PtxType::u64, "u64", 64, TypeClass::unsigned_int, true, kNo, 1},
    {PtxType::s8, "s8", 8, TypeClass::signed_int, true, kNo, 1},
    {PtxType::s16, "s16", 16, TypeClass::signed_int, true, kNo, 1},
    {PtxType::s32, "s32", 32, TypeClass::signed_int, true, kNo, 1},
    {PtxType::s64, "s64", 64, TypeClass::signed_int, true, kNo, 1},
    {PtxType::f16, "f16", 16, TypeClass::floating, true, Type::f16, 1},
    {PtxType::f16x2, "f16x2", 32, TypeClass::floating, true, Type::f16, 2},
    {PtxType::bf16, "bf16", 16, TypeClass::floating, true, Type::bf16, 1},
    {PtxType::bf16x2, "bf16x2", 32, TypeClass::floating, true, Type::bf16, 2},
    {PtxType::tf32, "tf32", 32, TypeClass::narrow, false, Type::tf32, 1},
    {PtxType::f32, "f32", 32, TypeClass::floating, true, Type::f32, 1},
    {PtxType::f64, "f64", 64, TypeClass::floating, true, Type::f64, 1},
    {PtxType::e4m3, "e4m3", 8, TypeClass::narrow, false, Type::e4m3, 1},
    {PtxType::e5m2, "e5m2", 8, TypeClass::narrow, false, Type::e5m2, 1},
    {PtxType::e4m3x2, "e4m3x2", 16, TypeClass::narrow, false, Type::e4m3, 2},
    {PtxType::e5m2x2, "e5m2x2", 16, TypeClass::narrow, false, Type::e5m2, 2},
    {PtxType::e4m3x4, "e4m3x4", 32, TypeClass::narrow, false, Type::e4m3, 4},
    {PtxType::e5m2x4, "e5m2x4", 32, TypeClass::narrow, false, Type::e5m2, 4},
    {PtxType::e2m1x2, "e2m1x2", 8, TypeClass::narrow, false, Type::e2m1, 2},
    {PtxType::e2m1x4, "e2m1x4", 16, TypeClass::narrow, false, Type::e2m1, 4},
    {PtxType::e3m2x2, "e3m2x2", 16, TypeClass::narrow, false, Type::e3m2, 2},
    {PtxType::e2m3x2, "e2m3x2", 16, TypeClass::narrow, false, Type::e2m3, 2},
    {PtxType::ue8m0x2, "ue8m0x2", 16, TypeClass::narrow, false, Type::ue8m0, 2},
}};

// The rows are in the enum's order (checked once here), so a type's row is an index: the
// interpreter asks for widths and classes on every instruction.
constexpr bool rows_in_enum_order() {
  for (std::size_t i = 0; i < kRows.size(); ++i)
    if (static_cast<std::size_t>(kRows[i].t) != i) return false;
  return true;
}
static_assert(rows_in_enum_order());

const Row& row(PtxType t) {
  const auto i = static_cast<std::size_t>(t);
  return i < kRows.size() ? kRows[i] : kRows[0];
}

bool is_int(TypeClass c) { return c == TypeClass::unsigned_int || c == TypeClass::signed_int; }

}  // namespace

std::optional<PtxType> parse_ptx_type(std::string_view s) {
  if (!s.empty() && s.front() == '.') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  for (const Row& r : kRows)
    if (r.name == s) return r.t;
  return std::nullopt;
}

std::string_view name(PtxType t) { return row(t).name; }
int bits(PtxType t) { return row(t).bits; }
TypeClass type_class(PtxType t) { return row(t).cls; }
bool declarable(PtxType t) { return row(t).declarable; }
std::optional<Type> element_format(PtxType t) { return row(t).elem; }
int lanes_of(PtxType t) { return row(t).lanes; }

bool compatible(PtxType ins, PtxType reg, bool wider) {
  if (ins == reg) return true;
  const TypeClass ic = type_class(ins), rc = type_class(reg);
  if (ic == TypeClass::pred || rc == TypeClass::pred) return false;
  const int ib = bits(ins), rb = bits(reg);
  const bool size_ok = ib == rb || (wider && rb > ib && (ic == TypeClass::bits || is_int(ic) || ic == TypeClass::narrow) &&
                                    (rc == TypeClass::bits || is_int(rc)));
  if (!size_ok) return false;
  if (ic == TypeClass::bits || rc == TypeClass::bits) return true;
  if (is_int(ic) && is_int(rc)) return true;
  if (ic == TypeClass::narrow) return is_int(rc);
  return false;
}

}  // namespace ptxmma::ptx
