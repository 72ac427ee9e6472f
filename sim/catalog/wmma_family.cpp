#include "sim/catalog/wmma_family.hpp"

#include <fmt/format.h>

#include "sim/catalog/fragment_family.hpp"

namespace ptxmma {

std::string wmma_ptx(const MatrixSelector& s) {
  const std::string layouts = fmt::format("{}.{}.{}", name(s.alayout), name(s.blayout), shape_name(s.shape));
  if (s.bitop != BitOp::none)
    return fmt::format("wmma.mma.{}.sync.aligned.{}.{}.{}.{}.{}", name(s.bitop), layouts, name(s.d), name(s.a),
                       name(s.b), name(s.c));
  if (s.a == Type::f16) return fmt::format("wmma.mma.sync.aligned.{}.{}.{}", layouts, name(s.d), name(s.c));
  return fmt::format("wmma.mma.sync.aligned.{}.{}.{}.{}.{}{}", layouts, name(s.d), name(s.a), name(s.b), name(s.c),
                     s.satfinite ? ".satfinite" : "");
}

MatrixCatalog load_wmma_catalog(const std::string& config_dir) {
  return MatrixCatalog::load(config_dir, FragmentFamily("wmma", wmma_ptx, {}, ""));
}

MatrixCatalog load_wmma_catalog_volta(const std::string& config_dir) {
  return MatrixCatalog::load(config_dir, FragmentFamily("wmma", wmma_ptx, {}, ""), "layouts-volta.yaml");
}

const MatrixCatalog& wmma_catalog(std::string_view target) {
  const MatrixCatalog& volta = process_catalog<load_wmma_catalog_volta>();
  return volta.layouts().published_for(target) ? volta : process_catalog<load_wmma_catalog>();
}

}  // namespace ptxmma
