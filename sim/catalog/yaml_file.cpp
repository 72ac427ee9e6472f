#include "sim/catalog/yaml_file.hpp"

#include <fmt/format.h>

namespace ptxmma {

YamlFile YamlFile::load(const std::string& path) {
  try {
    return YamlFile{path, YAML::LoadFile(path)};
  } catch (const YAML::BadFile&) {
    throw Error(fmt::format("{}: cannot open", path));
  } catch (const YAML::Exception& e) {
    throw Error(fmt::format("{}:{}:{}: {}", path, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
}

void YamlFile::fail(const YAML::Node& at, const std::string& what) const {
  const YAML::Mark m = at.Mark();
  if (m.is_null()) throw Error(fmt::format("{}: {}", path, what));
  throw Error(fmt::format("{}:{}:{}: {}", path, m.line + 1, m.column + 1, what));
}

}  // namespace ptxmma
