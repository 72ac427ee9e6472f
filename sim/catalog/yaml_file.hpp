// Reading configs/ YAML with errors that name the file, line and column.
#pragma once
#include <yaml-cpp/yaml.h>

#include <string>

#include "sim/error.hpp"

namespace ptxmma {

struct YamlFile {
  std::string path;
  YAML::Node root;

  static YamlFile load(const std::string& path);
  [[noreturn]] void fail(const YAML::Node& at, const std::string& what) const;
  // A required scalar of type T under `key`, with a located error when absent or malformed.
  template <class T>
  T get(const YAML::Node& map, const char* key) const {
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
