// make_alu_capture: the host side of the ALU capture (README.md, "alu_capture").
//   make_alu_capture --list [--target T] [OPCODE...]        the forms the decoder accepts
//   make_alu_capture --plan DIR [--cases N] [--seed S] [--target T] [--ptxas P] [OPCODE...]
//       one kernel per form (loads its sources, runs it, stores its destinations), assembled
//       with ptxas here; forms ptxas refuses are dropped and listed in DIR/refused.txt with its
//       message; writes DIR/plan.txt, DIR/*.cubin, DIR/inputs.bin and DIR/inputs/ (an
//       inputs-only golden set)
//   make_alu_capture --collect DIR --out SET [--set NAME]   DIR/outputs.bin + DIR/device.txt
//       (written by alu_capture on the GPU) -> the golden set SET
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "sim/error.hpp"
#include "tools/vectors/alu_forms.hpp"
#include "tools/vectors/alu_golden.hpp"
#include "tools/vectors/alu_inputs.hpp"

namespace ptxmma {
namespace {

namespace fs = std::filesystem;
using ptx::PtxType;

constexpr std::size_t kKernelsPerModule = 256;
constexpr std::string_view kPtxVersion = "8.8";

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot open", p.string()));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  if (!out || !(out << text)) throw Error(fmt::format("{}: cannot write", p.string()));
}

std::string run_command(const std::string& cmd, int& status) {
  std::FILE* f = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!f) throw Error(fmt::format("cannot run '{}'", cmd));
  std::string out;
  char buf[4096];
  while (const std::size_t n = std::fread(buf, 1, sizeof buf, f)) out.append(buf, n);
  status = ::pclose(f);
  return out;
}

// A kernel running one form: thread t loads the source operands of case t (8-byte words, one
// per operand, at in + 8 * (t * slots + i)), runs the instruction and stores its destinations at
// the same places of out (predicates as a .u32 0 or 1).
std::string kernel(const AluForm& f, std::size_t index, int& first_line, int line) {
  std::string k = fmt::format(".visible .entry f{}(.param .u64 in, .param .u64 out)\n{{\n", index);
  k += "  .reg .b64 %cin, %cout, %coff;\n  .reg .b32 %ct, %cw;\n";
  for (const AluSlot& s : f.slots)
    if (!s.immediate()) k += fmt::format("  .reg .{} {};\n", ptx::name(s.decl), s.name);
  k += "  ld.param.u64 %cin, [in];\n  ld.param.u64 %cout, [out];\n  cvta.to.global.u64 %cin, %cin;\n"
       "  cvta.to.global.u64 %cout, %cout;\n  mov.u32 %ct, %tid.x;\n";
  k += fmt::format("  mul.wide.u32 %coff, %ct, {};\n  add.u64 %cin, %cin, %coff;\n  add.u64 %cout, %cout, %coff;\n",
                   8 * f.slots.size());
  for (std::size_t i = 0; i < f.slots.size(); ++i) {
    const AluSlot& s = f.slots[i];
    if (s.dest || s.immediate()) continue;
    if (s.decl == PtxType::pred)
      k += fmt::format("  ld.global.u32 %cw, [%cin+{}];\n  setp.ne.u32 {}, %cw, 0;\n", 8 * i, s.name);
    else
      k += fmt::format("  ld.global.{} {}, [%cin+{}];\n", ptx::name(s.decl), s.name, 8 * i);
  }
  const int body_lines = static_cast<int>(std::count(k.begin(), k.end(), '\n'));
  first_line = line + body_lines;
  k += "  " + f.line + "\n";
  for (std::size_t i = 0; i < f.slots.size(); ++i) {
    const AluSlot& s = f.slots[i];
    if (!s.dest) continue;
    if (s.decl == PtxType::pred)
      k += fmt::format("  selp.u32 %cw, 1, 0, {};\n  st.global.u32 [%cout+{}], %cw;\n", s.name, 8 * i);
    else
      k += fmt::format("  st.global.{} [%cout+{}], {};\n", ptx::name(s.decl), 8 * i, s.name);
  }
  return k + "  ret;\n}\n";
}

struct Module {
  std::string text;
  std::map<int, std::size_t> line_to_form;  // the instruction's line -> form index
};

Module module(const std::vector<AluForm>& forms, const std::vector<std::size_t>& idx, const std::string& target) {
  Module m;
  m.text = fmt::format(".version {}\n.target {}\n.address_size 64\n\n", kPtxVersion, target);
  for (const std::size_t i : idx) {
    const int line = static_cast<int>(std::count(m.text.begin(), m.text.end(), '\n')) + 1;
    int at = 0;
    m.text += kernel(forms[i], i, at, line) + "\n";
    m.line_to_form[at] = i;
  }
  return m;
}

int list(const std::string& target, const std::vector<std::string>& opcodes) {
  const auto forms = enumerate_alu_forms(target, opcodes);
  for (const AluForm& f : forms) {
    std::cout << f.line;
    for (const AluSlot& s : f.slots) std::cout << "  " << slot_text(s);
    std::cout << (f.approx ? "  (approximation)\n" : "\n");
  }
  std::cerr << forms.size() << " forms\n";
  return 0;
}

int plan(const fs::path& dir, int cases, std::uint64_t seed, const std::string& target, const std::string& ptxas,
         const std::vector<std::string>& opcodes) {
  std::vector<AluForm> forms;
  for (AluForm& f : enumerate_alu_forms(target, opcodes))
    if (!f.approx) forms.push_back(std::move(f));
  fs::create_directories(dir);
  std::vector<std::size_t> live(forms.size());
  for (std::size_t i = 0; i < forms.size(); ++i) live[i] = i;
  std::string refused;
  std::vector<std::vector<std::size_t>> chunks;
  for (std::size_t at = 0; at < live.size(); at += kKernelsPerModule)
    chunks.emplace_back(live.begin() + static_cast<long>(at),
                        live.begin() + static_cast<long>(std::min(live.size(), at + kKernelsPerModule)));
  int status = 0;
  const std::string version = run_command(ptxas + " --version", status);
  if (status != 0) throw Error(fmt::format("'{} --version' failed: {}", ptxas, version));
  std::string plan_text = fmt::format("cases {}\n", cases);
  AluGoldenSet inputs;
  inputs.cases = cases;
  inputs.seed = seed;
  inputs.device = "none";
  inputs.sm = "none";
  inputs.driver = "none";
  inputs.ptx_target = target;
  inputs.ptx_version = std::string(kPtxVersion);
  inputs.ptxas = version.substr(version.rfind("Cuda compilation tools"));
  while (!inputs.ptxas.empty() && inputs.ptxas.back() == '\n') inputs.ptxas.pop_back();
  std::replace(inputs.ptxas.begin(), inputs.ptxas.end(), '\n', ' ');
  inputs.tool = "make_alu_capture + alu_capture";
  std::string in_bytes;
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    std::vector<std::size_t> idx = chunks[c];
    const fs::path ptx = dir / fmt::format("m{:03}.ptx", c), cubin = dir / fmt::format("m{:03}.cubin", c);
    for (int round = 0;; ++round) {
      if (idx.empty() || round > 50) break;
      const Module m = module(forms, idx, target);
      write_text(ptx, m.text);
      const std::string out = run_command(fmt::format("{} -arch={} {} -o {}", ptxas, target, ptx.string(), cubin.string()), status);
      if (status == 0) break;
      std::set<std::size_t> bad;
      std::istringstream lines(out);
      for (std::string l; std::getline(lines, l);) {
        const std::size_t p = l.find(", line ");
        if (p == std::string::npos) continue;
        const int n = std::atoi(l.c_str() + p + 7);
        const auto it = m.line_to_form.find(n);
        if (it == m.line_to_form.end()) throw Error(fmt::format("{}: ptxas refused a line that is not an instruction under test:\n{}", ptx.string(), out));
        if (bad.insert(it->second).second) refused += fmt::format("{}\t{}\n", forms[it->second].line, l.substr(l.find("error")));
      }
      if (bad.empty()) throw Error(fmt::format("{}: ptxas failed:\n{}", ptx.string(), out));
      std::erase_if(idx, [&](std::size_t i) { return bad.count(i) != 0; });
    }
    if (idx.empty()) continue;
    plan_text += fmt::format("module {}\n", cubin.filename().string());
    for (const std::size_t i : idx) {
      plan_text += fmt::format("kernel f{} {}\n", i, forms[i].slots.size());
      AluGoldenForm g;
      g.form = forms[i];
      g.file = forms[i].text.substr(0, forms[i].text.find('.')) + ".bin";
      g.words = alu_inputs(forms[i], cases, seed);
      for (const std::uint64_t w : g.words)
        for (int b = 0; b < 8; ++b) in_bytes.push_back(static_cast<char>((w >> (8 * b)) & 0xff));
      inputs.forms.push_back(std::move(g));
    }
  }
  write_text(dir / "plan.txt", plan_text);
  write_text(dir / "inputs.bin", in_bytes);
  write_text(dir / "refused.txt", refused);
  write_alu_golden_set(inputs, (dir / "inputs").string());
  std::cerr << fmt::format("{} forms planned, {} refused by ptxas (refused.txt), {} cases each\n", inputs.forms.size(),
                           std::count(refused.begin(), refused.end(), '\n'), cases);
  return 0;
}

int collect(const fs::path& dir, const std::string& out, const std::string& name) {
  AluGoldenSet s = read_alu_golden_set((dir / "inputs").string());
  const std::string bytes = read_text(dir / "outputs.bin");
  std::size_t need = 0;
  for (const AluGoldenForm& g : s.forms) need += 8 * g.words.size();
  if (bytes.size() != need) throw Error(fmt::format("{}: {} bytes, expected {}", (dir / "outputs.bin").string(), bytes.size(), need));
  std::size_t at = 0;
  for (AluGoldenForm& g : s.forms)
    for (std::size_t w = 0; w < g.words.size(); ++w, at += 8) {
      const std::size_t slot = w % g.form.slots.size();
      if (!g.form.slots[slot].dest) continue;
      std::uint64_t v = 0;
      for (int b = 7; b >= 0; --b) v = (v << 8) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(b)]);
      g.words[w] = v;
    }
  std::istringstream dev(read_text(dir / "device.txt"));
  for (std::string l; std::getline(dev, l);) {
    const std::size_t sp = l.find(' ');
    const std::string k = l.substr(0, sp), v = sp == std::string::npos ? "" : l.substr(sp + 1);
    if (k == "device") s.device = v;
    else if (k == "sm") s.sm = v;
    else if (k == "driver_version") s.driver_version = std::stoi(v);
    else if (k == "driver") s.driver = v;
  }
  s.set = name;
  write_alu_golden_set(s, out);
  std::cerr << fmt::format("{}: {} forms x {} cases from {}\n", out, s.forms.size(), s.cases, s.device);
  return 0;
}

}  // namespace
}  // namespace ptxmma

int main(int argc, char** argv) {
  using namespace ptxmma;
  std::vector<std::string> args(argv + 1, argv + argc), opcodes;
  std::string mode, dir, out, target = "sm_90a", ptxas = "ptxas", name = "alu-sm90";
  int cases = 128;
  std::uint64_t seed = 1;
  try {
    for (std::size_t i = 0; i < args.size(); ++i) {
      const auto next = [&]() -> std::string {
        if (i + 1 >= args.size()) throw Error(fmt::format("{} needs a value", args[i]));
        return args[++i];
      };
      const std::string& a = args[i];
      if (a == "--list") mode = "list";
      else if (a == "--plan") mode = "plan", dir = next();
      else if (a == "--collect") mode = "collect", dir = next();
      else if (a == "--out") out = next();
      else if (a == "--set") name = next();
      else if (a == "--cases") cases = std::stoi(next());
      else if (a == "--seed") seed = std::stoull(next());
      else if (a == "--target") target = next();
      else if (a == "--ptxas") ptxas = next();
      else if (a.starts_with("--")) throw Error(fmt::format("unknown option {}", a));
      else opcodes.push_back(a);
    }
    if (cases < 1 || cases > 1024) throw Error("--cases: 1 to 1024");
    if (mode == "list") return list(target, opcodes);
    if (mode == "plan") return plan(dir, cases, seed, target, ptxas, opcodes);
    if (mode == "collect" && !out.empty()) return collect(dir, out, name);
    std::cerr << "usage: make_alu_capture --list | --plan DIR [--cases N] [--seed S] [--target T] [--ptxas P] [OPCODE...] | "
                 "--collect DIR --out SET [--set NAME]\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "make_alu_capture: " << e.what() << "\n";
    return 1;
  }
}
