// `ptxmma eval INSTRUCTION VALUE...`: one approximate special-function instruction (ex2.approx.f32,
// rcp.approx.ftz.f32, tanh.approx.f16x2, ...) on each VALUE (div: on each pair of VALUEs, a b),
// with the GPU's bits.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "sim/error.hpp"
#include "sim/catalog/special_function.hpp"
#include "tools/ptxmma/commands.hpp"
#include "tools/ptxmma/json_output.hpp"
#include "sim/util/suggest.hpp"
#include "tools/vectors/word_format.hpp"
#include "tools/vectors/format_value.hpp"

namespace ptxmma::cli {
namespace {

Type lane_type(SpecialType t) {
  switch (t) {
    case SpecialType::f32: return Type::f32;
    case SpecialType::f64: return Type::f64;
    case SpecialType::f16:
    case SpecialType::f16x2: return Type::f16;
    case SpecialType::bf16:
    case SpecialType::bf16x2: return Type::bf16;
  }
  return Type::f32;
}

bool paired(SpecialType t) { return t == SpecialType::f16x2 || t == SpecialType::bf16x2; }

// A register: bits and value (x2 forms: each lane, high lane first as in the register).
std::string register_text(SpecialType t, std::uint64_t bits) {
  const Type lt = lane_type(t);
  if (t == SpecialType::f64) return fmt::format("0x{:016x} ({})", bits, format_value(lt, bits));
  if (t == SpecialType::f32) return fmt::format("0x{:08x} ({})", bits, format_value(lt, bits));
  if (!paired(t)) return fmt::format("0x{:04x} ({})", bits & 0xffff, format_value(lt, bits & 0xffff));
  return fmt::format("0x{:08x} ({}, {})", bits, format_value(lt, bits >> 16), format_value(lt, bits & 0xffff));
}

// x2 forms: 0x<8 hex digits> is the register; a decimal number goes into both lanes.
std::uint64_t parse_register(SpecialType t, const std::string& text) {
  const TypeInfo& ti = info(lane_type(t));
  if (paired(t) && text.size() > 6 && (text.starts_with("0x") || text.starts_with("0X"))) {
    std::size_t used = 0;
    unsigned long v = 0;
    try {
      v = std::stoul(text.substr(2), &used, 16);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != text.size() - 2 || v > 0xffffffffUL)
      throw Error(fmt::format("eval: '{}' is not 0x and at most 8 hex digits (the {}x2 register)", text, ti.name));
    return static_cast<std::uint32_t>(v);
  }
  const std::uint64_t lane = parse_format_value(ti, text, std::cout);
  return paired(t) ? lane | lane << 16 : lane;
}

// The same as {"hex", "value"}.
nlohmann::json register_json(SpecialType t, std::uint64_t bits) {
  const std::string text = register_text(t, bits);
  const std::size_t paren = text.find(" (");
  return {{"hex", text.substr(0, paren)}, {"value", text.substr(paren + 2, text.size() - paren - 3)}};
}

}  // namespace

void add_eval_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("eval", "evaluate an approximate special-function instruction as the GPU does");
  struct Opts {
    std::string instruction;
    std::vector<std::string> values;
    JsonOutput json;
  };
  auto opts = std::make_shared<Opts>();
  std::string known;
  for (const auto& n : special_instruction_names()) known += (known.empty() ? "" : " ") + n;
  cmd->add_option("INSTRUCTION", opts->instruction, "one of: " + known)->required();
  cmd->add_option("VALUE", opts->values, "0x<bits> or a decimal number (also inf, nan); x2 forms: 0x<32 bits> or one number for both lanes; div: pairs a b");
  // CLI11 reads "-inf" and "-1.5" as options; take them back as values.
  cmd->allow_extras();
  opts->json.add(*cmd, "each evaluation");
  cmd->callback([opts, cmd, known] {
    std::vector<std::string> values = opts->values;
    for (const auto& e : cmd->remaining())
      if (e != "--") values.push_back(e);
    const auto s = parse_special_instruction(opts->instruction);
    if (!s)
      throw Error(fmt::format("eval: unknown instruction '{}'{} (modelled: {})", opts->instruction,
                              did_you_mean(opts->instruction, special_instruction_names()), known));
    if (values.empty()) throw Error("eval: VALUE is required (0x<bits> or a decimal number)");
    const auto n = static_cast<std::size_t>(arity(*s));
    if (values.size() % n != 0)
      throw Error(fmt::format("eval: {} takes its sources in pairs (a b), {} values given", opts->instruction, values.size()));
    nlohmann::json results = nlohmann::json::array();
    for (std::size_t i = 0; i < values.size(); i += n) {
      const std::uint64_t a = parse_register(s->type, values[i]), b = n == 2 ? parse_register(s->type, values[i + 1]) : 0;
      const std::uint64_t d = evaluate(*s, a, b);
      if (opts->json.text())
        std::cout << fmt::format("{} {}{} -> {}\n", opts->instruction, register_text(s->type, a),
                                 n == 2 ? " " + register_text(s->type, b) : "", register_text(s->type, d));
      nlohmann::json inputs = nlohmann::json::array({register_json(s->type, a)});
      if (n == 2) inputs.push_back(register_json(s->type, b));
      results.push_back({{"instruction", opts->instruction}, {"inputs", std::move(inputs)}, {"result", register_json(s->type, d)}});
    }
    opts->json.write(results);
  });
}

}  // namespace ptxmma::cli
