// The one exception type for bad input: its message is what the user reads, so it names the
// file, line and what is wrong.
#pragma once
#include <stdexcept>
#include <string>

namespace ptxmma {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(visible_nul(what)) {}
  explicit Error(const char* what) : std::runtime_error(what) {}

 private:
  // A NUL byte quoted from the input would end the message where what()'s C string ends: "\0".
  static std::string visible_nul(const std::string& s) {
    if (s.find('\0') == std::string::npos) return s;
    std::string out;
    for (const char c : s) out += c == '\0' ? std::string("\\0") : std::string(1, c);
    return out;
  }
};

}  // namespace ptxmma
