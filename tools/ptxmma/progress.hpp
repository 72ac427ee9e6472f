// Progress on stderr for work that can take more than a few seconds (a whole grid's clusters, a
// golden set's variants, test cases): "N of M UNIT done", rewritten in place, only on a terminal
// (a pipe or a file gets the results alone), nothing for work done within a second.
#pragma once
#include <cstddef>
#include <functional>
#include <string>

namespace ptxmma::cli {

// A reporter of (done, all) for UNIT (e.g. "variants"), or an empty function when stderr is not a
// terminal. Not thread-safe: callers on several threads serialise their calls.
std::function<void(std::size_t, std::size_t)> terminal_progress(std::string unit);

}  // namespace ptxmma::cli
