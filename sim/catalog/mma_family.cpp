#include "sim/catalog/mma_family.hpp"

#include <fmt/format.h>

#include "sim/catalog/fragment_family.hpp"

namespace ptxmma {

std::string mma_ptx(const MatrixSelector& s) {
  std::string out = fmt::format("mma{}{}.sync.aligned.{}.{}.{}", s.sparse == Sparsity::dense ? "" : ".",
                                name(s.sparse), shape_name(s.shape), name(s.alayout), name(s.blayout));
  if (s.kind != MmaKind::none) out += fmt::format(".kind::{}", name(s.kind));
  if (s.block_scale) {
    out += ".block_scale";
    if (s.scale_vec) out += fmt::format(".scale_vec::{}X", s.scale_vec);
  }
  if (s.satfinite) out += ".satfinite";
  out += fmt::format(".{}.{}.{}.{}", name(s.d), name(s.a), name(s.b), name(s.c));
  if (s.stype) out += fmt::format(".{}", name(*s.stype));
  if (s.bitop != BitOp::none) out += fmt::format(".{}", name(s.bitop));
  return out;
}

MatrixCatalog load_mma_catalog(const std::string& config_dir) {
  return MatrixCatalog::load(config_dir, FragmentFamily("mma", mma_ptx, {Sparsity::sp, Sparsity::ordered}, "mma/block_scale.yaml"));
}

const MatrixCatalog& mma_catalog() { return process_catalog<load_mma_catalog>(); }

}  // namespace ptxmma
