#include "sim/layout/scale_layout.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "sim/error.hpp"
#include "sim/layout/expr.hpp"
#include "sim/util/yaml_file.hpp"

namespace ptxmma {
namespace {

constexpr std::array<int, 3> kScaleVecs = {1, 2, 4};

std::vector<int> int_list(const YamlFile& f, const YAML::Node& n, const std::string& what) {
  if (!n || !n.IsSequence() || n.size() == 0) f.fail(n ? n : f.root, fmt::format("'{}' takes a list of integers", what));
  std::vector<int> out;
  for (const auto& x : n) {
    const int v = f.located([&] { return x.as<int>(); });
    if (v < 0 || v > 3) f.fail(x, fmt::format("'{}': {} is outside 0..3", what, v));
    out.push_back(v);
  }
  return out;
}

}  // namespace

void ScaleLayout::check(int scale_vec, int byte_a, int tid_a, int byte_b, int tid_b) const {
  const auto legal = [&](const std::vector<int>& ok, int x, const char* what) {
    if (std::find(ok.begin(), ok.end(), x) == ok.end())
      throw Error(fmt::format("{} {} is not allowed with .scale_vec::{}X (allowed: {})", what, x, scale_vec,
                              fmt::join(ok, ", ")));
  };
  legal(byte_ids[static_cast<std::size_t>(scale_vec)], byte_a, "byte-id-a");
  legal(byte_ids[static_cast<std::size_t>(scale_vec)], byte_b, "byte-id-b");
  legal(a.thread_ids, tid_a, "thread-id-a");
  legal(b.thread_ids, tid_b, "thread-id-b");
}

ScaleLayout ScaleLayout::load(const std::string& path) {
  const YamlFile f = YamlFile::load(path);
  f.check_unique_keys();
  f.check_keys(f.root, {"a", "b", "byte_id"}, "the file");
  ScaleLayout s;
  const YAML::Node ids = f.root["byte_id"];
  f.check_keys(ids, {"1X", "2X", "4X"}, "'byte_id'");
  for (const int V : kScaleVecs) {
    const std::string key = fmt::format("{}X", V);
    s.byte_ids[static_cast<std::size_t>(V)] = int_list(f, ids[key], "byte_id " + key);
  }
  static constexpr std::array<std::string_view, 5> kVars = {"x", "v", "V", "tid", "bid"};
  for (const char* which : {"a", "b"}) {
    const YAML::Node n = f.root[which];
    const std::string name = fmt::format("'{}'", which);
    f.check_keys(n, {"count", "thread_id", "lane", "byte"}, name);
    Operand& op = which[0] == 'a' ? s.a : s.b;
    op.count = f.get<int>(n, "count");
    if (op.count < 1 || op.count > 32) f.fail(n["count"], "count must be 1..32");
    op.thread_ids = int_list(f, n["thread_id"], std::string(which) + ".thread_id");
    try {
      const Expr lane = Expr::compile(f.get<std::string>(n, "lane"), kVars);
      const Expr byte = Expr::compile(f.get<std::string>(n, "byte"), kVars);
      for (const int V : kScaleVecs) {
        auto& by_tid = op.sources[static_cast<std::size_t>(V)];
        by_tid.assign(4, {});
        for (const int tid : op.thread_ids) {
          by_tid[static_cast<std::size_t>(tid)].assign(4, {});
          for (const int bid : s.byte_ids[static_cast<std::size_t>(V)]) {
            std::vector<std::uint8_t>& src = by_tid[static_cast<std::size_t>(tid)][static_cast<std::size_t>(bid)];
            std::array<int, 128> owner{};
            owner.fill(-1);
            for (int x = 0; x < op.count; ++x)
              for (int v = 0; v < V; ++v) {
                const std::array<std::int64_t, 5> vals = {x, v, V, tid, bid};
                const std::int64_t l = lane.eval(vals), b = byte.eval(vals);
                if (l < 0 || l > 31 || b < 0 || b > 3)
                  throw Error(fmt::format("{}X, thread-id {}, byte-id {}: ({}, block {}) -> lane {}, byte {}: outside "
                                          "lanes 0..31, bytes 0..3", V, tid, bid, x, v, l, b));
                const auto at = static_cast<std::size_t>(l * 4 + b);
                if (owner[at] >= 0)
                  throw Error(fmt::format("{}X, thread-id {}, byte-id {}: lane {} byte {} holds both ({}, block {}) and "
                                          "({}, block {})", V, tid, bid, l, b, owner[at] / V, owner[at] % V, x, v));
                owner[at] = x * V + v;
                src.push_back(static_cast<std::uint8_t>(at));
              }
          }
        }
      }
    } catch (const Error& e) {
      f.fail(n, fmt::format("{}: {}", name, e.what()));
    }
  }
  return s;
}

}  // namespace ptxmma
