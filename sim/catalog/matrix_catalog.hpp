// The catalogue of one matrix family (mma, wgmma, wmma): configs/<family>/variants.yaml
// expanded against the family's register layouts (configs/<family>/layouts.yaml) and the sparse
// metadata classes (configs/mma/sparse.yaml). One loader reads every family's rows: the keys all
// families share are read here, and the family's hooks (CatalogFamily) read its own keys and
// expand a row into variants.
#pragma once
#include <yaml-cpp/yaml.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/catalog/matrix_variant.hpp"
#include "sim/layout/layout_loader.hpp"
#include "sim/util/config_dir.hpp"
#include "sim/util/yaml_file.hpp"

namespace ptxmma {

// One row of variants.yaml: its keys read with errors naming the file, line and row, and the
// values of the keys every family shares.
class CatalogRow {
 public:
  CatalogRow(const YamlFile& f, const YAML::Node& e, LayoutLibrary& layouts, int lanes)
      : f_(f), e_(e), layouts_(layouts), lanes_(lanes) {}

  [[nodiscard]] const YAML::Node& node() const { return e_; }
  [[nodiscard]] YAML::Node operator[](const char* key) const { return e_[key]; }
  [[nodiscard]] int row() const { return row_; }
  [[noreturn]] void fail(const YAML::Node& at, const std::string& what) const;
  [[nodiscard]] std::string scalar(const char* key) const { return scalar(e_, key); }
  [[nodiscard]] std::string scalar(const YAML::Node& map, const char* key) const;
  // A value or a list of them; a missing key gives `fallback`, an error where that is empty.
  [[nodiscard]] std::vector<std::string> list(const YAML::Node& map, const char* key,
                                              std::vector<std::string> fallback = {}) const;
  [[nodiscard]] std::vector<std::string> list(const char* key, std::vector<std::string> fallback = {}) const {
    return list(e_, key, std::move(fallback));
  }
  [[nodiscard]] Type type(const YAML::Node& at, const std::string& s) const;
  [[nodiscard]] std::vector<Type> types(const char* key) const;
  [[nodiscard]] int integer(const YAML::Node& n, const std::string& what) const;
  [[nodiscard]] bool boolean(const char* key) const;  // absent: false
  [[nodiscard]] bool has_layout(const std::string& name) const { return layouts_.find(name) != nullptr; }
  // The layout `name` of configs/<family>/layouts.yaml (a template "...{N}" built for `n`), checked
  // to hold operand `op` of type `t`: `lanes` threads, `regs` registers (-1: any), rows x cols.
  [[nodiscard]] const FragmentLayout& fragment(const YAML::Node& at, Operand op, const std::string& name, int n,
                                               int regs, Type t, Container c, int rows, int cols) const;

  // The shared keys.
  std::vector<Type> atypes, btypes;
  std::vector<bool> satfinite = {false};  // {false, true} for `satfinite: optional`
  std::vector<BitOp> bitops = {BitOp::none};
  // `sparse: {pattern, metadata[, forms]}`: the forms the row exists in (dense only without it).
  std::vector<Sparsity> sparsities = {Sparsity::dense};
  SparsePattern pattern = SparsePattern::two_of_four;
  const SparseMetadata* metadata = nullptr;

 private:
  friend class CatalogLoader;
  const YamlFile& f_;
  YAML::Node e_;
  LayoutLibrary& layouts_;
  int lanes_;
  int row_ = 0;
};

// What a family adds to the one loader.
class CatalogFamily {
 public:
  virtual ~CatalogFamily() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;  // "mma": configs/mma/, messages
  [[nodiscard]] virtual int lanes() const = 0;              // threads of its register fragments
  // Row keys beyond the shared ones (row atype btype satfinite bitop sparse family target ptx when note).
  [[nodiscard]] virtual std::vector<std::string_view> row_keys() const = 0;
  // The forms of a sparse row that does not list them.
  [[nodiscard]] virtual std::vector<Sparsity> sparse_forms() const = 0;
  // The canonical spelling of a selector (a variant's `ptx`, the catalogue's messages).
  using Spelling = std::string (*)(const MatrixSelector&);
  [[nodiscard]] virtual Spelling spelling() const = 0;
  // Reads the file-level keys (accumulator sets, lists of N) before the rows.
  virtual void header(const YamlFile& f) = 0;
  // Expands one row into variants; `emit` completes each (family, targets, PTX version, sparse
  // metadata, `when` exceptions, name) and refuses a name another row produced.
  virtual void expand(const CatalogRow& row, const std::function<void(MatrixVariant&)>& emit) const = 0;
  // A block-scaled family's scale layouts (configs/mma/block_scale.yaml), else empty.
  [[nodiscard]] virtual std::string scale_file() const { return {}; }
};

class MatrixCatalog {
 public:
  // Reads <config_dir>/<family>/layouts.yaml and variants.yaml, <config_dir>/mma/sparse.yaml and
  // the family's scale file. Error messages name the file, line and catalogue row. `arch_layouts`,
  // a file of <config_dir>/<family>/, holds an architecture's published layouts, which replace
  // those of the same names (LayoutLibrary::overlay): the catalogue of those targets.
  static MatrixCatalog load(const std::string& config_dir, CatalogFamily&& family,
                            const std::string& arch_layouts = {});

  MatrixCatalog(MatrixCatalog&&) = default;
  MatrixCatalog& operator=(MatrixCatalog&&) = default;
  MatrixCatalog(const MatrixCatalog&) = delete;  // variants point into this catalogue's layouts
  MatrixCatalog& operator=(const MatrixCatalog&) = delete;

  // The variant an instruction selects (a decoded instruction is a MatrixSelector); an omitted
  // .scale_vec selects the kind's default. lookup: nullptr if none; find: Error if none. Neither
  // checks the target: the family's check in isa/ does, and explains what is illegal.
  [[nodiscard]] const MatrixVariant* lookup(const MatrixSelector& s) const;
  [[nodiscard]] const MatrixVariant& find(const MatrixSelector& s) const;

  [[nodiscard]] const std::string& family() const { return family_; }
  [[nodiscard]] const std::vector<MatrixVariant>& variants() const { return variants_; }
  [[nodiscard]] const LayoutLibrary& layouts() const { return layouts_; }
  [[nodiscard]] const SparseLibrary& sparse_metadata() const { return sparse_; }

 private:
  MatrixCatalog() = default;
  std::string family_;
  CatalogFamily::Spelling spell_ = nullptr;
  LayoutLibrary layouts_;
  SparseLibrary sparse_;
  std::shared_ptr<const ScaleLayout> scales_;  // shared: its address outlives a move of the catalogue
  std::vector<MatrixVariant> variants_;
};

// A family's process-wide catalogue, loaded once from config_dir() ($PTXMMA_CONFIG_DIR, else the
// build's configs/) by `Load`.
template <MatrixCatalog (*Load)(const std::string&)>
const MatrixCatalog& process_catalog() {
  static const MatrixCatalog catalog = Load(config_dir());
  return catalog;
}

}  // namespace ptxmma
