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

std::map<std::string, Type> types(const json& entry, std::initializer_list<const char*> ops, const std::string& where) {
  std::map<std::string, Type> out;
  if (!entry.contains("types")) return out;
  for (const char* op : ops) {
    const auto t = field<std::string>(entry["types"], op, where + ": types");
    const auto parsed = parse_type(t);
    if (!parsed) throw Error(fmt::format("{}: types: unknown type '{}' for {}", where, t, op));
    out[op] = *parsed;
  }
  return out;
}

json parse_header(const std::string& text, const std::string& dir, const std::string& format, GoldenHeader& h) {
  h.dir = dir;
  h.manifest = (std::filesystem::path(dir) / "manifest.json").string();
  const json j = parse(text, h.manifest);
  const std::string& m = h.manifest;
  h.format = field<std::string>(j, "format", m);
  if (h.format != format) throw Error(fmt::format("{}: format '{}' is not {}", m, h.format, format));
  h.set = field<std::string>(j, "set", m);
  h.device = field<std::string>(j, "device", m);
  h.sm = field<std::string>(j, "sm", m);
  h.families = field<std::vector<std::string>>(j, "families", m);
  if (!j.contains("variants") || !j["variants"].is_array()) throw Error(fmt::format("{}: missing list 'variants'", m));
  if (j["variants"].empty()) throw Error(fmt::format("{}: 'variants' is empty (a set that checks nothing passes nothing)", m));
  return j;
}

}  // namespace ptxmma::manifest
