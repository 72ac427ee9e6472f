// `ptxmma format TYPE VALUE [--to TYPE --round MODE --satfinite --relu] [--json [FILE]]`: what an encoding means.
#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <optional>

#include "isa/cvt_target.hpp"
#include "sim/error.hpp"
#include "sim/numeric/exact.hpp"
#include "sim/util/target.hpp"
#include "tools/ptxmma/commands.hpp"
#include "tools/ptxmma/json_output.hpp"
#include "sim/util/suggest.hpp"
#include "tools/vectors/format_value.hpp"

namespace ptxmma::cli {
namespace {

Type require_type(const std::string& s) {
  if (auto t = parse_type(s)) return *t;
  std::string known;
  for (const auto& ti : all_types()) known += (known.empty() ? "" : ", ") + std::string(ti.name);
  std::vector<std::string> names;
  for (const auto& ti : all_types()) names.emplace_back(ti.name);
  throw Error(fmt::format("unknown type '{}'{} (known: {})", s, did_you_mean(s, names), known));
}

std::string hex(const TypeInfo& ti, std::uint64_t container) {
  const int width = ti.type == Type::tf32 ? 32 : ti.bits;
  return fmt::format("0x{:0{}x}", container, (width + 3) / 4);
}

std::string binary_fields(const TypeInfo& ti, std::uint64_t code) {
  std::string out;
  const auto bits = [&](int from, int n) {
    for (int i = n - 1; i >= 0; --i) out.push_back(((code >> (from + i)) & 1) ? '1' : '0');
  };
  if (!ti.is_float) {
    bits(0, ti.bits);
    return out;
  }
  if (ti.is_signed) { bits(ti.bits - 1, 1); out.push_back(' '); }
  bits(ti.man_bits, ti.exp_bits);
  if (ti.man_bits > 0) { out.push_back(' '); bits(0, ti.man_bits); }
  return out;
}

std::string value_text(const ExactValue& x) {
  switch (x.cls) {
    case FpClass::nan: return x.negative ? "-NaN" : "NaN";
    case FpClass::infinity: return x.negative ? "-Inf" : "+Inf";
    case FpClass::zero: return x.negative ? "-0" : "0";
    default: return to_decimal(x.value);
  }
}

void describe(const TypeInfo& ti, std::uint64_t code, std::ostream& os) {
  const std::uint64_t container = container_of(ti, code);
  os << fmt::format("{} {}\n", ti.name, hex(ti, container));
  os << fmt::format("  bits:      {}\n", binary_fields(ti, code));
  const ExactValue x = exact_value(ti.type, code);
  if (ti.is_float) {
    const Fields f = decode(ti.type, code);
    os << fmt::format("  fields:    sign {}  exponent {} (biased) {} (unbiased)  fraction 0x{:x}\n",
                      f.sign ? 1 : 0, f.biased_exp, f.exponent, f.fraction);
    if (f.cls != FpClass::nan && f.cls != FpClass::infinity)
      os << fmt::format("  value:     {}{} x 2^{}  (significand 0x{:x}, {} fraction bits)\n", f.sign ? "-" : "",
                        f.significand, f.exponent - ti.man_bits, f.significand, ti.man_bits);
    os << fmt::format("  class:     {}\n", name(f.cls));
  }
  os << fmt::format("  exact:     {}\n", value_text(x));
}

// Whether PTX's cvt converts `from` to `to` (as the PTX decoder accepts its forms,
// isa/ptx_decode_alu.cpp): the narrow float formats pack from f32, f16 or bf16 and unpack to f16
// or bf16 (ue8m0: from f32 or bf16, to bf16); tf32 comes only from f32; ue4m3 and the 4-bit
// integers have no cvt; the rest (f64, f32, f16, bf16, s32, s8, u8) convert among themselves.
bool cvt_has(Type from, Type to) {
  const auto in = [](Type t, std::initializer_list<Type> ts) { return std::find(ts.begin(), ts.end(), t) != ts.end(); };
  const auto narrow = [&](Type t) { return in(t, {Type::e4m3, Type::e5m2, Type::e3m2, Type::e2m3, Type::e2m1}); };
  const auto plain = [&](Type t) { return in(t, {Type::f64, Type::f32, Type::f16, Type::bf16, Type::s32, Type::s8, Type::u8}); };
  if (narrow(to)) return in(from, {Type::f32, Type::f16, Type::bf16});
  if (narrow(from)) return in(to, {Type::f16, Type::bf16});
  if (to == Type::ue8m0) return in(from, {Type::f32, Type::bf16});
  if (from == Type::ue8m0) return to == Type::bf16;
  if (to == Type::tf32) return from == Type::f32;
  return plain(from) && plain(to);
}

// The same as JSON: numbers as numbers.
nlohmann::json describe_json(const TypeInfo& ti, std::uint64_t code) {
  nlohmann::json j = {{"type", std::string(ti.name)}, {"hex", hex(ti, container_of(ti, code))},
                      {"bits", binary_fields(ti, code)}, {"value", value_text(exact_value(ti.type, code))}};
  if (ti.is_float) {
    const Fields f = decode(ti.type, code);
    j["sign"] = f.sign ? 1 : 0;
    j["biased_exponent"] = f.biased_exp;
    j["exponent"] = f.exponent;
    j["fraction"] = f.fraction;
    j["class"] = std::string(name(f.cls));
  }
  return j;
}

}  // namespace

void add_format_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("format", "decode an encoding or a number in an element type, and convert it");
  struct Opts {
    std::string type, value, to, round = "rn", arch;
    bool satfinite = false, relu = false;
    JsonOutput json;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("TYPE", opts->type, "element type: f64 f32 tf32 f16 bf16 e4m3 e5m2 e3m2 e2m3 e2m1 ue8m0 ue4m3 s32 s8 u8 s4 u4 b1")
      ->required();
  cmd->add_option("VALUE", opts->value, "0x<bits> (the register bits) or a decimal number (also inf, -inf, nan)");
  // CLI11 reads "-inf" and "-nan" as options; take them back as the value.
  cmd->allow_extras();
  cmd->fallthrough(false);  // nor pass them to the top level (the budget options do not apply here)
  cmd->add_option("--to", opts->to, "convert to this type (as cvt does)");
  cmd->add_option("--round", opts->round, "rounding of the conversion: rn rna rz rm rp");
  cmd->add_flag("--satfinite", opts->satfinite, "clamp to the largest finite value (PTX .satfinite)");
  cmd->add_flag("--relu", opts->relu, "negative results become +0 (PTX .relu)");
  cmd->add_option("--arch", opts->arch,
                  "target whose cvt must have this conversion (default: none; formats describe themselves everywhere)");
  opts->json.add(*cmd, "the encoding and the conversion");
  cmd->callback([opts, cmd] {
    std::vector<std::string> extras = cmd->remaining();
    std::erase(extras, "--");
    if (opts->value.empty() && extras.size() == 1) {  // "-inf", or anything after "--"
      opts->value = extras[0];
      extras.clear();
    }
    if (!extras.empty()) throw Error(fmt::format("format: unexpected argument '{}'", extras[0]));
    if (opts->value.empty()) throw Error("format: VALUE is required (0x<bits> or a decimal number)");
    if (!opts->arch.empty()) (void)require_target(opts->arch);
    const TypeInfo& ti = info(require_type(opts->type));
    if (ti.type == Type::b1 && !opts->to.empty()) throw Error("b1 cannot be converted");
    std::ostringstream notes;
    const std::uint64_t code = parse_format_value(ti, opts->value, opts->json.text() ? std::cout : notes);
    nlohmann::json j = describe_json(ti, code);
    if (!notes.str().empty()) j["notes"] = notes.str();
    if (opts->json.text()) describe(ti, code, std::cout);
    if (opts->to.empty()) {
      opts->json.write(j);
      return;
    }
    const TypeInfo& di = info(require_type(opts->to));
    if (di.type == Type::b1) throw Error("b1 cannot be converted");
    const auto mode = parse_rounding(opts->round);
    if (!mode) throw Error(fmt::format("unknown rounding mode '{}' (rn, rna, rz, rm, rp)", opts->round));
    if (!opts->arch.empty()) {
      if (!cvt_has(ti.type, di.type)) throw Error(fmt::format("format: PTX has no cvt from {} to {}", ti.name, di.name));
      const CvtForm form{di.type, ti.type, *mode, opts->relu, opts->satfinite};
      if (auto why = target_shortfall(cvt_min_target(form), opts->arch))
        throw Error(fmt::format("format: cvt from {} to {} {}", ti.name, di.name, *why));
    }
    const ConvertFlags flags{*mode, opts->satfinite, opts->relu};
    const std::uint64_t out = convert(ti.type, code, di.type, flags);
    if (opts->json.text()) {
      std::cout << fmt::format("converted (.{}{}{}):\n", name(*mode), opts->satfinite ? ".satfinite" : "",
                               opts->relu ? ".relu" : "");
      describe(di, out, std::cout);
    }
    j["converted"] = describe_json(di, out);
    j["converted"]["round"] = std::string(name(*mode));
    j["converted"]["satfinite"] = opts->satfinite;
    j["converted"]["relu"] = opts->relu;
    opts->json.write(j);
  });
}

}  // namespace ptxmma::cli
