#include "tools/vectors/value_text.hpp"

#include <fmt/format.h>

#include <charconv>
#include <sstream>
#include <vector>

#include "sim/error.hpp"
#include "sim/numeric/exact.hpp"
#include "tools/vectors/word_format.hpp"

namespace ptxmma {
namespace {

std::uint64_t mask_of(int bits) { return bits >= 64 ? ~0ULL : (1ULL << bits) - 1; }

// Natural container of an element format when packed in registers.
int natural_bits(Type t) {
  switch (t) {
    case Type::e3m2:
    case Type::e2m3: return 8;
    case Type::tf32: return 32;
    default: return info(t).bits;
  }
}

std::optional<ValueView> base_view(std::string_view s) {
  if (const auto pt = ptx::parse_ptx_type(s); pt && *pt != ptx::PtxType::none) {
    ValueView v;
    v.name = std::string(s);
    switch (ptx::type_class(*pt)) {
      case ptx::TypeClass::pred: v.kind = ValueView::Kind::pred; v.container = 1; return v;
      case ptx::TypeClass::bits: v.kind = ValueView::Kind::bits; v.container = ptx::bits(*pt); return v;
      case ptx::TypeClass::unsigned_int: v.kind = ValueView::Kind::unsigned_int; v.container = ptx::bits(*pt); return v;
      case ptx::TypeClass::signed_int: v.kind = ValueView::Kind::signed_int; v.container = ptx::bits(*pt); return v;
      default:
        v.kind = ValueView::Kind::floating;
        v.elem = *ptx::element_format(*pt);
        v.count = ptx::lanes_of(*pt);
        v.container = ptx::bits(*pt) / v.count;
        return v;
    }
  }
  if (const auto t = parse_type(s)) {
    ValueView v;
    v.name = std::string(s);
    const TypeInfo& ti = info(*t);
    if (*t == Type::b1) {
      v.kind = ValueView::Kind::bits;
      v.container = 1;
    } else if (!ti.is_float) {
      v.kind = ti.is_signed ? ValueView::Kind::signed_int : ValueView::Kind::unsigned_int;
      v.container = ti.bits;
    } else {
      v.kind = ValueView::Kind::floating;
      v.elem = *t;
      v.container = natural_bits(*t);
    }
    return v;
  }
  return std::nullopt;
}

}  // namespace

ValueView parse_view(std::string_view spec, int width) {
  std::optional<ValueView> v = base_view(spec);
  int count = 0;
  if (!v) {
    const std::size_t x = spec.rfind('x');
    if (x != std::string_view::npos && x + 1 < spec.size()) {
      int n = 0;
      const auto [p, ec] = std::from_chars(spec.data() + x + 1, spec.data() + spec.size(), n);
      if (ec == std::errc() && p == spec.data() + spec.size() && n > 0) {
        v = base_view(spec.substr(0, x));
        if (v && v->count != 1) v.reset();
        if (v) {
          count = n;
          v->container = width / n;
        }
      }
    }
  }
  if (!v)
    throw Error(fmt::format("unknown type '{}' (a PTX type such as f32, f16x2, e4m3x2, s32, or an element type with "
                            "a count such as e4m3x4, e2m1x8)",
                            spec));
  v->name = std::string(spec);
  if (v->kind == ValueView::Kind::pred) {
    if (width != 1) throw Error(fmt::format("'{}' views a predicate, not a {}-bit register", spec, width));
    return *v;
  }
  if (count == 0) {
    if (v->count == 1 && v->container < width && width % v->container == 0 && v->kind == ValueView::Kind::floating)
      v->count = width / v->container;  // an element format alone fills the register
  } else {
    v->count = count;
  }
  if (v->count * v->container != width)
    throw Error(fmt::format("'{}' is {} bits; the register has {}", spec, v->count * v->container, width));
  if (v->kind == ValueView::Kind::floating && v->elem != Type::tf32 && v->container < natural_bits(v->elem) &&
      !(v->elem == Type::e3m2 || v->elem == Type::e2m3))
    throw Error(fmt::format("'{}': {} elements do not fit in {} bits", spec, name(v->elem), v->container));
  return *v;
}

ValueView default_view(ptx::PtxType declared) {
  return parse_view(ptx::name(declared), ptx::bits(declared));
}

std::string hex_text(std::uint64_t bits, int width) {
  if (width == 1) return std::to_string(bits & 1U);
  return fmt::format("0x{:0{}x}", bits & mask_of(width), (width + 3) / 4);
}

std::string typed_text(std::uint64_t bits, int width, const ValueView& v) {
  bits &= mask_of(width);
  switch (v.kind) {
    case ValueView::Kind::pred: return std::to_string(bits & 1U);
    case ValueView::Kind::bits:
    case ValueView::Kind::unsigned_int:
    case ValueView::Kind::signed_int: {
      std::string out;
      for (int i = 0; i < v.count; ++i) {
        const std::uint64_t e = (bits >> (i * v.container)) & mask_of(v.container);
        std::string s;
        if (v.kind == ValueView::Kind::signed_int && v.container < 64 && ((e >> (v.container - 1)) & 1U))
          s = std::to_string(static_cast<std::int64_t>(e | ~mask_of(v.container)));
        else if (v.kind == ValueView::Kind::signed_int)
          s = std::to_string(static_cast<std::int64_t>(e));
        else
          s = std::to_string(e);
        out += (i ? ", " : "") + s;
      }
      return v.count > 1 ? "(" + out + ")" : out;
    }
    case ValueView::Kind::floating: {
      std::string out;
      const TypeInfo& ti = info(v.elem);
      for (int i = 0; i < v.count; ++i) {
        std::uint64_t e = (bits >> (i * v.container)) & mask_of(v.container);
        e = v.elem == Type::tf32 ? code_of(ti, e) : e & ti.mask();
        out += (i ? ", " : "") + format_value(v.elem, e);
      }
      return v.count > 1 ? "(" + out + ")" : out;
    }
  }
  return "";
}

namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

bool parse_hex(std::string_view s, std::uint64_t& out) {
  if (s.size() < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return false;
  const auto [p, ec] = std::from_chars(s.data() + 2, s.data() + s.size(), out, 16);
  if (ec != std::errc() || p != s.data() + s.size()) throw Error(fmt::format("malformed hex value '{}'", s));
  return true;
}

// One element of `bits` bits in the view's kind.
std::uint64_t element_value(std::string_view s, const ValueView& v, int bits) {
  std::uint64_t h = 0;
  if (parse_hex(s, h)) {
    if (bits < 64 && (h >> bits) != 0) throw Error(fmt::format("'{}' does not fit in {} bits", s, bits));
    return h;
  }
  if (v.kind == ValueView::Kind::pred) {
    if (s == "1" || s == "true") return 1;
    if (s == "0" || s == "false") return 0;
    throw Error(fmt::format("'{}' is not a predicate value (0, 1, true, false)", s));
  }
  const auto x = parse_decimal(std::string(s));
  if (!x) throw Error(fmt::format("malformed number '{}'", s));
  if (v.kind == ValueView::Kind::floating) {
    const TypeInfo& ti = info(v.elem);
    if (x->cls == FpClass::infinity && !ti.has_inf) throw Error(fmt::format("{} has no infinity", ti.name));
    if (x->cls == FpClass::nan && ti.nan == NanCode::none) throw Error(fmt::format("{} has no NaN", ti.name));
    const std::uint64_t code = round_in_range(v.elem, *x, s);
    return v.elem == Type::tf32 ? container_of(ti, code) : code;
  }
  if (x->cls != FpClass::zero && x->cls != FpClass::normal && x->cls != FpClass::subnormal)
    throw Error(fmt::format("'{}' is not an integer", s));
  if (denominator(x->value) != 1) throw Error(fmt::format("'{}' is not an integer", s));
  const BigInt n = numerator(x->value);
  const bool sgn = v.kind == ValueView::Kind::signed_int || (v.kind == ValueView::Kind::bits && n < 0);
  const BigInt lo = sgn ? -(BigInt(1) << (bits - 1)) : BigInt(0);
  const BigInt hi = v.kind == ValueView::Kind::signed_int ? (BigInt(1) << (bits - 1)) - 1 : (BigInt(1) << bits) - 1;
  if (n < lo || n > hi) throw Error(fmt::format("{} is out of range for {} bits", s, bits));
  const BigInt u = n < 0 ? n + (BigInt(1) << bits) : n;
  return static_cast<std::uint64_t>(u);
}

}  // namespace

std::uint64_t round_in_range(Type t, const ExactValue& x, std::string_view text) {
  const TypeInfo& ti = info(t);
  const std::uint64_t code = round_exact(t, x, ConvertFlags{});
  if (x.cls == FpClass::nan || x.cls == FpClass::infinity) return code;
  const ExactValue got = exact_value(t, code);
  if (got.cls == FpClass::nan || got.cls == FpClass::infinity || (x.negative && !ti.is_signed && x.value != 0))
    throw Error(fmt::format("value {} is out of range for {} (largest finite {})", text, ti.name,
                            to_decimal(exact_value(t, ti.max_finite()).value)));
  return code;
}

std::uint64_t parse_value_text(std::string_view raw, int width, ptx::PtxType declared) {
  const std::string text = trim(raw);
  if (text.empty()) throw Error("empty value");
  std::vector<std::string> words;
  {
    std::istringstream in(text);
    std::string w;
    while (in >> w) {
      if (!w.empty() && w.back() == ',') w.pop_back();
      if (!w.empty()) words.push_back(w);
    }
  }
  const auto word_is_view = [&](const std::string& w) {
    return !w.empty() && (std::isalpha(static_cast<unsigned char>(w[0])) != 0) && w != "inf" && w != "nan" &&
           w != "true" && w != "false" && w != "Inf" && w != "NaN";
  };
  if (words.size() > 1 || (words.size() == 1 && word_is_view(words[0]) && words[0] != "inf" && base_view(words[0]))) {
    if (!word_is_view(words[0])) throw Error(fmt::format("'{}': several values need a type first, e.g. 'f16x2 1 2'", text));
    const ValueView v = parse_view(words[0], width);
    const std::size_t n = words.size() - 1;
    if (n != static_cast<std::size_t>(v.count))
      throw Error(fmt::format("'{}': {} takes {} value{}, found {}", text, words[0], v.count, v.count == 1 ? "" : "s", n));
    std::uint64_t out = 0;
    for (int i = 0; i < v.count; ++i) {
      std::uint64_t e = element_value(words[static_cast<std::size_t>(i) + 1], v, v.container);
      if (v.kind == ValueView::Kind::floating && v.elem != Type::tf32) e &= info(v.elem).mask();
      out |= (e & mask_of(v.container)) << (i * v.container);
    }
    return out;
  }
  // One word in the declared type.
  const ValueView v = default_view(declared);
  if (v.count > 1) {
    std::uint64_t h = 0;
    if (parse_hex(text, h)) return element_value(text, ValueView{ValueView::Kind::bits, "", Type::f32, width, 1}, width);
    throw Error(fmt::format("'{}': a .{} register takes {} values, e.g. '{} 1 2'", text, ptx::name(declared), v.count,
                            ptx::name(declared)));
  }
  return element_value(text, v, width);
}

std::optional<std::uint32_t> lane_mask(std::string_view s) {
  std::uint32_t mask = 0;
  const auto lane = [](std::string_view t, int& out) {
    const auto [e, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
    return ec == std::errc() && e == t.data() + t.size() && out >= 0 && out < 32;
  };
  for (std::size_t p = 0; p <= s.size();) {
    std::size_t q = s.find(',', p);
    if (q == std::string_view::npos) q = s.size();
    const std::string_view part = s.substr(p, q - p);
    int lo = 0, hi = 0;
    const std::size_t dash = part.find('-');
    const bool ok = dash == std::string_view::npos
                        ? (lane(part, lo) && (hi = lo, true))
                        : (lane(part.substr(0, dash), lo) && lane(part.substr(dash + 1), hi) && lo <= hi);
    if (!ok) return std::nullopt;
    for (int l = lo; l <= hi; ++l) mask |= 1U << l;
    p = q + 1;
  }
  return mask;
}

}  // namespace ptxmma
