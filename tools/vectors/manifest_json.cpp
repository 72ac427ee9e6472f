#include "tools/vectors/manifest_json.hpp"

#include <filesystem>
#include <set>
#include <vector>

#include "sim/util/input_file.hpp"

namespace ptxmma::manifest {

std::string read(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / "manifest.json").string();
  if (!std::filesystem::exists(path)) throw Error(fmt::format("{}: cannot open (is {} a golden set?)", path, dir));
  return read_input_file(path);
}

json parse(const std::string& text, const std::string& path) {
  std::vector<std::set<std::string>> keys;  // one set per open object
  std::string duplicate;
  const json::parser_callback_t check = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) keys.emplace_back();
    if (event == json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
    if (event == json::parse_event_t::key && !keys.empty() && !keys.back().insert(parsed.get<std::string>()).second &&
        duplicate.empty())
      duplicate = parsed.get<std::string>();
    return true;
  };
  json j;
  try {
    j = json::parse(text, check);
  } catch (const json::parse_error& e) {
    throw Error(fmt::format("{}: not valid JSON at byte {}: {}", path, e.byte, e.what()));
  } catch (const json::exception& e) {  // out_of_range: a number such as 1e3010 overflows a double
    throw Error(fmt::format("{}: not valid JSON: {}", path, e.what()));
  }
  if (!duplicate.empty()) throw Error(fmt::format("{}: duplicate key '{}'", path, duplicate));
  return j;
}

long long integer(const json& j, const char* key, const std::string& where, long long lo, long long hi) {
  if (!j.is_object() || !j.contains(key)) throw Error(fmt::format("{}: missing '{}'", where, key));
  const json& v = j.at(key);
  if (!v.is_number_integer()) {
    std::string text = v.dump();
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    throw Error(fmt::format("{}: '{}' = {} is not an integer", where, key, text));
  }
  const bool huge = v.is_number_unsigned() && v.get<unsigned long long>() > static_cast<unsigned long long>(hi);
  const long long x = huge ? hi : v.get<long long>();
  if (huge || x < lo || x > hi) throw Error(fmt::format("{}: '{}' = {} is out of range [{}, {}]", where, key, v.dump(), lo, hi));
  return x;
}

}  // namespace ptxmma::manifest
