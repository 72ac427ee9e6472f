#include "sim/exec/instr_descriptor.hpp"

#include <fmt/format.h>

#include "sim/error.hpp"

namespace ptxmma {

const char* name(Tcgen05Kind k) {
  switch (k) {
    case Tcgen05Kind::f16: return "kind::f16";
    case Tcgen05Kind::tf32: return "kind::tf32";
    case Tcgen05Kind::f8f6f4: return "kind::f8f6f4";
    case Tcgen05Kind::i8: return "kind::i8";
  }
  return "?";
}

int tcgen05_k(Tcgen05Kind k) {
  switch (k) {
    case Tcgen05Kind::f16: return 16;
    case Tcgen05Kind::tf32: return 8;
    case Tcgen05Kind::f8f6f4:
    case Tcgen05Kind::i8: return 32;
  }
  return 0;
}

namespace {

// The A/B type codes of Table 42 per kind; nullptr where the code is not the kind's.
const char* operand_codes(Tcgen05Kind kind) {
  switch (kind) {
    case Tcgen05Kind::f16: return "0 (f16) or 1 (bf16)";
    case Tcgen05Kind::tf32: return "2 (tf32)";
    case Tcgen05Kind::f8f6f4: return "0 (e4m3), 1 (e5m2), 3 (e2m3), 4 (e3m2) or 5 (e2m1)";
    case Tcgen05Kind::i8: return "0 (u8) or 1 (s8)";
  }
  return "";
}
std::optional<Type> operand_type(Tcgen05Kind kind, int code) {
  switch (kind) {
    case Tcgen05Kind::f16:
      if (code <= 1) return code == 0 ? Type::f16 : Type::bf16;
      break;
    case Tcgen05Kind::tf32:
      if (code == 2) return Type::tf32;
      break;
    case Tcgen05Kind::f8f6f4:
      switch (code) {
        case 0: return Type::e4m3;
        case 1: return Type::e5m2;
        case 3: return Type::e2m3;
        case 4: return Type::e3m2;
        case 5: return Type::e2m1;
        default: break;
      }
      break;
    case Tcgen05Kind::i8:
      if (code <= 1) return code == 0 ? Type::u8 : Type::s8;
      break;
  }
  return std::nullopt;
}

}  // namespace

InstrDescriptor InstrDescriptor::decode(std::uint32_t raw, Tcgen05Kind kind) {
  const auto field = [&](int hi, int lo) { return static_cast<int>((raw >> lo) & ((1U << (hi - lo + 1)) - 1)); };
  const auto bad = [&](const std::string& what) -> Error {
    return Error(fmt::format("instruction descriptor {:#010x}: {}", raw, what));
  };
  const char* kind_name = name(kind);
  const bool i8 = kind == Tcgen05Kind::i8;
  if (field(2, 0) != 0) throw bad(fmt::format("bits 2:0 (sparsity) are {}; dense tcgen05.mma has 0", field(2, 0)));
  if (field(3, 3) != 0 && !i8) throw bad(fmt::format("bit 3 (saturate) is for kind::i8, not {}", kind_name));
  for (const int b : {6, 23, 29})
    if (field(b, b) != 0) throw bad(fmt::format("reserved bit {} is 1", b));
  if (field(31, 30) != 0) throw bad(fmt::format("bits 31:30 (the B-reuse shift of .ws) are {}; 0 without .ws", field(31, 30)));
  InstrDescriptor d;
  d.raw = raw;
  const auto operand = [&](int code, const char* which) {
    const std::optional<Type> t = operand_type(kind, code);
    if (!t)
      throw bad(fmt::format("{} type {} (bits {}); {} takes {}", which, code, which[0] == 'A' ? "9:7" : "12:10",
                            kind_name, operand_codes(kind)));
    return *t;
  };
  d.a = operand(field(9, 7), "A");
  d.b = operand(field(12, 10), "B");
  if (kind == Tcgen05Kind::f16 && d.a != d.b)
    throw bad(fmt::format("A is {} and B {}; the PTX ISA does not say that kind::f16 mixes them", name(d.a), name(d.b)));
  const int dt = field(5, 4);
  if (i8) {
    if (dt != 2) throw bad(fmt::format("D type {} (bits 5:4); kind::i8 accumulates in s32 (2)", dt));
    d.d = Type::s32;
  } else if (dt == 1) {
    d.d = Type::f32;
  } else if (dt == 0 && (kind == Tcgen05Kind::f8f6f4 || (kind == Tcgen05Kind::f16 && d.a == Type::f16))) {
    d.d = Type::f16;
  } else {
    throw bad(fmt::format("D type {} (bits 5:4); {} accumulates in f32 (1){}", dt, kind_name,
                          kind == Tcgen05Kind::f16      ? ", or f16 (0) with f16 A and B"
                          : kind == Tcgen05Kind::f8f6f4 ? " or f16 (0)"
                                                        : ""));
  }
  d.saturate = field(3, 3) != 0;
  d.negate_a = field(13, 13) != 0;
  d.negate_b = field(14, 14) != 0;
  if (i8 && (d.negate_a || d.negate_b))
    throw bad(fmt::format("bit {} (negate {}) is 1; kind::i8 does not negate", d.negate_a ? 13 : 14,
                          d.negate_a ? "A" : "B"));
  d.transpose_a = field(15, 15) != 0;
  d.transpose_b = field(16, 16) != 0;
  d.n = field(22, 17) << 3;
  d.m = field(28, 24) << 4;
  if (d.m != 64 && d.m != 128)
    throw bad(fmt::format("M = {} (bits 28:24 = {}); .cta_group::1 takes M 64 or 128", d.m, field(28, 24)));
  if (d.n < 8 || d.n > 256)
    throw bad(fmt::format("N = {} (bits 22:17 = {}); N is 8 to 256 in steps of 8", d.n, field(22, 17)));
  if (i8 && d.n > 32 && d.n % 16 != 0)
    throw bad(fmt::format("N = {} (bits 22:17 = {}); kind::i8 takes N 8, 16, 24, then steps of 16", d.n, field(22, 17)));
  return d;
}

std::string InstrDescriptor::text() const {
  return fmt::format("M {}, N {}, A {}{}, B {}{}, D {}{}, A {}, B {}", m, n, negate_a ? "-" : "", name(a),
                     negate_b ? "-" : "", name(b), name(d), saturate ? " (saturating)" : "",
                     transpose_a ? "MN-major" : "K-major", transpose_b ? "MN-major" : "K-major");
}

}  // namespace ptxmma
