// Headless Chromium renders the pictures and reports (docs/pictures.md): the tests that draw them
// check that a browser shows them, and keep each screenshot in the build tree's screenshots/ for a
// person to look at. CI installs Debian's chromium (.ci/packages.txt); elsewhere they skip.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/paths.hpp"

namespace ptxmma::test {

// The first of chromium, chromium-browser, google-chrome on PATH; "" when there is none.
inline std::string find_chromium() {
  for (const char* b : {"chromium", "chromium-browser", "google-chrome"})
    if (std::system((std::string("command -v ") + b + " >/dev/null 2>&1").c_str()) == 0) return b;
  return "";
}

// Renders `file` in a width x height window into <build>/screenshots/<name>.png and returns the
// PNG's path, or "" when the browser failed.
inline std::string screenshot(const std::string& browser, const std::filesystem::path& file, const std::string& name,
                              int width, int height) {
  const std::filesystem::path dir = std::filesystem::path(kPtxmmaBuildDir) / "screenshots";
  std::filesystem::create_directories(dir);
  const std::string png = (dir / (name + ".png")).string();
  std::filesystem::remove(png);
  // As root (CI) Chromium needs --no-sandbox; a container's small /dev/shm cannot hold a large page.
  const std::string cmd = browser + " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars" +
                          " --window-size=" + std::to_string(width) + "," + std::to_string(height) +
                          " --screenshot=" + png + " file://" + std::filesystem::absolute(file).string() +
                          " >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0 && std::filesystem::exists(png) ? png : "";
}

}  // namespace ptxmma::test
