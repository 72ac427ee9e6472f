#include "sim/model/model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include <spdlog/spdlog.h>

#include "sim/util/config_dir.hpp"
#include "sim/util/yaml_file.hpp"

namespace ptxmma {
namespace {

Type type_at(const YamlFile& f, const YAML::Node& map, const char* key) {
  const auto s = f.get<std::string>(map, key);
  if (auto t = parse_type(s)) return *t;
  f.fail(map[key], fmt::format("unknown type '{}'", s));
}

Rounding rounding_at(const YamlFile& f, const YAML::Node& map, const char* key) {
  const auto s = f.get<std::string>(map, key);
  if (auto r = parse_rounding(s)) return *r;
  f.fail(map[key], fmt::format("unknown rounding '{}' (rn, rna, rz, rm, rp)", s));
}

Engine engine_at(const YamlFile& f, const YAML::Node& map) {
  const auto s = f.get<std::string>(map, "engine");
  static const std::map<std::string, Engine> kEngines = {{"block_fma", Engine::block_fma},
                                                         {"fma_chain", Engine::fma_chain},
                                                         {"integer", Engine::integer},
                                                         {"popc", Engine::popc},
                                                         {"add_tree", Engine::add_tree}};
  const auto it = kEngines.find(s);
  if (it == kEngines.end()) f.fail(map["engine"], fmt::format("unknown engine '{}'", s));
  return it->second;
}

}  // namespace

ModelSet ModelSet::load(const std::string& path) {
  const YamlFile f = YamlFile::load(path);
  ModelSet set;
  set.arch = f.get<std::string>(f.root, "arch");
  const YAML::Node list = f.root["models"];
  if (!list || !list.IsSequence()) f.fail(f.root, "missing list 'models'");
  for (const YAML::Node& n : list) {
    Entry e;
    e.family = f.get<std::string>(n, "family");
    if (n["a"]) e.a = type_at(f, n, "a");
    if (n["d"]) e.d = type_at(f, n, "d");
    Model& m = e.model;
    m.name = fmt::format("{}/{}{}{}", set.arch, e.family, e.a ? fmt::format("/{}", name(*e.a)) : "",
                         e.d ? fmt::format("->{}", name(*e.d)) : "");
    m.engine = engine_at(f, n);
    if (m.engine == Engine::block_fma) {
      BlockFma& b = m.block;
      b.blocks = n["blocks"] ? f.get<int>(n, "blocks") : 1;
      b.run = n["run"] ? f.get<int>(n, "run") : 1;
      b.frac_bits = f.get<int>(n, "frac_bits");
      if (b.blocks < 1 || b.blocks > 64) f.fail(n["blocks"], "blocks must be 1..64");
      if (b.run < 1 || b.run > 256) f.fail(n["run"], "run must be 1..256");
      if (b.frac_bits < 1 || b.frac_bits > 60) f.fail(n["frac_bits"], "frac_bits must be 1..60");
      b.zeros_set_exponent = f.get<bool>(n, "zeros_set_exponent");
      const YAML::Node outs = n["output"];
      if (!outs || !outs.IsMap()) f.fail(n, "missing map 'output' (f32: {round, exp_floor}, f16: {...})");
      for (const auto& kv : outs) {
        const auto d = kv.first.as<std::string>();
        if (d != "f32" && d != "f16") f.fail(kv.first, fmt::format("output '{}': block sums round to f32 or f16", d));
        BlockFma::Output& o = d == "f16" ? b.f16 : b.f32;
        o.round = rounding_at(f, kv.second, "round");
        if (kv.second["exp_floor"]) o.exp_floor = f.get<int>(kv.second, "exp_floor");
        if (kv.second["frac"]) {
          o.frac = f.get<int>(kv.second, "frac");
          const int most = info(d == "f16" ? Type::f16 : Type::f32).man_bits;
          if (*o.frac < 1 || *o.frac > most)
            f.fail(kv.second["frac"], fmt::format("frac must be 1..{} for {} block sums", most, d));
        }
      }
      const auto c_entry = f.get<std::string>(n, "c_entry");
      if (c_entry == "first_block") b.c_entry = BlockFma::CEntry::first_block;
      else if (c_entry == "final_add") b.c_entry = BlockFma::CEntry::final_add;
      else f.fail(n["c_entry"], fmt::format("unknown c_entry '{}' (first_block, final_add)", c_entry));
      if (n["final_add_round"]) b.final_add_round = rounding_at(f, n, "final_add_round");
      if (n["scale_group"]) {
        b.scale_group = f.get<int>(n, "scale_group");
        if (b.scale_group < 1 || b.scale_group > 64 || b.blocks != 1)
          f.fail(n["scale_group"], "scale_group must be 1..64, with one block");
      }
    }
    if (m.engine == Engine::add_tree) {
      try {
        m.tree = AddTree::parse(f.get<std::string>(n, "order"));
      } catch (const Error& e) {
        f.fail(n["order"], e.what());
      }
      m.tree.format = type_at(f, n, "add_format");
      m.tree.round = rounding_at(f, n, "add_round");
    }
    if (n["nan_f32"]) m.nan_f32 = f.get<std::uint64_t>(n, "nan_f32");
    if (n["nan_f16"]) m.nan_f16 = f.get<std::uint64_t>(n, "nan_f16");
    if (n["nan_invalid"]) m.nan_invalid = f.get<std::uint64_t>(n, "nan_invalid");
    if (n["nan_priority"]) {
      m.nan_priority = f.get<std::string>(n, "nan_priority");
      std::string sorted = m.nan_priority;
      std::sort(sorted.begin(), sorted.end());
      if (sorted != "abc") f.fail(n["nan_priority"], "nan_priority must order the letters a, b, c");
    }
    set.entries_.push_back(std::move(e));
  }
  return set;
}

const Model& ModelSet::select(const std::string& family, Type a, Type d) const {
  for (const Entry& e : entries_)
    if (e.family == family && (!e.a || *e.a == a) && (!e.d || *e.d == d)) return e.model;
  throw Error(fmt::format("no rounding model for {} with {} inputs and {} output on {}", family, name(a), name(d), arch));
}

const ModelSet& models_for(const std::string& arch) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<ModelSet>> cache;
  const std::lock_guard lock(mu);
  const std::string dir = config_dir() + "/models";
  // A name, never a path ("../../x" would load any YAML file).
  const bool name = arch.size() <= 16 && std::all_of(arch.begin(), arch.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
  std::error_code ec;
  if (!name || !std::filesystem::is_regular_file(dir + "/" + arch + ".yaml", ec)) {
    std::vector<std::string> known;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
      if (e.path().extension() == ".yaml") known.push_back(e.path().stem().string());
    std::sort(known.begin(), known.end());
    throw Error(fmt::format("unknown architecture '{}' (known: {})", arch, fmt::join(known, ", ")));
  }
  auto& slot = cache[arch];
  if (!slot) {
    const std::string path = dir + "/" + arch + ".yaml";
    slot = std::make_unique<ModelSet>(ModelSet::load(path));
    spdlog::debug("loaded {} rounding models from {}", slot->entries_.size(), path);
  }
  return *slot;
}

}  // namespace ptxmma
