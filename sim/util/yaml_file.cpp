#include "sim/util/yaml_file.hpp"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>

#include <algorithm>
#include <set>
#include <vector>

#include "sim/util/input_file.hpp"
#include "sim/util/suggest.hpp"
#include "sim/util/yaml_scan.hpp"

namespace ptxmma {

YamlFile YamlFile::load(const std::string& path) { return parse(read_input_file(path), path); }

YamlFile YamlFile::parse(const std::string& text, const std::string& path) {
  try {
    (void)scan_yaml(text, path);  // the node budget, alias cycles, one document: before any node is built
    return YamlFile{path, YAML::Load(text)};
  } catch (const YAML::DeepRecursion& e) {  // yaml-cpp's own message is "bad file"
    throw Error(fmt::format("{}:{}:{}: nested more than {} levels deep", path, e.mark.line + 1, e.mark.column + 1,
                            e.depth() - 1));
  } catch (const YAML::Exception& e) {
    throw Error(fmt::format("{}:{}:{}: {}", path, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
}

void YamlFile::fail(const YAML::Node& at, const std::string& what) const {
  fail_at(at.IsDefined() ? at.Mark() : YAML::Mark::null_mark(), what);
}

void YamlFile::fail_at(const YAML::Mark& m, const std::string& what) const {
  if (m.is_null()) throw Error(fmt::format("{}: {}", path, what));
  throw Error(fmt::format("{}:{}:{}: {}", path, m.line + 1, m.column + 1, what));
}

void YamlFile::check_keys(const YAML::Node& map, std::initializer_list<std::string_view> keys,
                          std::string_view where) const {
  std::string list;
  std::vector<std::string> names;
  for (const auto x : keys) {
    list += (list.empty() ? "" : ", ") + std::string(x);
    names.emplace_back(x);
  }
  const std::string in = where.empty() ? "" : fmt::format(" in {}", where);
  if (!map.IsMap()) fail(map, fmt::format("expected a map{} (keys {})", in, list));
  for (const auto& kv : map) {
    const std::string k = kv.first.IsScalar() ? kv.first.Scalar() : "(not a name)";
    if (std::find(keys.begin(), keys.end(), k) == keys.end())
      fail(kv.first, fmt::format("unknown key '{}'{}{} (expected {})", k, in, did_you_mean(k, names), list));
  }
}

void YamlFile::check_unique_keys() const {
  std::vector<YAML::Node> stack{root};  // no recursion: nesting depth is the input's
  // Each node once: an alias is the node its anchor names, with that node's mark (where it was
  // written), so aliases add nothing to the walk.
  std::set<std::size_t> walked;
  while (!stack.empty()) {
    const YAML::Node n = stack.back();
    stack.pop_back();
    if ((n.IsMap() || n.IsSequence()) && !walked.insert(static_cast<std::size_t>(n.Mark().pos)).second) continue;
    if (n.IsMap()) {
      std::set<std::string> seen;
      for (const auto& kv : n) {
        if (kv.first.IsScalar() && !seen.insert(kv.first.Scalar()).second)
          fail(kv.first, fmt::format("duplicate key '{}'", kv.first.Scalar()));
        stack.push_back(kv.second);
      }
    } else if (n.IsSequence()) {
      for (const auto& e : n) stack.push_back(static_cast<const YAML::Node&>(e));
    }
  }
}

}  // namespace ptxmma
