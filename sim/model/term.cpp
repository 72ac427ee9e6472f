#include "sim/model/term.hpp"

#include <array>
#include <memory>
#include <mutex>
#include <vector>

namespace ptxmma {

const Term* term_table(Type t) {
  static std::array<std::once_flag, 32> once;
  static std::array<std::vector<Term>, 32> tables;
  const auto i = static_cast<std::size_t>(t);
  std::call_once(once[i], [&] {
    const std::uint64_t n = 1ULL << info(t).bits;
    tables[i].reserve(n);
    for (std::uint64_t c = 0; c < n; ++c) tables[i].push_back(make_term(t, c));
  });
  return tables[i].data();
}

}  // namespace ptxmma
