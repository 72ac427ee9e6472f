#include "tools/vectors/alu_inputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>

namespace ptxmma {
namespace {

using ptx::PtxType;
using ptx::TypeClass;

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t hash_text(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

std::uint64_t mask_of(int bits) { return bits >= 64 ? ~0ULL : (1ULL << bits) - 1; }

// Sign, exponent and fraction widths of the scalar float formats.
struct Fmt {
  int exp, man;
};

std::vector<std::uint64_t> float_edges(Fmt f) {
  const int w = 1 + f.exp + f.man;
  const std::uint64_t sign = 1ULL << (w - 1);
  const std::uint64_t inf = mask_of(f.exp) << f.man;
  const std::uint64_t bias = mask_of(f.exp - 1);
  const auto val = [&](std::uint64_t e, std::uint64_t m) { return (e << f.man) | m; };
  const std::uint64_t quiet = 1ULL << (f.man - 1);
  std::vector<std::uint64_t> pos = {
      0,                                    // +0
      inf,                                  // infinity
      inf | quiet,                          // canonical quiet NaN
      val(bias, 0),                         // 1
      1,                                    // smallest subnormal
      mask_of(f.man),                       // largest subnormal
      val(1, 0),                            // smallest normal
      val(bias, quiet),                     // 1.5
      val(bias - 1, 0),                     // 0.5
      val(bias + 1, quiet),                 // 3
      val(bias + 1, quiet >> 1),            // 2.5
      val(bias, 1),                         // 1 + ulp
      val(bias - 1, mask_of(f.man)),        // 1 - ulp/2
      inf - 1,                              // largest finite
      inf | quiet | 0x5,                    // quiet NaN with a payload
      inf | 1,                              // signalling NaN
  };
  // Values at the integer limits (float -> integer conversions) and f16 overflow.
  const auto pow2 = [&](int e) { return static_cast<std::uint64_t>(e + static_cast<int>(bias)) << f.man; };
  for (const int e : {7, 8, 15, 16, 31, 32, 63, 64})
    if (e + static_cast<int>(bias) < static_cast<int>(mask_of(f.exp))) pos.push_back(pow2(e));
  std::vector<std::uint64_t> out;
  for (const std::uint64_t v : pos) {
    out.push_back(v);
    out.push_back(v | sign);
  }
  return out;
}

std::vector<std::uint64_t> int_edges(int w, bool is_signed) {
  const std::uint64_t m = mask_of(w);
  std::vector<std::uint64_t> out = {0, 1, ~0ULL, 1ULL << (w - 1), (1ULL << (w - 1)) - 1, static_cast<std::uint64_t>(w),
                                    2, 3, 7, 8, 15, 16, 17, 24, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256,
                                    0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff,
                                    0x100000000ULL, 0x7fffffffffffffffULL, 0x8000000000000000ULL};
  for (const std::uint64_t v : {1ULL, 2ULL, 3ULL, 16ULL}) out.push_back(0 - v);  // -1, -2, -3, -16
  (void)is_signed;
  std::vector<std::uint64_t> kept;
  for (const std::uint64_t v : out)
    if (std::find(kept.begin(), kept.end(), v & m) == kept.end()) kept.push_back(v & m);
  return kept;
}

std::optional<Fmt> scalar_format(PtxType t) {
  switch (t) {
    case PtxType::f16:
    case PtxType::f16x2: return Fmt{5, 10};
    case PtxType::bf16:
    case PtxType::bf16x2: return Fmt{8, 7};
    case PtxType::f32: return Fmt{8, 23};
    case PtxType::f64: return Fmt{11, 52};
    default: return std::nullopt;
  }
}

// A value near 1: exponent within 4 binades, random fraction and sign.
std::uint64_t near_one(Fmt f, std::uint64_t r) {
  const std::uint64_t bias = mask_of(f.exp - 1);
  const std::uint64_t e = bias - 4 + (r >> 60) % 9;
  return ((r >> 59) & 1) << (f.exp + f.man) | e << f.man | (r & mask_of(f.man));
}

std::uint64_t draw(PtxType t, std::uint64_t& state) {
  const std::uint64_t r = splitmix(state), pick = splitmix(state) % 100;
  if (t == PtxType::pred) return r & 1;
  if (const auto f = scalar_format(t)) {
    const int lanes = ptx::lanes_of(t);
    const std::vector<std::uint64_t> edges = float_edges(*f);
    std::uint64_t v = 0;
    for (int l = 0; l < lanes; ++l) {
      const std::uint64_t rr = splitmix(state), p = lanes == 1 ? pick : splitmix(state) % 100;
      const std::uint64_t e = p < 45 ? edges[rr % edges.size()] : p < 75 ? near_one(*f, rr) : rr & mask_of(1 + f->exp + f->man);
      v |= e << (16 * l);
    }
    return v;
  }
  const int w = ptx::bits(t);
  if (pick < 55) {
    const std::vector<std::uint64_t> edges = int_edges(w, ptx::type_class(t) == TypeClass::signed_int);
    return edges[r % edges.size()];
  }
  if (pick < 70) return ((r % 9) - 4) & mask_of(w);  // small values, either sign
  return r & mask_of(w);
}

}  // namespace

std::vector<std::uint64_t> alu_edge_values(PtxType t) {
  if (const auto f = scalar_format(t)) return float_edges(*f);
  if (t == PtxType::pred) return {0, 1};
  return int_edges(ptx::bits(t), ptx::type_class(t) == TypeClass::signed_int);
}

std::vector<std::uint64_t> alu_inputs(const AluForm& f, int cases, std::uint64_t seed) {
  std::vector<std::uint64_t> out(static_cast<std::size_t>(cases) * f.slots.size(), 0);
  // Seeded by the operand types, not the instruction: forms of one signature (setp.lt.f32 and
  // setp.gtu.f32) see the same inputs, which compare across forms and compress well.
  std::string signature;
  for (const AluSlot& s : f.slots) signature += fmt::format("{}:{}:{};", ptx::name(s.decl), ptx::name(s.type), s.dest);
  const std::uint64_t base = seed ^ hash_text(signature);
  std::vector<std::size_t> sources;
  for (std::size_t s = 0; s < f.slots.size(); ++s)
    if (!f.slots[s].dest && !f.slots[s].immediate()) sources.push_back(s);
  // The first cases are systematic: one source: each of its edge values in turn; several: every
  // pair of the first six edge values (+-0, +-Inf, +-NaN for floats; 0, 1, -1, the extremes and
  // the width for integers) for the first two, the others cycling through them.
  int systematic = 0;
  if (sources.size() == 1) {
    const auto e = alu_edge_values(f.slots[sources[0]].type);
    systematic = std::min<int>(cases / 2, static_cast<int>(e.size()));
    for (int c = 0; c < systematic; ++c) out[static_cast<std::size_t>(c) * f.slots.size() + sources[0]] = e[static_cast<std::size_t>(c)];
  } else if (sources.size() > 1) {
    systematic = std::min(cases / 2, 36);
    for (int c = 0; c < systematic; ++c)
      for (std::size_t k = 0; k < sources.size(); ++k) {
        const auto e = alu_edge_values(f.slots[sources[k]].type);
        const int pick = k == 0 ? c / 6 : k == 1 ? c % 6 : (c + static_cast<int>(k)) % 6;
        out[static_cast<std::size_t>(c) * f.slots.size() + sources[k]] = e[static_cast<std::size_t>(pick) % e.size()];
      }
  }
  for (int c = systematic; c < cases; ++c)
    for (std::size_t s = 0; s < f.slots.size(); ++s) {
      const AluSlot& slot = f.slots[s];
      if (slot.dest || slot.immediate()) continue;
      std::uint64_t state = base + static_cast<std::uint64_t>(c) * 0x10001ULL + s * 0x9e3779b9ULL;
      splitmix(state);
      // A narrow type in a wider register (cvt.u32.u8 reads a .b16): random high bits too, which
      // the instruction must ignore.
      std::uint64_t v = draw(slot.type, state);
      const int tw = slot.type == PtxType::pred ? 1 : ptx::bits(slot.type);
      const int rw = slot.decl == PtxType::pred ? 1 : ptx::bits(slot.decl);
      if (rw > tw && tw > 1 && (splitmix(state) & 1)) v |= splitmix(state) & ~mask_of(tw) & mask_of(rw);
      out[static_cast<std::size_t>(c) * f.slots.size() + s] = v;
    }
  return out;
}

}  // namespace ptxmma
