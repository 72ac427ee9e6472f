#include "sim/exec/wgmma_async.hpp"

#include <algorithm>

namespace ptxmma {

void WgmmaAsync::commit() {
  groups_.push_back(std::move(uncommitted_));
  uncommitted_.clear();
}

void WgmmaAsync::wait(int n) {
  while (groups_.size() > static_cast<std::size_t>(std::max(n, 0))) groups_.pop_front();
}

WgmmaAsync::Owner WgmmaAsync::owner(int r) const {
  const auto find = [r](const std::vector<Op>& ops) -> Owner {
    for (const Op& op : ops) {
      if (std::find(op.d.begin(), op.d.end(), r) != op.d.end()) return {&op, true};
      if (std::find(op.a.begin(), op.a.end(), r) != op.a.end()) return {&op, false};
    }
    return {};
  };
  for (const auto& g : groups_)
    if (const Owner o = find(g); o.op) return o;
  return find(uncommitted_);
}

std::vector<const WgmmaAsync::Op*> WgmmaAsync::in_flight() const {
  std::vector<const Op*> out;
  for (const auto& g : groups_)
    for (const Op& op : g) out.push_back(&op);
  for (const Op& op : uncommitted_) out.push_back(&op);
  return out;
}

}  // namespace ptxmma
