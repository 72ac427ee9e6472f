// tensormap.replace and tensormap.cp_fenceproxy: the 128 bytes of a tensor map in global or shared
// memory, changed one field at a time as the GPU changes them (replace_tensor_map_field of
// sim/exec/tensor_map; docs/hardware/tensormap-sm90.md, "tensormap.replace"), lane by lane, and
// copied from shared to global memory. The machine has one proxy: the fences order nothing more.
#include <fmt/format.h>

#include "sim/error.hpp"
#include "sim/exec/ptx_semantics.hpp"
#include "sim/exec/tensor_map.hpp"

namespace ptxmma::exec {
namespace {

using ptx::Instruction;

// The map's memory and offset: [op] in the instruction's space, 64-byte aligned (a CUtensorMap's).
std::pair<Memory*, std::uint64_t> map_at(Exec& x, const Instruction& ins, const ptx::Operand& op, ptx::Space s,
                                         int lane) {
  const std::uint64_t a = x.address(op, lane);
  if (a % 64 != 0) throw Error(fmt::format("the tensor map at {:#x} is not 64-byte aligned", a));
  auto [mem, at] = resolve(x, s, a, lane, 128);
  if (mem != &x.cta.shared && mem != &x.m.global())
    throw Error(fmt::format("the tensor map at {:#x} is neither in global nor in shared memory", a));
  x.shared_access(ins, lane, mem, at, 128, true);
  return {mem, at};
}

void replace(Exec& x, const Instruction& ins, int lane) {
  const auto field = static_cast<ptx::TensormapField>(ins.d.mode);
  auto [mem, at] = map_at(x, ins, ins.ops[0], ins.d.space, lane);
  const int ord = ins.ops.size() == 3 ? static_cast<int>(ins.ops[1].value) : 0;
  TensorMapBytes b{};
  mem->read(at, b.data(), b.size());
  replace_tensor_map_field(b, field, ord, x.read(ins.ops.back(), lane));
  mem->write(at, b.data(), b.size());
}

void copy_to_global(Exec& x, const Instruction& ins, int lane) {
  auto [to, dst] = map_at(x, ins, ins.ops[0], ptx::Space::global, lane);
  auto [from, src] = map_at(x, ins, ins.ops[1], ptx::Space::shared, lane);
  TensorMapBytes b{};
  from->read(src, b.data(), b.size());
  to->write(dst, b.data(), b.size());
}

void tensormap(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const bool copy = static_cast<ptx::TensormapOp>(ins.d.mode2) == ptx::TensormapOp::cp_fenceproxy;
  if (copy && lanes != x.live_mask)
    throw Error(fmt::format("'{}' is .sync.aligned, but only lanes {} of lanes {} execute it", ins.text,
                            lane_list(lanes), lane_list(x.live_mask)));
  for_lanes(lanes, [&](int lane) {
    try {
      if (copy)
        copy_to_global(x, ins, lane);
      else
        replace(x, ins, lane);
    } catch (const Error& e) {
      throw Error(fmt::format("lane {}: {}", lane, e.what()));
    }
  });
}

}  // namespace

void register_tensormap(std::vector<SemanticSpec>& t) { t.push_back({"tensormap", tensormap}); }

}  // namespace ptxmma::exec
