// The warp-level mma family (mma.sync, mma.sp, mma.sp::ordered_metadata): its catalogue
// (configs/mma/variants.yaml, docs/mma-catalogue.md) through the one loader, and its spelling.
#pragma once
#include <string>

#include "sim/catalog/matrix_catalog.hpp"
#include "sim/catalog/matrix_variant.hpp"

namespace ptxmma {

// The canonical spelling of a selector:
// mma[.sp|.sp::ordered_metadata].sync.aligned.<shape>.<alayout>.<blayout>[.kind::K][.block_scale.scale_vec::NX][.satfinite]
//     .<d>.<a>.<b>.<c>[.<stype>][.xor.popc|.and.popc]
std::string mma_ptx(const MatrixSelector& s);

// Reads <config_dir>/mma/: layouts.yaml, sparse.yaml, block_scale.yaml and variants.yaml.
MatrixCatalog load_mma_catalog(const std::string& config_dir);

// The process-wide catalogue (process_catalog).
const MatrixCatalog& mma_catalog();

}  // namespace ptxmma
