// `ptxmma golden RECORDS... [--to-test FILE] [--arch A]`: lists the records of golden sets (one line
// each: DIR:ENTRY:CASE, the instruction and form, the input family, a wgmma's descriptors), or
// writes them as a test-vector file (tools/vectors/golden_vectors.hpp). RECORDS: DIR, DIR:ENTRIES
// or DIR:ENTRIES:CASES, lists such as 0,3-5.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "tools/ptxmma/commands.hpp"
#include "tools/vectors/golden_vectors.hpp"
#include "tools/vectors/output_file.hpp"

namespace ptxmma::cli {

void add_golden_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("golden", "list the records of golden sets, or write them as test vectors");
  struct Opts {
    std::vector<std::string> records;
    std::string to_test;
    std::string arch = "sm_90a";
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("RECORDS", opts->records, "DIR, DIR:ENTRIES or DIR:ENTRIES:CASES (lists such as 0,3-5)")->required();
  cmd->add_option("--to-test", opts->to_test, "write the records as a test-vector file (docs/test-vectors.md)")
      ->each(check_output_path);
  cmd->add_option("--arch", opts->arch, "target of the cases (default sm_90a)");
  cmd->callback([opts] {
    std::vector<GoldenRecords> records;
    for (const auto& r : opts->records) records.push_back(parse_golden_records(r));
    if (opts->to_test.empty()) {
      std::string out;
      for (const auto& r : records) out += list_golden_records(r);
      std::cout << out << std::flush;
      return;
    }
    std::string command = "ptxmma golden";
    for (const auto& r : opts->records) command += " " + r;
    command += " --to-test " + opts->to_test;
    if (opts->arch != "sm_90a") command += " --arch " + opts->arch;
    const GoldenVectors v = golden_to_vectors(records, opts->arch, command);
    write_output_file(opts->to_test, v.yaml);
    for (const auto& s : v.skipped) std::cerr << "skipped " << s << "\n";
    std::cout << fmt::format("{}: {} cases written, {} records skipped\n", opts->to_test, v.cases, v.skipped.size());
  });
}

}  // namespace ptxmma::cli
