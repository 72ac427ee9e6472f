#include "sim/exec/mma.hpp"

#include <fmt/format.h>

#include <vector>

#include "sim/error.hpp"

#include "sim/numeric/fields.hpp"
#include "sim/numeric/packing.hpp"

namespace ptxmma {

int element_bits(Type t, Container c) {
  switch (t) {
    case Type::e2m1: return c == Container::f8f6f4 ? 8 : 4;
    case Type::e3m2:
    case Type::e2m3: return 8;
    case Type::tf32: return 32;
    default: return info(t).bits;
  }
}

std::uint64_t element_code(Type t, Container c, std::uint32_t raw) {
  if (t == Type::e2m1 || t == Type::e3m2 || t == Type::e2m3) return from_container(t, c, raw);
  return code_of(info(t), raw);
}

int words_per_lane(const FragmentLayout& l, Type t, Container c) {
  const int bits = element_bits(t, c);
  return bits == 64 ? 2 * l.regs : l.regs;
}

std::uint64_t MmaExecutor::element(const FragmentLayout& l, Type t, WarpOperand op, int problem, int row,
                                   int col) const {
  const FragmentSlot& s = l.slot(problem, row, col);
  const int bits = element_bits(t, v_.container);
  const std::uint32_t* lane = op.words.data() + static_cast<std::size_t>(s.lane) * op.per_lane;
  if (bits == 64) return lane[2 * s.reg] | (static_cast<std::uint64_t>(lane[2 * s.reg + 1]) << 32);
  return element_code(t, v_.container, get_element(lane[s.reg], bits, s.elem));
}

DotRequest MmaExecutor::request(WarpOperand a, WarpOperand b, WarpOperand c, int problem, int row, int col,
                                std::uint64_t* a_codes, std::uint64_t* b_codes) const {
  const int k = v_.shape.k;
  for (int i = 0; i < k; ++i) {
    a_codes[i] = element(*v_.la, v_.a, a, problem, row, i);
    b_codes[i] = element(*v_.lb, v_.b, b, problem, i, col);
  }
  DotRequest r;
  r.a = v_.a;
  r.b = v_.b;
  r.c = v_.c;
  r.d = v_.d;
  r.a_codes = a_codes;
  r.b_codes = b_codes;
  r.k = k;
  r.c_code = element(*v_.lc, v_.c, c, problem, row, col);
  r.rounding = o_.rounding;
  r.satfinite = o_.satfinite;
  r.bitop = v_.bitop;
  return r;
}

void MmaExecutor::run(WarpOperand a, WarpOperand b, WarpOperand c, std::span<std::uint32_t> d) const {
  const FragmentLayout& ld = *v_.ld;
  const int bits = element_bits(v_.d, v_.container);
  const int per_lane = words_per_lane(ld, v_.d, v_.container);
  std::vector<std::uint64_t> a_codes(static_cast<std::size_t>(v_.shape.k)), b_codes(a_codes.size());
  for (int p = 0; p < ld.problems; ++p)
    for (int row = 0; row < ld.rows; ++row)
      for (int col = 0; col < ld.cols; ++col) {
        const std::uint64_t code = dot(m_, request(a, b, c, p, row, col, a_codes.data(), b_codes.data()));
        const FragmentSlot& s = ld.slot(p, row, col);
        std::uint32_t* lane = d.data() + static_cast<std::size_t>(s.lane) * per_lane;
        if (bits == 64) {
          lane[2 * s.reg] = static_cast<std::uint32_t>(code);
          lane[2 * s.reg + 1] = static_cast<std::uint32_t>(code >> 32);
        } else {
          lane[s.reg] = set_element(lane[s.reg], bits, s.elem, static_cast<std::uint32_t>(container_of(info(v_.d), code)));
        }
      }
}

std::uint64_t MmaExecutor::explain(WarpOperand a, WarpOperand b, WarpOperand c, int problem, int row, int col,
                                   DotTrace& trace) const {
  std::vector<std::uint64_t> a_codes(static_cast<std::size_t>(v_.shape.k)), b_codes(a_codes.size());
  return dot(m_, request(a, b, c, problem, row, col, a_codes.data(), b_codes.data()), &trace);
}

namespace {

// Gathers an operand's registers into lane-major 32-bit words (64-bit registers: low word first).
std::vector<std::uint32_t> gather(const Warp& w, const std::vector<std::string>& regs, const FragmentLayout& l,
                                  bool wide, char op) {
  if (static_cast<int>(regs.size()) != l.regs)
    throw Error(fmt::format("operand {} needs {} registers, the instruction names {}", op, l.regs, regs.size()));
  const RegKind want = wide ? RegKind::b64 : RegKind::b32;
  for (const auto& r : regs)
    if (w.kind(r) != want)
      throw Error(fmt::format("operand {}: register {} is .{}, the instruction needs .{} registers", op, r,
                              name(w.kind(r)), name(want)));
  std::vector<std::uint32_t> words;
  for (int lane = 0; lane < Warp::kLanes; ++lane)
    for (const auto& r : regs) {
      const std::uint64_t v = w.get(lane, r);
      words.push_back(static_cast<std::uint32_t>(v));
      if (wide) words.push_back(static_cast<std::uint32_t>(v >> 32));
    }
  return words;
}

}  // namespace

void execute_mma(Warp& w, const MmaExecutor& x, const MmaRegisters& regs) {
  if (w.active_mask() != 0xffffffffU)
    throw Error(fmt::format("mma.sync.aligned needs all 32 lanes active; the active mask is {:#010x}", w.active_mask()));
  const MmaVariant& v = x.variant();
  const auto wide = [&](Type t) { return element_bits(t, v.container) == 64; };
  const auto a = gather(w, regs.a, *v.la, wide(v.a), 'A');
  const auto b = gather(w, regs.b, *v.lb, wide(v.b), 'B');
  const auto c = gather(w, regs.c, *v.lc, wide(v.c), 'C');
  std::vector<std::uint32_t> d = gather(w, regs.d, *v.ld, wide(v.d), 'D');  // checks D's registers
  x.run({a, words_per_lane(*v.la, v.a, v.container)}, {b, words_per_lane(*v.lb, v.b, v.container)}, {c, words_per_lane(*v.lc, v.c, v.container)}, d);
  const int dw = words_per_lane(*v.ld, v.d, v.container);
  for (int lane = 0; lane < Warp::kLanes; ++lane)
    for (std::size_t r = 0; r < regs.d.size(); ++r) {
      const std::uint32_t* p = d.data() + lane * dw;
      w.set(lane, regs.d[r], wide(v.d) ? p[2 * r] | (static_cast<std::uint64_t>(p[2 * r + 1]) << 32) : p[r]);
    }
}

}  // namespace ptxmma
