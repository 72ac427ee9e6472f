#include "sim/util/yaml_scan.hpp"

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <map>
#include <sstream>
#include <vector>

#include "sim/util/budget.hpp"
#include "sim/error.hpp"

namespace ptxmma {
namespace {

class Scanner : public YAML::EventHandler {
 public:
  explicit Scanner(const std::string& path) : path_(path), limit_(budget().yaml_nodes) {}
  [[nodiscard]] std::uint64_t nodes() const { return nodes_; }

  void OnDocumentStart(const YAML::Mark& m) override {
    if (++documents_ > 1) fail(m, "a second YAML document (after '---' or '...'): a file holds one");
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t a) override { leaf(m, a); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t a, const std::string&) override { leaf(m, a); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t a) override {
    for (const Open& o : open_)
      if (o.anchor == a) fail(m, "an alias inside the node its anchor names (a cycle)");
    const auto it = sizes_.find(a);  // yaml-cpp refuses an alias of an anchor not yet defined
    add(m, it == sizes_.end() ? 1 : it->second);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t a, YAML::EmitterStyle::value) override {
    open(m, a);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t a, YAML::EmitterStyle::value) override {
    open(m, a);
  }
  void OnMapEnd() override { close(); }

 private:
  struct Open {
    YAML::anchor_t anchor;
    std::uint64_t first;  // nodes_ before it
  };
  [[noreturn]] void fail(const YAML::Mark& m, const std::string& what) const {
    throw Error(fmt::format("{}:{}:{}: {}", path_, m.line + 1, m.column + 1, what));
  }
  // Sizes never pass the limit (it is checked first), so the sums cannot overflow.
  void add(const YAML::Mark& m, std::uint64_t n) {
    if (nodes_ + n > limit_)
      fail(m, over_budget(nodes_ + n, "YAML nodes (aliases expanded)", limit_, "--max-yaml-nodes"));
    nodes_ += n;
  }
  void leaf(const YAML::Mark& m, YAML::anchor_t a) {
    add(m, 1);
    if (a) sizes_[a] = 1;
  }
  void open(const YAML::Mark& m, YAML::anchor_t a) {
    open_.push_back({a, nodes_});
    add(m, 1);
  }
  void close() {
    const Open o = open_.back();
    open_.pop_back();
    if (o.anchor) sizes_[o.anchor] = nodes_ - o.first;
  }

  const std::string& path_;
  std::uint64_t limit_;
  std::uint64_t nodes_ = 0;
  int documents_ = 0;
  std::vector<Open> open_;
  std::map<YAML::anchor_t, std::uint64_t> sizes_;
};

}  // namespace

std::uint64_t scan_yaml(const std::string& text, const std::string& path) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  Scanner s(path);
  while (parser.HandleNextDocument(s)) {
  }
  return s.nodes();
}

}  // namespace ptxmma
