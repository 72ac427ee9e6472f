#include "tools/vectors/element_mismatch.hpp"

#include <fmt/format.h>

#include "sim/numeric/fields.hpp"
#include "sim/numeric/packing.hpp"
#include "tools/vectors/value_text.hpp"

namespace ptxmma {
namespace {

std::string hex_of(const RegisterCodec& d, std::uint64_t raw) { return hex_text(raw, d.bits()); }

std::string value_of(const RegisterCodec& d, std::uint64_t raw) {
  return typed_text(raw, d.bits(), parse_view(name(d.type()), d.bits()));
}

ElementMismatch located(const RegisterCodec& d, int row, int col, std::uint64_t want, std::uint64_t got) {
  const int rows = d.layout().rows;
  const RegisterCodec::Place s = d.place(row / rows, row % rows, col);
  return {row, col, s.thread, s.reg, d.bits() >= 32 ? 0 : static_cast<int>(s.shift / static_cast<std::uint32_t>(d.bits())),
          want, got, ulp_distance(d, want, got)};
}

}  // namespace

std::vector<ElementMismatch> element_mismatches(const RegisterCodec& d, std::span<const std::uint32_t> want,
                                                std::span<const std::uint32_t> got) {
  std::vector<ElementMismatch> out;
  for (int r = 0; r < d.rows(); ++r)
    for (int c = 0; c < d.cols(); ++c) {
      const std::uint64_t w = d.raw(want, r, c), g = d.raw(got, r, c);
      if (w != g) out.push_back(located(d, r, c, w, g));
    }
  return out;
}

std::vector<ElementMismatch> element_mismatches_of_cells(const RegisterCodec& d, std::span<const std::uint64_t> want,
                                                         std::span<const std::uint32_t> got) {
  std::vector<ElementMismatch> out;
  for (int r = 0; r < d.rows(); ++r)
    for (int c = 0; c < d.cols(); ++c) {
      const std::uint64_t w = want[static_cast<std::size_t>(r * d.cols() + c)], g = d.raw(got, r, c);
      if (w != g) out.push_back(located(d, r, c, w, g));
    }
  return out;
}

std::optional<std::uint64_t> ulp_distance(const RegisterCodec& d, std::uint64_t a, std::uint64_t b) {
  const TypeInfo& ti = info(d.type());
  const std::uint64_t ca = element_code(d.type(), d.container(), a), cb = element_code(d.type(), d.container(), b);
  if (!ti.is_float) {
    // Integers: the difference of their values (two's complement when signed).
    const int shift = 64 - ti.bits;
    const auto value = [&ti, shift](std::uint64_t c) {
      return ti.is_signed ? static_cast<std::int64_t>(c << shift) >> shift : static_cast<std::int64_t>(c);
    };
    const std::int64_t x = value(ca), y = value(cb);
    return x > y ? static_cast<std::uint64_t>(x) - static_cast<std::uint64_t>(y)
                 : static_cast<std::uint64_t>(y) - static_cast<std::uint64_t>(x);
  }
  if (decode(d.type(), ca).cls == FpClass::nan || decode(d.type(), cb).cls == FpClass::nan) return std::nullopt;
  // Sign and magnitude: encodings of one sign are in the order of their values, so the distance
  // is the difference of magnitudes, or their sum across zero.
  const std::uint64_t sign = ti.is_signed ? ti.sign_bit() : 0;
  const std::uint64_t ma = ca & ~sign & ti.mask(), mb = cb & ~sign & ti.mask();
  const bool na = (ca & sign) != 0, nb = (cb & sign) != 0;
  if (na == nb) return ma > mb ? ma - mb : mb - ma;
  return ma + mb;
}

std::string mismatch_text(const RegisterCodec& d, const ElementMismatch& m) {
  std::string dist = "NaN";
  if (m.ulps)
    dist = info(d.type()).is_float ? fmt::format("{} ulp{}", *m.ulps, *m.ulps == 1 ? "" : "s") : fmt::format("off by {}", *m.ulps);
  return fmt::format("D[{}][{}] ({} {}, reg {}, elem {}): expected {} ({}), got {} ({}), {}", m.row, m.col,
                     d.threads() > 32 ? "thread" : "lane", m.thread, m.reg, m.elem, hex_of(d, m.want), value_of(d, m.want),
                     hex_of(d, m.got), value_of(d, m.got), dist);
}

nlohmann::json mismatch_json(const RegisterCodec& d, const ElementMismatch& m) {
  nlohmann::json j = {{"row", m.row},
                      {"col", m.col},
                      {d.threads() > 32 ? "thread" : "lane", m.thread},
                      {"register", m.reg},
                      {"element", m.elem},
                      {"expected", {{"hex", hex_of(d, m.want)}, {"value", value_of(d, m.want)}}},
                      {"got", {{"hex", hex_of(d, m.got)}, {"value", value_of(d, m.got)}}}};
  j["ulps"] = m.ulps ? nlohmann::json(*m.ulps) : nlohmann::json(nullptr);
  return j;
}

}  // namespace ptxmma
