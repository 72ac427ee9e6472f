#include "sim/exec/instr_descriptor.hpp"

#include <fmt/format.h>

#include "sim/error.hpp"

namespace ptxmma {

InstrDescriptor InstrDescriptor::decode(std::uint32_t raw, Tcgen05Kind kind) {
  const auto field = [&](int hi, int lo) { return static_cast<int>((raw >> lo) & ((1U << (hi - lo + 1)) - 1)); };
  const auto bad = [&](const std::string& what) -> Error {
    return Error(fmt::format("instruction descriptor {:#010x}: {}", raw, what));
  };
  const char* kind_name = kind == Tcgen05Kind::f16 ? "kind::f16" : "kind::tf32";
  if (field(2, 0) != 0) throw bad(fmt::format("bits 2:0 (sparsity) are {}; dense tcgen05.mma has 0", field(2, 0)));
  if (field(3, 3) != 0) throw bad(fmt::format("bit 3 (saturate) is for kind::i8, not {}", kind_name));
  for (const int b : {6, 23, 29})
    if (field(b, b) != 0) throw bad(fmt::format("reserved bit {} is 1", b));
  if (field(31, 30) != 0) throw bad(fmt::format("bits 31:30 (the B-reuse shift of .ws) are {}; 0 without .ws", field(31, 30)));
  InstrDescriptor d;
  d.raw = raw;
  const int at = field(9, 7), bt = field(12, 10), dt = field(5, 4);
  const auto operand = [&](int code, const char* which) {
    if (kind == Tcgen05Kind::tf32) {
      if (code != 2) throw bad(fmt::format("{} type {} (bits {}); kind::tf32 takes 2 (tf32)", which, code,
                                           which[0] == 'A' ? "9:7" : "12:10"));
      return Type::tf32;
    }
    if (code > 1)
      throw bad(fmt::format("{} type {} (bits {}); kind::f16 takes 0 (f16) or 1 (bf16)", which, code,
                            which[0] == 'A' ? "9:7" : "12:10"));
    return code == 0 ? Type::f16 : Type::bf16;
  };
  d.a = operand(at, "A");
  d.b = operand(bt, "B");
  if (d.a != d.b)
    throw bad(fmt::format("A is {} and B {}; the PTX ISA does not say that kind::f16 mixes them", name(d.a), name(d.b)));
  if (dt == 1) {
    d.d = Type::f32;
  } else if (dt == 0 && kind == Tcgen05Kind::f16 && d.a == Type::f16) {
    d.d = Type::f16;
  } else {
    throw bad(fmt::format("D type {} (bits 5:4); {} accumulates in f32 (1){}", dt, kind_name,
                          kind == Tcgen05Kind::f16 ? ", or f16 (0) with f16 A and B" : ""));
  }
  d.negate_a = field(13, 13) != 0;
  d.negate_b = field(14, 14) != 0;
  d.transpose_a = field(15, 15) != 0;
  d.transpose_b = field(16, 16) != 0;
  d.n = field(22, 17) << 3;
  d.m = field(28, 24) << 4;
  if (d.m != 64 && d.m != 128)
    throw bad(fmt::format("M = {} (bits 28:24 = {}); .cta_group::1 takes M 64 or 128", d.m, field(28, 24)));
  if (d.n < 8 || d.n > 256)
    throw bad(fmt::format("N = {} (bits 22:17 = {}); N is 8 to 256 in steps of 8", d.n, field(22, 17)));
  return d;
}

std::string InstrDescriptor::text() const {
  return fmt::format("M {}, N {}, A {}{}, B {}{}, D {}, A {}, B {}", m, n, negate_a ? "-" : "", name(a),
                     negate_b ? "-" : "", name(b), name(d), transpose_a ? "MN-major" : "K-major",
                     transpose_b ? "MN-major" : "K-major");
}

}  // namespace ptxmma
