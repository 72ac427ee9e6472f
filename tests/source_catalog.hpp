// A matrix family's catalogue read from the source tree's configs/ (whatever $PTXMMA_CONFIG_DIR
// says), loaded once per test program.
#pragma once
#include <string>

#include "sim/catalog/matrix_catalog.hpp"
#include "tests/paths.hpp"

namespace ptxmma {

template <MatrixCatalog (*Load)(const std::string&)>
const MatrixCatalog& source_catalog() {
  static const MatrixCatalog catalog = Load(std::string(kPtxmmaSourceDir) + "/configs");
  return catalog;
}

}  // namespace ptxmma
