// Reading configs/ YAML with errors that name the file, line and column.
#pragma once
#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <string>
#include <string_view>

#include "sim/error.hpp"

namespace ptxmma {

struct YamlFile {
  std::string path;
  YAML::Node root;

  // Reads `path` (bounded: sim/util/input_file.hpp) and parses it.
  static YamlFile load(const std::string& path);
  // Parses `text`, naming it `path` in messages. Nesting deeper than yaml-cpp's guard (499
  // levels) is an error, not a stack overflow; so are more nodes than the YAML-node budget
  // (aliases expanded), an alias inside its own anchor's node and a second document
  // (sim/util/yaml_scan.hpp), found before yaml-cpp builds a node.
  static YamlFile parse(const std::string& text, const std::string& path);
  [[noreturn]] void fail(const YAML::Node& at, const std::string& what) const;
  [[noreturn]] void fail_at(const YAML::Mark& at, const std::string& what) const;
  // yaml-cpp keeps both entries of a repeated key: "file:line:col: duplicate key 'k'" for the first
  // repeat in any map of the file (each map once, however many aliases name it).
  void check_unique_keys() const;
  // `map` must be a map whose keys are all in `keys`; `where` ("a case") names it in the message.
  // Indexing a scalar node throws from inside yaml-cpp, so callers check here before `map[key]`.
  void check_keys(const YAML::Node& map, std::initializer_list<std::string_view> keys,
                  std::string_view where = {}) const;
  // Runs `body`, turning an exception yaml-cpp throws on a malformed node into a located Error.
  template <class F>
  auto located(F&& body) const -> decltype(body()) {
    try {
      return body();
    } catch (const YAML::Exception& e) {
      fail_at(e.mark, e.msg);
    }
  }
  // A required scalar of type T under `key`, with a located error when absent or malformed.
  template <class T>
  T get(const YAML::Node& map, const char* key) const {
    if (!map.IsMap()) fail(map, std::string("expected a map with '") + key + "'");
    const YAML::Node n = map[key];
    if (!n) fail(map, std::string("missing key '") + key + "'");
    try {
      return n.as<T>();
    } catch (const YAML::Exception&) {
      fail(n, std::string("'") + key + "' has the wrong type");
    }
  }
};

}  // namespace ptxmma
