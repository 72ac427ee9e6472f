// YAML test vectors (docs/test-vectors.md): a file of cases, each a single mma instruction with
// whole matrices A, B, C scattered through the catalogue's fragment layouts and an expected D, a
// wgmma.mma_async with A and B placed in shared memory or registers (wgmma_vector.hpp), or
// a PTX snippet run by the interpreter from an initial state (docs/state-format.md) with expected
// registers per lane. Exact bits are compared; a failure names the differing cells or lanes and
// registers, in hex and typed.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sim/util/yaml_file.hpp"

namespace ptxmma {

struct VectorCase;  // one prepared case (test_vectors.cpp)

// A loaded vector file: the structure checked, every matrix parsed and every instruction decoded.
struct VectorFile {
  std::string path;
  std::string target = "sm_90a";
  std::vector<std::shared_ptr<const VectorCase>> cases;
  YamlFile yaml;

  // Reads and checks the file (xz-compressed when its name ends in .xz); Error "file:line:col:
  // what is wrong" on the first problem.
  // `target` applies where the file names none (its `target:` wins, and a case's own over both).
  static VectorFile load(const std::string& path, const std::string& target = "sm_90a");
  // The same from the text of a file named `path` (snippet_file and init_file are relative to it).
  static VectorFile parse(const std::string& text, const std::string& path, const std::string& target = "sm_90a");
  [[nodiscard]] std::string case_name(std::size_t i) const;
};

struct CaseResult {
  std::string file, name;
  bool passed = false;
  std::string detail;  // warnings, and for a failure the differing cells / lanes and registers, or the error;
                       // lines end "\n"
};

// Runs case `i` of a loaded file, a snippet's grid on `grid_jobs` threads (InterpreterOptions::jobs);
// never throws (an error is a failed case with the message).
CaseResult run_vector_case(const VectorFile& f, std::size_t i, int grid_jobs = 1);

// Loads and runs every case of every file on `jobs` threads; results in file and case order
// (identical for any `jobs`). Threads the cases leave over go to their grids: each snippet's grid
// runs on jobs / cases threads (at least 1), so that one kernel's test uses them all. A file that
// does not load gives one failed result, named "(file)", whose detail is the error.
std::vector<CaseResult> run_vector_files(const std::vector<std::string>& paths, int jobs,
                                         const std::string& target = "sm_90a");

}  // namespace ptxmma
