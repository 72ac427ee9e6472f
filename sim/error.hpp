// The one exception type for bad input: its message is what the user reads, so it names the
// file, line and what is wrong.
#pragma once
#include <stdexcept>
#include <string>

namespace ptxmma {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ptxmma
