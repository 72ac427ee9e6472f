// The families whose every operand is a register fragment (mma.sync and its sparse and
// block-scaled forms; wmma.mma): one row format and one expansion, configs/<family>/variants.yaml
// (docs/mma-catalogue.md, docs/wmma-catalogue.md). A family is this class with its name, spelling,
// sparse forms and scale file.
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sim/catalog/matrix_catalog.hpp"
#include "sim/catalog/matrix_variant.hpp"

namespace ptxmma {

// A row's keys beyond the shared ones: the shape, the A/B layouts, (D, C) types, rounding, kind,
// FP6/FP4 container, block scaling, the A, B and accumulator fragments, and `mixed_via` (the
// type a (D, C) pair of two types accumulates in: MatrixVariant::accumulate).
class FragmentFamily final : public CatalogFamily {
 public:
  FragmentFamily(std::string_view name, Spelling spelling, std::vector<Sparsity> sparse_forms, std::string scale_file)
      : name_(name), spelling_(spelling), sparse_forms_(std::move(sparse_forms)), scale_file_(std::move(scale_file)) {}
  [[nodiscard]] std::string_view name() const override { return name_; }
  [[nodiscard]] int lanes() const override { return 32; }
  [[nodiscard]] std::vector<std::string_view> row_keys() const override {
    return {"shape", "layouts", "dc", "rounding", "kind", "container", "block_scale", "a", "b", "cd", "mixed_via"};
  }
  [[nodiscard]] std::vector<Sparsity> sparse_forms() const override { return sparse_forms_; }
  [[nodiscard]] Spelling spelling() const override { return spelling_; }
  [[nodiscard]] std::string scale_file() const override { return scale_file_; }

  // accumulators: {SET: {TYPE: [layout, registers]}}, named by a row's `cd`.
  void header(const YamlFile& f) override;
  void expand(const CatalogRow& r, const std::function<void(MatrixVariant&)>& emit) const override;

 private:
  std::string_view name_;
  Spelling spelling_;
  std::vector<Sparsity> sparse_forms_;
  std::string scale_file_;
  std::map<std::string, std::map<Type, YAML::Node>> acc_;
};

}  // namespace ptxmma
