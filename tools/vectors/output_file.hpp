// Writing an output file (--json, --html, --svg): whole or not at all, and never inside a golden
// set. A full disk or a closed pipe is an Error, not a silent exit 0 with an empty file.
#pragma once
#include <string>
#include <string_view>

namespace ptxmma {

// Writes `contents` to `path`. A regular file (or a new one) is written to a temporary file beside
// it, flushed and renamed over it, so a reader never sees half of it; anything else that exists
// (a FIFO, /dev/stdout) is written in place; "-" is stdout. Every write is checked: Error
// "<path>: cannot write (No space left on device)". A folder holding a golden set's manifest
// (manifest.json or manifest.csv) is refused before anything is written.
void write_output_file(const std::string& path, std::string_view contents);

// The golden-set refusal of write_output_file alone, for commands to check their output paths
// before the work (a long replay should not end in it).
void check_output_path(const std::string& path);

}  // namespace ptxmma
