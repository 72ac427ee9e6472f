#include "sim/exec/wgmma_async.hpp"

#include <algorithm>

namespace ptxmma {

WgmmaAsync::Owner WgmmaAsync::owner(int r) const {
  Owner found;
  groups_.for_each([&](const Op& op) {
    if (found.op) return;
    if (std::find(op.d.begin(), op.d.end(), r) != op.d.end()) found = {&op, true};
    else if (std::find(op.a.begin(), op.a.end(), r) != op.a.end()) found = {&op, false};
  });
  return found;
}

std::vector<const WgmmaAsync::Op*> WgmmaAsync::in_flight() const {
  std::vector<const Op*> out;
  groups_.for_each([&](const Op& op) { out.push_back(&op); });
  return out;
}

}  // namespace ptxmma
