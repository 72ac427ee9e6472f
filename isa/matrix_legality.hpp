// The one legality check of the matrix families (mma, wgmma, wmma): a decoded instruction's
// qualifiers narrowed against its family's catalogue one at a time, so that the error names the
// first qualifier no variant has ("m16n8k16 does not take f16 A with bf16 B (with f16 A, B is
// f16)"), then the target. A family gives the order of its qualifiers and their wording.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "isa/instruction_text.hpp"
#include "sim/catalog/matrix_catalog.hpp"
#include "sim/catalog/matrix_variant.hpp"
#include "sim/numeric/rounding.hpp"

namespace ptxmma {

// A decoded matrix instruction: its qualifiers (a MatrixSelector, so MatrixCatalog::find takes it),
// its text as given (trimmed), and the variant once the legality check has found it.
struct MatrixInstruction : MatrixSelector {
  std::string text;
  const MatrixVariant* variant = nullptr;
};

// Catalogue variants still matching the qualifiers read so far.
class Candidates {
 public:
  using Keep = std::function<bool(const MatrixVariant&)>;
  using Text = std::function<std::string(const MatrixVariant&)>;
  explicit Candidates(std::vector<const MatrixVariant*> v) : v_(std::move(v)) {}
  [[nodiscard]] Candidates narrow(const Keep& keep) const;
  // The distinct texts of the candidates, in catalogue order (for "one of ..." messages).
  [[nodiscard]] std::vector<std::string> collect(const Text& what) const;
  [[nodiscard]] bool empty() const { return v_.empty(); }
  [[nodiscard]] std::size_t size() const { return v_.size(); }
  [[nodiscard]] const MatrixVariant& front() const { return *v_.front(); }
  [[nodiscard]] auto begin() const { return v_.begin(); }
  [[nodiscard]] auto end() const { return v_.end(); }

 private:
  std::vector<const MatrixVariant*> v_;
};

// A family's steps: from `all` (the catalogue's variants of the instruction's sparsity; dense and
// sparse forms are separate instruction sets) to the variants its qualifiers name, failing at the
// first qualifier that matches none.
using LegalitySteps = std::function<Candidates(const Candidates& all, const Fail& fail)>;

// Checks that `target` is known, runs `steps`, and returns the one variant left if `target`
// assembles it. Errors: "<text>: <why>".
const MatrixVariant& check_matrix(const MatrixInstruction& ins, std::string_view target, const MatrixCatalog& catalog,
                                  const LegalitySteps& steps);

// Steps every family takes, worded alike. `subject` names what takes the types: the shape (mma)
// or the family (wgmma).
Candidates by_input_types(const Candidates& from, const MatrixSelector& ins, std::string_view subject, const Fail& fail);
// .satfinite: `all` says which inputs take it.
Candidates by_satfinite(const Candidates& from, const Candidates& all, const MatrixSelector& ins, const Fail& fail);
// A and B layouts, (D, C) types and the b1 bit operation; `shape` names the shape in messages.
Candidates by_layouts(const Candidates& from, const MatrixSelector& ins, std::string_view shape, const Fail& fail);
Candidates by_accumulators(const Candidates& from, const MatrixSelector& ins, std::string_view shape, const Fail& fail);
Candidates by_bit_operation(const Candidates& from, const Candidates& all, const MatrixSelector& ins, const Fail& fail);
// A rounding qualifier as written, checked against the one variant left (`from`).
void check_rounding(const Candidates& from, const Candidates& all, const MatrixSelector& ins,
                    std::optional<Rounding> rounding, const Fail& fail);
// "f16 inputs", "s8 x u8 inputs".
std::string inputs_text(const MatrixSelector& ins);

}  // namespace ptxmma
