// Fragment layouts from configs/mma/layouts.yaml: each entry's row/col/problem expressions are
// compiled once and evaluated for every (lane, register, element) into a FragmentLayout table,
// which checks that the map is a bijection (or, for a layout whose elements have `holders` > 1
// holders, that each element has that many and the `reads` expression chooses one).
#pragma once
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/layout/fragment_layout.hpp"

namespace ptxmma {

struct LayoutCoordMemo;

// The formulas as written in the YAML (for display: `ptxmma layout`).
struct LayoutFormula {
  std::string problem;  // "0" for single-problem layouts
  std::string row;
  std::string col;
  std::string source;   // "configs/mma/layouts.yaml:57"
  std::string reads;    // with holders > 1: which holder the product reads, else empty
};

// Variables the expressions may use, in the order the loader binds them:
// lane, g (lane>>2), t (lane%4), r, e, i (r*E+e), E, hi (lane>=16), q ((lane>>2)&3),
// w (lane>>5: the warp of a 128-lane warpgroup layout), N (a template's parameter, else 0).
// In layouts of more than 32 lanes, g, hi and q are those of the lane inside its warp (lane%32).
std::span<const std::string_view> layout_variables();

struct LayoutTemplate;  // a parsed layout description (layout_loader.cpp)
struct YamlFile;

class LayoutLibrary {
 public:
  // Loads a layouts YAML file. Errors name the file, the line and the layout, e.g.
  // "configs/mma/layouts.yaml:57:3: layout m16n8k16.a.16bit: not a bijection: ...".
  static LayoutLibrary load(const std::string& path);
  // Same, from text (tests); `source_name` stands in for the file name in messages.
  static LayoutLibrary parse(const std::string& yaml_text, const std::string& source_name);

  [[nodiscard]] const FragmentLayout* find(std::string_view name) const;
  [[nodiscard]] const FragmentLayout& at(std::string_view name) const;  // throws Error if unknown
  [[nodiscard]] const LayoutFormula& formula(std::string_view name) const;
  [[nodiscard]] std::size_t size() const { return entries_.size(); }

  // The optional top-level `measured_on: [targets]`: the layouts were measured on those targets'
  // hardware and are assumed on every other (wmma's, which the PTX ISA leaves unspecified). A file
  // without it holds layouts the PTX ISA specifies, so they hold on every target.
  [[nodiscard]] const std::vector<std::string>& measured_on() const { return measured_on_; }
  [[nodiscard]] bool verified_on(std::string_view target) const;

  // The top-level `published_for: [targets]` with `published_by: SOURCE`: the layouts are taken
  // from a publication for those targets, not measured (Volta's wmma, configs/wmma/layouts-volta.yaml).
  // published(name): whether that layout is one of them (also after overlay()).
  [[nodiscard]] bool published_for(std::string_view target) const;
  [[nodiscard]] const std::string& published_by() const { return published_by_; }
  [[nodiscard]] bool published(std::string_view name) const;
  // Adds a publication's layouts for some targets (a library with `published_for`), replacing
  // the layouts of the same names: the library of those targets. Called before any layout is
  // handed out. Throws Error for a library that is not a publication's or has templates.
  void overlay(LayoutLibrary&& arch);

  // Templates: a layout whose name contains "{N}" (e.g. "wgmma.d.32bit.n{N}") is not built on load;
  // its rows, cols, regs, elems, lanes and problems may be expressions of N, and its formulas may
  // use N. instantiate() builds the layout for one N (checked to be a bijection), adds it to the
  // library under the name with {N} replaced ("wgmma.d.32bit.n64") and returns it; a second call
  // returns the same layout. Errors name the file, line and "layout NAME (N = n)".
  const FragmentLayout& instantiate(std::string_view template_name, int n);
  [[nodiscard]] std::vector<std::string> template_names() const;
  static std::string instance_name(std::string_view template_name, int n);

  struct Entry {
    FragmentLayout layout;
    LayoutFormula formula;
  };
  // Ordered by name. Element addresses are stable for the library's lifetime (also across moves),
  // so FragmentLayout pointers handed out stay valid.
  [[nodiscard]] const std::map<std::string, Entry, std::less<>>& entries() const { return entries_; }

 private:
  static LayoutLibrary from(const YamlFile& file);  // load and parse, once the YAML is read
  std::map<std::string, Entry, std::less<>> entries_;
  std::map<std::string, std::shared_ptr<const LayoutTemplate>, std::less<>> templates_;
  std::vector<std::string> measured_on_;
  std::vector<std::string> published_for_;
  std::string published_by_;
  std::set<std::string, std::less<>> published_;  // names of the published layouts
  // Per template whose formulas do not use N: its elements' coordinates, evaluated once for all
  // its instances (layout_loader.cpp).
  std::map<std::string, std::shared_ptr<LayoutCoordMemo>, std::less<>> memos_;
};

}  // namespace ptxmma
