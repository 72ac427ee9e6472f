// The catalogue of warpgroup-level wgmma.mma_async variants: configs/wgmma/variants.yaml expanded
// against the register layouts of configs/wgmma/layouts.yaml, loaded once per process.
#pragma once
#include <string>
#include <vector>

#include "sim/catalog/wgmma_variant.hpp"
#include "sim/layout/layout_loader.hpp"

namespace ptxmma {

// "wgmma.mma_async[.sp].sync.aligned.m64n<N>k<K>[.satfinite].<d>.<a>.<b>[.and.popc]"
std::string wgmma_ptx(const WgmmaSelector& s);

class WgmmaCatalog {
 public:
  // Reads <config_dir>/wgmma/layouts.yaml and <config_dir>/wgmma/variants.yaml (and the sparse
  // metadata classes of <config_dir>/mma/sparse.yaml, which each warp follows) and builds every
  // layout a variant uses (each checked to be a bijection). Errors name the file, line and row.
  static WgmmaCatalog load(const std::string& config_dir);

  WgmmaCatalog(WgmmaCatalog&&) = default;
  WgmmaCatalog& operator=(WgmmaCatalog&&) = default;
  WgmmaCatalog(const WgmmaCatalog&) = delete;  // variants point into this catalogue's layouts
  WgmmaCatalog& operator=(const WgmmaCatalog&) = delete;

  // lookup: nullptr if none; find: Error if none. Neither checks the target (parse_wgmma does).
  [[nodiscard]] const WgmmaVariant* lookup(const WgmmaSelector& s) const;
  [[nodiscard]] const WgmmaVariant& find(const WgmmaSelector& s) const;

  [[nodiscard]] const std::vector<WgmmaVariant>& variants() const { return variants_; }
  [[nodiscard]] const LayoutLibrary& layouts() const { return layouts_; }

 private:
  WgmmaCatalog() = default;
  LayoutLibrary layouts_;
  SparseLibrary sparse_;
  std::vector<WgmmaVariant> variants_;
};

// The process-wide catalogue from config_dir() ($PTXMMA_CONFIG_DIR, else the build's configs/).
const WgmmaCatalog& wgmma_catalog();

}  // namespace ptxmma
