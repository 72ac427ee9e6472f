// make_probes PROBES.yaml OUT_DIR: turns crafted experiments -- a few matrix elements of A, B, C
// per case, everything else +0 -- into an inputs-only golden set (D words zero) that
// `mma_capture --rerun OUT_DIR --out RESULT` runs on a GPU. The elements go into registers
// through the same fragment layouts that execution uses.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "isa/mma_instruction.hpp"
#include "sim/exec/mma.hpp"
#include "sim/util/yaml_file.hpp"
#include "tools/vectors/golden_set.hpp"

namespace ptxmma {
namespace {

int run(const std::string& yaml_path, const std::string& out_dir) {
  const YamlFile f = YamlFile::load(yaml_path);
  struct Group {
    const MatrixVariant* v;
    std::vector<std::vector<std::uint32_t>> cases;  // lane-major a|b|c|d words per lane
    OperandWords w;
  };
  std::map<std::string, Group> groups;
  std::vector<std::string> order;
  nlohmann::json notes = nlohmann::json::array();
  for (const YAML::Node& p : f.root["probes"]) {
    const auto ptx = f.get<std::string>(p, "ptx");
    const MmaInstruction ins = parse_mma(ptx);
    const MatrixVariant& v = *ins.variant;
    auto [it, fresh] = groups.try_emplace(ptx, Group{&v, {}, {}});
    Group& g = it->second;
    if (fresh) {
      order.push_back(ptx);
      g.w = {v.words(Operand::a), v.words(Operand::b), v.words(Operand::c), v.words(Operand::d)};
    }
    std::vector<std::uint32_t> a(32 * g.w.a), b(32 * g.w.b), c(32 * g.w.c);
    // An element is given as its bits in the register (tf32: the whole b32).
    const auto fill = [&](const char* key, Operand o, std::vector<std::uint32_t>& words) {
      const RegisterCodec codec = v.codec(o);
      const FragmentLayout& l = codec.layout();
      for (const YAML::Node& e : p[key]) {
        if (!e.IsSequence() || e.size() != 3) f.fail(e, "an element is [row, col, code]");
        const int row = e[0].as<int>(), col = e[1].as<int>();
        if (row < 0 || row >= l.rows || col < 0 || col >= l.cols) f.fail(e, fmt::format("outside the {}x{} matrix", l.rows, l.cols));
        codec.set_raw(words, row, col, e[2].as<std::uint64_t>());
      }
    };
    fill("a", Operand::a, a);
    fill("b", Operand::b, b);
    fill("c", Operand::c, c);
    std::vector<std::uint32_t> rec;
    for (int lane = 0; lane < 32; ++lane) {
      rec.insert(rec.end(), a.begin() + lane * g.w.a, a.begin() + (lane + 1) * g.w.a);
      rec.insert(rec.end(), b.begin() + lane * g.w.b, b.begin() + (lane + 1) * g.w.b);
      rec.insert(rec.end(), c.begin() + lane * g.w.c, c.begin() + (lane + 1) * g.w.c);
      rec.insert(rec.end(), static_cast<std::size_t>(g.w.d), 0U);
    }
    notes.push_back({{"ptx", ptx}, {"case", g.cases.size()}, {"name", f.get<std::string>(p, "name")},
                     {"question", f.get<std::string>(p, "question")}});
    g.cases.push_back(std::move(rec));
  }
  std::filesystem::create_directories(out_dir);
  nlohmann::ordered_json m;
  m["format"] = "ptxmma-golden-regs-v1";
  m["set"] = f.get<std::string>(f.root, "set");
  m["device"] = "none";
  m["sm"] = "none";
  m["seed"] = 0;
  m["families"] = nlohmann::json::array({"probe"});
  m["inputs_only"] = true;
  m["variants"] = nlohmann::json::array();
  for (const auto& ptx : order) {
    const Group& g = groups.at(ptx);
    std::string file = ptx.substr(std::string("mma.sync.aligned.").size()) + ".bin";
    std::ofstream bin(std::filesystem::path(out_dir) / file, std::ios::binary);
    for (const auto& rec : g.cases)
      for (std::uint32_t w : rec) {
        const char bytes[4] = {static_cast<char>(w), static_cast<char>(w >> 8), static_cast<char>(w >> 16),
                               static_cast<char>(w >> 24)};
        bin.write(bytes, 4);
      }
    const Group& gg = g;
    m["variants"].push_back({{"ptx", ptx}, {"file", file}, {"cases", gg.cases.size()},
                             {"words", {{"a", gg.w.a}, {"b", gg.w.b}, {"c", gg.w.c}, {"d", gg.w.d}}},
                             {"types", {{"a", name(gg.v->a)}, {"b", name(gg.v->b)}, {"c", name(gg.v->c)}, {"d", name(gg.v->d)}}}});
  }
  std::ofstream(std::filesystem::path(out_dir) / "manifest.json") << m.dump(1) << "\n";
  std::ofstream(std::filesystem::path(out_dir) / "probes.json") << notes.dump(1) << "\n";
  std::cout << fmt::format("{}: {} probes in {} variants\n", out_dir, notes.size(), order.size());
  return 0;
}

}  // namespace
}  // namespace ptxmma

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: make_probes PROBES.yaml OUT_DIR\n";
    return 2;
  }
  try {
    return ptxmma::run(argv[1], argv[2]);
  } catch (const ptxmma::Error& e) {
    std::cerr << "make_probes: error: " << e.what() << "\n";
    return 1;
  }
}
