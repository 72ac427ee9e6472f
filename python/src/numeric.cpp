// Number formats: the PTX types, cvt-style conversion of element codes, exact values.
#include <fmt/format.h>

#include <bit>

#include <nanobind/stl/string.h>

#include "python/src/bindings.hpp"
#include "sim/error.hpp"
#include "sim/numeric/rounding.hpp"
#include "sim/numeric/type.hpp"
#include "tools/vectors/explanation.hpp"

namespace ptxmma::py {

// Same message as `ptxmma format` for an unknown type.
Type type_arg(const std::string& s) {
  if (auto t = parse_type(s)) return *t;
  std::string known;
  for (const auto& ti : all_types()) known += (known.empty() ? "" : ", ") + std::string(ti.name);
  throw Error(fmt::format("unknown type '{}' (known: {})", s, known));
}

namespace {

Rounding rounding_arg(const std::string& s) {
  if (auto r = parse_rounding(s)) return *r;
  throw Error(fmt::format("unknown rounding mode '{}' (rn, rna, rz, rm, rp)", s));
}

nb::list types() {
  nb::list out;
  for (const TypeInfo& ti : all_types()) {
    nb::dict d;
    d["name"] = std::string(ti.name);
    d["bits"] = ti.bits;
    d["shift"] = ti.shift;
    d["is_float"] = ti.is_float;
    d["is_signed"] = ti.is_signed;
    d["exp_bits"] = ti.exp_bits;
    d["man_bits"] = ti.man_bits;
    d["bias"] = ti.bias;
    out.append(d);
  }
  return out;
}

// Codes are the container's bits (tf32: bits 31:13 of a b32, as a float32 holds it; the low
// 13 bits are ignored, as the tensor cores ignore them).
Array<std::uint64_t> convert_codes(const In<std::uint64_t>& codes, const std::string& from, const std::string& to,
                                   const std::string& round, bool satfinite, bool relu) {
  const TypeInfo& src = info(type_arg(from));
  const TypeInfo& dst = info(type_arg(to));
  if (src.type == Type::b1 || dst.type == Type::b1) throw Error("b1 cannot be converted");
  const ConvertFlags flags{rounding_arg(round), satfinite, relu};
  std::vector<std::uint64_t> out(codes.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::uint64_t c = codes.data()[i];
    if ((c >> src.shift) & ~src.mask())
      throw Error(fmt::format("{:#x} is not a {} code ({} bits)", c, src.name, src.bits + src.shift));
    out[i] = convert(src.type, (c >> src.shift) & src.mask(), dst.type, flags) << dst.shift;
  }
  return to_numpy(std::move(out), {out.size()});
}

// Exact values as float64 (every format's values are float64 values; integers as numbers).
Array<double> values(const In<std::uint64_t>& codes, const std::string& type) {
  const TypeInfo& ti = info(type_arg(type));
  std::vector<double> out(codes.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::uint64_t c = (codes.data()[i] >> ti.shift) & ti.mask();
    if (ti.is_float) {
      const std::uint64_t bits = ti.type == Type::f64 ? c : convert(ti.type, c, Type::f64, ConvertFlags{});
      out[i] = std::bit_cast<double>(bits);
    } else if (ti.is_signed && (c & ti.sign_bit())) {
      out[i] = static_cast<double>(static_cast<std::int64_t>(c) - static_cast<std::int64_t>(ti.mask()) - 1);
    } else {
      out[i] = static_cast<double>(c);
    }
  }
  return to_numpy(std::move(out), {out.size()});
}

}  // namespace

void bind_numeric(nb::module_& m) {
  m.def("types", &types, "The PTX element types and their encodings.");
  m.def("convert", &convert_codes, nb::arg("codes"), nb::arg("from_"), nb::arg("to"), nb::arg("round"),
        nb::arg("satfinite"), nb::arg("relu"));
  m.def("values", &values, nb::arg("codes"), nb::arg("type"));
  // {"hex", "value"} of a container code as JSON text, as explain writes its values.
  m.def("value_json", [](const std::string& type, std::uint64_t code) {
    const TypeInfo& ti = info(type_arg(type));
    return value_json(ti.type, (code >> ti.shift) & ti.mask()).dump();
  });
}

}  // namespace ptxmma::py
