// The process-wide tables of the approximate special functions, read once from
// config_dir()/special/NAME.xz (captured on an H100/H200 by tools/capture/special_check).
#pragma once
#include <string_view>

#include "sim/numeric/special_table.hpp"

namespace ptxmma {

enum class SpecialTableId { rcp, rsqrt, sqrt, ex2, ex2_f16, ex2_bf16, tanh_f16, tanh_bf16, lg2, rcp_f64, rsqrt_f64, tanh, sin, cos, count };

// The table's file name without .xz, e.g. "rcp.approx.f32".
std::string_view special_table_name(SpecialTableId id);
const SpecialTable& special_table(SpecialTableId id);

}  // namespace ptxmma
