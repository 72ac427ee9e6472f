// The launch of a kernel: a grid of CTAs (thread blocks), each of `ntid` threads, and the memories
// every CTA shares (global, const, param). A CTA (sim/state/cta.hpp) owns its shared memory and its
// threads' registers.
//
// A CTA's rank is its linear index in the grid, x fastest: rank = x + nx * (y + ny * z), the
// order in which the interpreter runs CTAs (docs/ptx-interpreter.md, "A grid of CTAs"; on several
// threads, the order whose result they give: "Clusters on several threads"). A cluster
// is a box of `cluster` CTAs; %clusterid = ctaid / cluster, %cluster_ctaid = ctaid % cluster, and
// %cluster_ctarank ranks the CTAs of a cluster x fastest.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "sim/error.hpp"
#include "sim/state/memory.hpp"

namespace ptxmma {

using Dim3 = std::array<int, 3>;

// A grid that cannot run: a dimension out of range, CTAs outside it, or more CTAs than the
// budget's shared memory holds. Whoever declared the grid (a STATE.yaml's nctaid) locates it.
class GridError : public Error {
 public:
  explicit GridError(const std::string& what, bool cluster = false) : Error(what), cluster_(cluster) {}
  // The cluster shape is what is wrong (its size, or how it tiles the grid).
  [[nodiscard]] bool about_cluster() const { return cluster_; }

 private:
  bool cluster_;
};

struct GridShape {
  Dim3 nctaid = {1, 1, 1};   // CTAs in x, y, z
  Dim3 ntid = {32, 1, 1};    // threads of a CTA in x, y, z
  Dim3 cluster = {1, 1, 1};  // CTAs of a cluster in x, y, z (each divides nctaid)

  [[nodiscard]] std::uint64_t ctas() const {
    return static_cast<std::uint64_t>(nctaid[0]) * static_cast<std::uint64_t>(nctaid[1]) *
           static_cast<std::uint64_t>(nctaid[2]);
  }
  [[nodiscard]] std::int64_t cta_threads() const {
    return static_cast<std::int64_t>(ntid[0]) * ntid[1] * ntid[2];
  }
  [[nodiscard]] Dim3 ctaid(std::uint64_t rank) const {
    const auto nx = static_cast<std::uint64_t>(nctaid[0]), ny = static_cast<std::uint64_t>(nctaid[1]);
    return {static_cast<int>(rank % nx), static_cast<int>(rank / nx % ny), static_cast<int>(rank / nx / ny)};
  }
  [[nodiscard]] std::uint64_t rank(const Dim3& id) const {
    return static_cast<std::uint64_t>(id[0]) +
           static_cast<std::uint64_t>(nctaid[0]) *
               (static_cast<std::uint64_t>(id[1]) + static_cast<std::uint64_t>(nctaid[1]) * static_cast<std::uint64_t>(id[2]));
  }
};

// What every CTA of the grid sees.
struct Grid {
  GridShape shape;
  Memory global = Memory::sparse("global");
  Memory constant = Memory::sparse("const");
  Memory param = Memory::dense("param", 0);
};

}  // namespace ptxmma
