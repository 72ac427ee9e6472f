#include "tools/ptxmma/json_output.hpp"

#include "tools/vectors/output_file.hpp"

namespace ptxmma::cli {
namespace {

// CLI11 gives an option that may take no value the result "true" when it takes none.
bool means_stdout(const std::string& path) { return path.empty() || path == "-" || path == "true"; }

}  // namespace

void JsonOutput::add(CLI::App& cmd, const std::string& what) {
  opt_ = cmd.add_option("--json", path_, what + " as JSON: on stdout instead of the text (--json or --json -), or to FILE")
             ->expected(0, 1)
             ->type_name("[FILE]")
             ->each([](const std::string& path) {
               if (!means_stdout(path)) check_output_path(path);
             });
}

bool JsonOutput::to_stdout() const { return on() && means_stdout(path_); }

void JsonOutput::write(const nlohmann::json& doc) const {
  if (on()) write_output_file(path(), doc.dump(2) + "\n");
}

bool json_to_stdout(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands()) {
    const CLI::Option* o = sub->get_option_no_throw("--json");
    if (!o || o->count() == 0) continue;
    const std::vector<std::string>& r = o->results();
    return r.empty() || means_stdout(r.back());
  }
  return false;
}

}  // namespace ptxmma::cli
