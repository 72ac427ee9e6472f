// The JSON of golden-set manifests (mma and wgmma): parsed with duplicate keys refused, and
// typed fields whose errors name the manifest and the entry.
#pragma once
#include <fmt/format.h>

#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/error.hpp"
#include "sim/numeric/type.hpp"
#include "tools/vectors/golden_header.hpp"

namespace ptxmma::manifest {

using nlohmann::json;

// The text of DIR/manifest.json; Error "<DIR>/manifest.json: cannot open (is DIR a golden set?)".
std::string read(const std::string& dir);
// Error "<path>: not valid JSON at byte N: ..." or "<path>: duplicate key 'k'" (nlohmann would
// keep the last one silently).
json parse(const std::string& text, const std::string& path);

template <class T>
T field(const json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) throw Error(fmt::format("{}: missing '{}'", where, key));
  try {
    return j.at(key).get<T>();
  } catch (const json::exception&) {
    throw Error(fmt::format("{}: '{}' has the wrong type", where, key));
  }
}

// DIR/manifest.json's text parsed, its header read into `h`: Error unless its format is `format`
// and it has a non-empty list 'variants'.
json parse_header(const std::string& text, const std::string& dir, const std::string& format, GoldenHeader& h);

// An entry's optional "types": {op: type name} for each of `ops` (empty if absent).
std::map<std::string, Type> types(const json& entry, std::initializer_list<const char*> ops, const std::string& where);

// An integer field in [lo, hi]; 1.5, 1e30 or "7" are errors, not rounded or wrapped.
long long integer(const json& j, const char* key, const std::string& where, long long lo, long long hi);

}  // namespace ptxmma::manifest
