#include "sim/catalog/special_tables.hpp"

#include <array>
#include <mutex>

#include "sim/util/config_dir.hpp"
#include "sim/error.hpp"

namespace ptxmma {

std::string_view special_table_name(SpecialTableId id) {
  static constexpr std::array<std::string_view, static_cast<std::size_t>(SpecialTableId::count)> kNames = {
      "rcp.approx.f32", "rsqrt.approx.f32", "sqrt.approx.f32", "ex2.approx.f32",
      "ex2.approx.f16", "ex2.approx.ftz.bf16", "tanh.approx.f16", "tanh.approx.bf16",
      "lg2.approx.f32", "rcp.approx.ftz.f64", "rsqrt.approx.ftz.f64", "tanh.approx.f32",
      "sin.approx.f32", "cos.approx.f32"};
  return kNames[static_cast<std::size_t>(id)];
}

const SpecialTable& special_table(SpecialTableId id) {
  constexpr auto n = static_cast<std::size_t>(SpecialTableId::count);
  static std::array<SpecialTable, n> tables;
  static std::array<std::once_flag, n> loaded;
  const auto i = static_cast<std::size_t>(id);
  std::call_once(loaded[i], [&] {
    const std::string path = config_dir() + "/special/" + std::string(special_table_name(id)) + ".xz";
    tables[i] = read_special_table(path);
    if (tables[i].name != special_table_name(id))
      throw Error(path + ": holds the table of '" + tables[i].name + "', not '" + std::string(special_table_name(id)) + "'");
  });
  return tables[i];
}

}  // namespace ptxmma
