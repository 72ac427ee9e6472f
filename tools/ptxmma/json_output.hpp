// `--json [FILE]`, the one JSON convention of every command: `--json` alone or `--json -` prints
// the JSON document on stdout instead of the text; `--json FILE` (or `--json=FILE`) writes it to
// FILE and the text is printed as usual. Numbers are JSON numbers, an instruction is under
// "instruction", a value is {"hex", "value"}. While the JSON goes to stdout, an error is printed
// there as {"error": "..."} as well (main.cpp).
#pragma once
#include <CLI/CLI.hpp>

#include <nlohmann/json.hpp>
#include <string>

namespace ptxmma::cli {

class JsonOutput {
 public:
  // Adds --json to `cmd`; `what` says what the document holds.
  void add(CLI::App& cmd, const std::string& what);
  [[nodiscard]] bool on() const { return opt_ && opt_->count() > 0; }
  [[nodiscard]] bool to_stdout() const;
  // Whether the text report is printed (JSON off, or going to a file).
  [[nodiscard]] bool text() const { return !to_stdout(); }
  // Writes `doc` where --json said (nothing when it is off).
  void write(const nlohmann::json& doc) const;
  // Where the document goes, for writers that take a path: "-" (stdout) or FILE.
  [[nodiscard]] std::string path() const { return to_stdout() ? "-" : path_; }

 private:
  CLI::Option* opt_ = nullptr;
  std::string path_;
};

// Whether the subcommand `app` ran has --json going to stdout (for errors as JSON).
bool json_to_stdout(const CLI::App& app);

}  // namespace ptxmma::cli
