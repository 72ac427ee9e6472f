#include "tools/vectors/alu_golden.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>

#include "isa/ptx_parser.hpp"
#include "sim/error.hpp"
#include "sim/exec/interpreter.hpp"
#include "tools/vectors/data_file.hpp"
#include "tools/vectors/manifest_json.hpp"
#include "tools/vectors/parallel.hpp"

namespace ptxmma {
namespace {

using manifest::field;
using manifest::json;
using ptx::PtxType;

int slot_bits(const AluSlot& s) { return s.decl == PtxType::pred ? 1 : ptx::bits(s.decl); }
std::uint64_t mask_of(int bits) { return bits >= 64 ? ~0ULL : (1ULL << bits) - 1; }


}  // namespace

std::string slot_text(const AluSlot& s) {
  if (s.immediate()) return fmt::format("{}:imm:{}", s.name, ptx::name(s.type));
  return fmt::format("{}:{}:{}{}", s.name, ptx::name(s.decl), ptx::name(s.type), s.dest ? ":d" : "");
}

AluSlot parse_slot_text(const std::string& text, const std::string& where) {
  std::vector<std::string> parts;
  for (std::size_t i = 0;;) {
    const std::size_t j = text.find(':', i);
    parts.push_back(text.substr(i, j == std::string::npos ? std::string::npos : j - i));
    if (j == std::string::npos) break;
    i = j + 1;
  }
  const auto bad = [&](std::string_view why) { return Error(fmt::format("{}: operand '{}': {}", where, text, why)); };
  if (parts.size() < 3 || parts.size() > 4 || (parts.size() == 4 && parts[3] != "d")) throw bad("not NAME:DECL:TYPE[:d]");
  AluSlot s;
  s.name = parts[0];
  s.dest = parts.size() == 4;
  const auto t = ptx::parse_ptx_type(parts[2]);
  if (!t) throw bad("unknown type");
  s.type = *t;
  if (parts[1] == "imm") {
    if (s.dest) throw bad("an immediate destination");
    s.decl = PtxType::none;
    return s;
  }
  const auto d = ptx::parse_ptx_type(parts[1]);
  if (!d || (*d != PtxType::pred && *d != PtxType::b16 && *d != PtxType::b32 && *d != PtxType::b64))
    throw bad("the register type is .pred, .b16, .b32 or .b64");
  s.decl = *d;
  if (s.name.empty() || s.name[0] != '%') throw bad("a register name starts with %");
  for (const char c : s.name.substr(1))
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') throw bad("a register name is %[A-Za-z0-9_]+");
  return s;
}

AluGoldenSet read_alu_golden_set(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / "manifest.json").string();
  const json j = manifest::parse(manifest::read(dir), path);
  AluGoldenSet s;
  s.dir = dir;
  if (field<std::string>(j, "format", path) != kAluGoldenFormat)
    throw Error(fmt::format("{}: format is not {}", path, kAluGoldenFormat));
  s.set = field<std::string>(j, "set", path);
  s.device = field<std::string>(j, "device", path);
  s.sm = field<std::string>(j, "sm", path);
  s.driver = field<std::string>(j, "driver", path);
  s.driver_version = static_cast<int>(manifest::integer(j, "driver_version", path, 0, 1'000'000));
  s.ptxas = field<std::string>(j, "ptxas", path);
  s.ptx_target = field<std::string>(j, "ptx_target", path);
  s.ptx_version = field<std::string>(j, "ptx_version", path);
  s.tool = field<std::string>(j, "tool", path);
  s.seed = static_cast<std::uint64_t>(manifest::integer(j, "seed", path, 0, 1LL << 53));
  s.cases = static_cast<int>(manifest::integer(j, "cases", path, 1, 4096));
  if (!j.contains("forms") || !j.at("forms").is_array()) throw Error(fmt::format("{}: missing 'forms' (an array)", path));
  if (j.at("forms").size() > 100'000) throw Error(fmt::format("{}: more than 100000 forms", path));
  std::map<std::string, std::vector<std::size_t>> by_file;
  for (const json& e : j.at("forms")) {
    const std::string where = fmt::format("{}: form {}", path, s.forms.size());
    AluGoldenForm g;
    g.form.line = field<std::string>(e, "ptx", where);
    g.form.text = g.form.line.substr(0, g.form.line.find(' '));
    const auto ops = field<std::vector<std::string>>(e, "operands", where);
    if (ops.empty() || ops.size() > 8) throw Error(fmt::format("{} ('{}'): 1 to 8 operands", where, g.form.line));
    for (const std::string& o : ops) g.form.slots.push_back(parse_slot_text(o, where));
    g.file = field<std::string>(e, "file", where);
    if (g.file.find('/') != std::string::npos || g.file.find("..") != std::string::npos || !g.file.ends_with(".bin"))
      throw Error(fmt::format("{}: file '{}' is not NAME.bin in the set", where, g.file));
    by_file[g.file].push_back(s.forms.size());
    s.forms.push_back(std::move(g));
  }
  for (const auto& [file, idx] : by_file) {
    const std::string fp = (std::filesystem::path(dir) / file).string();
    const std::vector<std::uint8_t> bytes = read_data_file(fp);
    std::size_t at = 0;
    for (const std::size_t i : idx) {
      AluGoldenForm& g = s.forms[i];
      const std::size_t n = static_cast<std::size_t>(s.cases) * g.form.slots.size();
      if (bytes.size() < at + 8 * n)
        throw Error(fmt::format("{}: too short: '{}' (form {}) needs bytes {} to {}, the file has {}", fp, g.form.line, i,
                                at, at + 8 * n, bytes.size()));
      g.words.resize(n);
      for (std::size_t w = 0; w < n; ++w) {
        std::uint64_t v = 0;
        for (int b = 7; b >= 0; --b) v = (v << 8) | bytes[at + 8 * w + static_cast<std::size_t>(b)];
        g.words[w] = v;
      }
      at += 8 * n;
    }
    if (at != bytes.size()) throw Error(fmt::format("{}: {} bytes, its forms take {}", fp, bytes.size(), at));
  }
  return s;
}

void write_alu_golden_set(const AluGoldenSet& s, const std::string& dir) {
  std::filesystem::create_directories(dir);
  json j;
  j["format"] = kAluGoldenFormat;
  j["set"] = s.set;
  j["device"] = s.device;
  j["sm"] = s.sm;
  j["driver"] = s.driver;
  j["driver_version"] = s.driver_version;
  j["ptxas"] = s.ptxas;
  j["ptx_target"] = s.ptx_target;
  j["ptx_version"] = s.ptx_version;
  j["tool"] = s.tool;
  j["seed"] = s.seed;
  j["cases"] = s.cases;
  j["forms"] = json::array();
  std::map<std::string, std::string> files;
  for (const AluGoldenForm& g : s.forms) {
    json ops = json::array();
    for (const AluSlot& sl : g.form.slots) ops.push_back(slot_text(sl));
    j["forms"].push_back({{"ptx", g.form.line}, {"operands", ops}, {"file", g.file}});
    std::string& bytes = files[g.file];
    for (const std::uint64_t w : g.words)
      for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<char>((w >> (8 * b)) & 0xff));
  }
  const auto write = [](const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    if (!out || !(out << text)) throw Error(fmt::format("{}: cannot write", path));
  };
  std::string text = "{\n";
  // One form per line, so that diffs between captures are readable.
  bool first = true;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "forms") continue;
    text += fmt::format("{}  {}: {}", first ? "" : ",\n", json(it.key()).dump(), it.value().dump());
    first = false;
  }
  text += ",\n  \"forms\": [\n";
  for (std::size_t i = 0; i < j["forms"].size(); ++i)
    text += fmt::format("    {}{}\n", j["forms"][i].dump(), i + 1 < j["forms"].size() ? "," : "");
  text += "  ]\n}\n";
  write((std::filesystem::path(dir) / "manifest.json").string(), text);
  for (const auto& [file, bytes] : files) write((std::filesystem::path(dir) / file).string(), bytes);
}

namespace {

std::string hex(std::uint64_t v, int bits) { return fmt::format("0x{:0{}x}", v, std::max(1, (bits + 3) / 4)); }

AluFormResult replay_form(const AluGoldenSet& set, const AluGoldenForm& g) {
  AluFormResult r;
  r.line = g.form.line;
  r.cases = set.cases;
  const std::vector<AluSlot>& slots = g.form.slots;
  try {
    std::string text = fmt::format(".target {}\n", set.ptx_target);
    for (const AluSlot& s : slots)
      if (!s.immediate()) text += fmt::format(".reg .{} {};\n", ptx::name(s.decl), s.name);
    text += g.form.line + "\n";
    const ptx::Program prog = ptx::parse_ptx(text, fmt::format("{} ({})", set.dir, g.form.text));
    std::vector<int> regs;
    for (const AluSlot& s : slots) regs.push_back(s.immediate() ? -1 : prog.find_register(s.name));
    for (int base = 0; base < set.cases; base += Machine::kLanes) {
      const int n = std::min(Machine::kLanes, set.cases - base);
      InterpreterOptions o;
      o.ntid = {n, 1, 1};
      Machine m(prog, o);
      for (int lane = 0; lane < n; ++lane)
        for (std::size_t i = 0; i < slots.size(); ++i)
          if (!slots[i].dest && regs[i] >= 0)
            m.set_reg(lane, regs[i], g.words[static_cast<std::size_t>(base + lane) * slots.size() + i]);
      std::string warnings;
      for (const ptx::Diagnostic& d : m.run().warnings) warnings += "      warning: " + d.message + "\n";
      for (int lane = 0; lane < n; ++lane) {
        const std::size_t at = static_cast<std::size_t>(base + lane) * slots.size();
        bool bad = false;
        for (std::size_t i = 0; i < slots.size(); ++i)
          if (slots[i].dest && (m.reg(lane, regs[i]) & mask_of(slot_bits(slots[i]))) !=
                                   (g.words[at + i] & mask_of(slot_bits(slots[i]))))
            bad = true;
        if (!bad) continue;
        ++r.failed;
        if (!r.first_failure.empty()) continue;
        std::string in, want, got;
        for (std::size_t i = 0; i < slots.size(); ++i) {
          const int b = slot_bits(slots[i]);
          if (slots[i].immediate()) continue;
          if (!slots[i].dest) {
            in += fmt::format(" {}={}", slots[i].name, hex(g.words[at + i], b));
          } else {
            want += fmt::format(" {}={}", slots[i].name, hex(g.words[at + i] & mask_of(b), b));
            got += fmt::format(" {}={}", slots[i].name, hex(m.reg(lane, regs[i]) & mask_of(b), b));
          }
        }
        r.first_failure = fmt::format("    case {}:{}\n      gpu:      {}\n      ptxmma:   {}\n{}", base + lane, in, want, got,
                                      warnings);
      }
    }
  } catch (const std::exception& e) {
    r.error = e.what();
    r.failed = set.cases;
  }
  return r;
}

}  // namespace

AluReplayReport replay_alu(const AluGoldenSet& set, int jobs) {
  AluReplayReport rep;
  rep.set = set.dir;
  rep.device = set.device;
  rep.forms.resize(set.forms.size());
  parallel_for(set.forms.size(), jobs, [&](std::size_t i) { rep.forms[i] = replay_form(set, set.forms[i]); });
  for (const AluFormResult& f : rep.forms) {
    rep.failed += f.failed;
    rep.passed += f.cases - f.failed;
  }
  return rep;
}

void print(const AluReplayReport& r, std::ostream& os) {
  os << fmt::format("replay {} ({}): {} forms\n", r.set, r.device, r.forms.size());
  for (const AluFormResult& f : r.forms) {
    if (f.failed == 0) continue;
    os << fmt::format("  {}  failed {} of {}\n", f.line, f.failed, f.cases);
    if (!f.error.empty()) os << "    error: " << f.error << "\n";
    os << f.first_failure;
  }
  os << fmt::format("replay: {} passed, {} failed\n", r.passed, r.failed);
}

}  // namespace ptxmma
