// The approximate special functions (sim/catalog/special_function.hpp) on arrays of register bits.
#include <fmt/format.h>

#include <nanobind/stl/string.h>

#include "python/src/bindings.hpp"
#include "sim/catalog/special_function.hpp"
#include "sim/error.hpp"

namespace ptxmma::py {

namespace {

SpecialInstruction special_arg(const std::string& name) {
  if (auto s = parse_special_instruction(name)) return *s;
  std::string known;
  for (const auto& n : special_instruction_names()) known += (known.empty() ? "" : ", ") + n;
  throw Error(fmt::format("unknown instruction '{}' (known: {})", name, known));
}

// The element type the Python layer converts arguments with ("f16x2"/"bf16x2": packed b32 words).
nb::dict special_info(const std::string& name) {
  const SpecialInstruction s = special_arg(name);
  const char* type = "f32";
  switch (s.type) {
    case SpecialType::f32: type = "f32"; break;
    case SpecialType::f64: type = "f64"; break;
    case SpecialType::f16: type = "f16"; break;
    case SpecialType::f16x2: type = "f16x2"; break;
    case SpecialType::bf16: type = "bf16"; break;
    case SpecialType::bf16x2: type = "bf16x2"; break;
  }
  nb::dict d;
  d["type"] = std::string(type);
  d["arity"] = arity(s);
  return d;
}

Array<std::uint64_t> special_eval(const std::string& name, const In<std::uint64_t>& a, const In<std::uint64_t>& b) {
  const SpecialInstruction s = special_arg(name);
  const bool two = arity(s) == 2;
  if (two && b.size() != a.size()) throw Error(fmt::format("{} takes pairs: {} dividends, {} divisors", name, a.size(), b.size()));
  std::vector<std::uint64_t> out(a.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = evaluate(s, a.data()[i], two ? b.data()[i] : 0);
  return to_numpy(std::move(out), {out.size()});
}

}  // namespace

void bind_special(nb::module_& m) {
  m.def("special_info", &special_info, nb::arg("name"));
  m.def("special_eval", &special_eval, nb::arg("name"), nb::arg("a"), nb::arg("b"));
}

}  // namespace ptxmma::py
