// The catalogue of warp-level mma variants: configs/mma/variants.yaml expanded against the
// fragment layouts of configs/mma/layouts.yaml, loaded once per process.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/catalog/mma_variant.hpp"
#include "sim/layout/layout_loader.hpp"

namespace ptxmma {

// "m16n8k16" -> {16, 8, 16}; nullopt if the text is not of the form m<M>n<N>k<K>.
std::optional<Shape> parse_shape(std::string_view text);
std::string shape_name(const Shape& s);  // "m16n8k16"

// The canonical spelling of a selector:
// mma[.sp|.sp::ordered_metadata].sync.aligned.<shape>.<alayout>.<blayout>[.kind::K][.block_scale.scale_vec::NX][.satfinite]
//     .<d>.<a>.<b>.<c>[.<stype>][.xor.popc|.and.popc]
std::string mma_ptx(const MmaSelector& s);

class MmaCatalog {
 public:
  // Reads <config_dir>/mma/layouts.yaml, sparse.yaml and variants.yaml; Error messages name
  // the file, line and catalogue row.
  static MmaCatalog load(const std::string& config_dir);

  MmaCatalog(MmaCatalog&&) = default;
  MmaCatalog& operator=(MmaCatalog&&) = default;
  MmaCatalog(const MmaCatalog&) = delete;  // variants point into this catalogue's layouts
  MmaCatalog& operator=(const MmaCatalog&) = delete;

  // The variant an instruction selects (an MmaInstruction is an MmaSelector); an omitted
  // .scale_vec selects the kind's default. lookup: nullptr if none; find: Error if none.
  // find does not check the target; parse_mma (isa/) does that and explains what is illegal.
  [[nodiscard]] const MmaVariant* lookup(const MmaSelector& s) const;
  [[nodiscard]] const MmaVariant& find(const MmaSelector& s) const;

  [[nodiscard]] const std::vector<MmaVariant>& variants() const { return variants_; }
  [[nodiscard]] const LayoutLibrary& layouts() const { return layouts_; }
  [[nodiscard]] const SparseLibrary& sparse_metadata() const { return sparse_; }

 private:
  MmaCatalog() = default;
  LayoutLibrary layouts_;
  SparseLibrary sparse_;
  std::shared_ptr<const ScaleLayout> scales_;  // shared: its address outlives a move of the catalogue
  std::vector<MmaVariant> variants_;
};

// The process-wide catalogue from config_dir() ($PTXMMA_CONFIG_DIR, else the build's configs/).
const MmaCatalog& mma_catalog();

}  // namespace ptxmma
