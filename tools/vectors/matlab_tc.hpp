// Recorded single dot products (tests/data/matlab-tc/README.md, Khattak & Mikaitis): a
// manifest.csv naming, per CSV file, the GPU, its architecture, the input and accumulator formats,
// k and the machine path (wmma, mma.sync, wgmma); each CSV line is one case d = sum a_i b_i + c.
// Every case runs as one dot product through the rounding model of its architecture.
// The same format carries the cases of a published model (tests/data/mmasim-tcgen05): the path
// tcgen05.mma (family tcgen05_<kind>), a B format of its own (`b_fmt`) and block scales
// (`scale_fmt`, `scale_k`: one scale of A's row and B's column per scale_k consecutive k).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "sim/numeric/type.hpp"

namespace ptxmma {

// One line of manifest.csv.
struct MatlabTcFile {
  int line = 0;           // in manifest.csv
  std::string name;       // as the manifest gives it: "H100/fp16_f32.csv"
  std::string path;       // on disk
  std::string gpu;        // "H100"
  std::string sm;         // the manifest's arch: "sm_90"
  std::string arch;       // the model file's arch: "sm_90a" (configs/models/<arch>.yaml)
  Type in = Type::f16;    // A
  Type b = Type::f16;     // B: `b_fmt`, else the same as A
  std::optional<Type> scale;  // the block scales' format (ue8m0, ue4m3); none: unscaled
  int scale_k = 0;        // k per scale
  Type acc = Type::f32;   // C and D
  int k = 0;              // products per case
  int k_instr = 0;        // the instruction's K (the case is padded with zero products); 0: unknown
  std::string machine;    // "wmma", "mma.sync", "wgmma" or "tcgen05.mma"
  std::string ptx;        // the instruction that ran
  int rows = 0;           // cases
};

struct MatlabTcSet {
  std::string root;       // the folder holding manifest.csv
  std::string manifest;
  std::vector<MatlabTcFile> files;  // those selected by the path, in manifest order
};

// One CSV line.
struct MatlabTcCase {
  int line = 0;
  long row = 0;
  std::vector<std::uint64_t> a, b;  // format codes
  std::vector<std::uint64_t> scale_a, scale_b;  // k / scale_k scale codes each (scaled files)
  std::uint64_t c = 0, d = 0;       // format codes of the accumulator type
};

// Whether `path` names recorded dot products rather than a register-level golden set: a .csv file,
// a folder holding manifest.csv, or a folder of CSV files whose parent holds manifest.csv.
bool is_matlab_tc_path(const std::string& path);

// Reads manifest.csv (in `path`, or in the folder above a per-GPU folder or CSV file) and selects
// the files `path` names. Errors name the manifest and its line.
MatlabTcSet read_matlab_tc(const std::string& path);

// Reads and checks one CSV file. Errors name the file and its line.
std::vector<MatlabTcCase> read_matlab_tc_cases(const MatlabTcFile& f);

// The machine-path family of configs/mma/variants.yaml that runs a file on `arch`: wmma -> hmma;
// mma.sync -> the catalogue's family of the manifest's instruction; wgmma -> hgmma (f16, bf16,
// tf32) or qgmma (FP8); tcgen05.mma -> tcgen05_<kind> of the instruction's .kind::<kind>.
// Throws Error when the instruction is not legal on `arch`.
std::string matlab_tc_family(const MatlabTcFile& f, const std::string& arch);

struct MatlabTcFileReplay {
  std::string name, arch, family, model;
  int cases = 0, failed = 0;
  bool supported = true;
  std::string error;          // why not supported
  std::string first_failure;  // the inputs and the steps of the first failing case
};

struct MatlabTcReport {
  std::string root;
  std::vector<MatlabTcFileReplay> files;
  int passed = 0, failed = 0;
  [[nodiscard]] bool ok() const;  // nothing failed and every file was supported
};

// Runs every case of every file; `arch` overrides the manifest's architecture when not empty.
// Files run on `jobs` threads; the report is the same for any number of jobs.
MatlabTcReport replay_matlab_tc(const MatlabTcSet& set, const std::string& arch = "", int jobs = 1);
void print(const MatlabTcReport& r, std::ostream& os);
void write_json(const MatlabTcReport& r, const std::string& path);

}  // namespace ptxmma
