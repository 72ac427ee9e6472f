#include "tools/cudart/fatbin.hpp"

#include <cstdint>
#include <cstring>
#include <fmt/format.h>

namespace ptxmma::cudart {
namespace {

// What __cudaRegisterFatBinary receives: a wrapper that points at the fatbinary.
struct Wrapper {
  std::int32_t magic;
  std::int32_t version;
  const std::uint8_t* data;
  const void* unused;
};
constexpr std::int32_t kWrapperMagic = 0x466243b1;
constexpr std::uint32_t kFatbinMagic = 0xba55ed50;
constexpr std::uint16_t kPtxKind = 1;
// Bounds on what a sane fatbinary holds; past them the header is garbage, not a program.
constexpr std::uint64_t kMaxFatbin = 1ULL << 32;

template <class T>
T field(const std::uint8_t* p, std::size_t offset) {
  T v;
  std::memcpy(&v, p + offset, sizeof v);
  return v;
}

const char* kHowTo = "compile the program with nvcc -cudart shared -no-compress "
                     "-gencode arch=compute_90a,code=compute_90a (docs/cuda-programs.md)";

}  // namespace

std::string fatbin_ptx(const void* wrapper, int sm) {
  const auto* w = static_cast<const Wrapper*>(wrapper);
  if (!w || w->magic != kWrapperMagic || !w->data)
    throw Error(fmt::format("a fatbinary registered by the program has no nvcc wrapper (magic {:#x})", w ? w->magic : 0));
  const std::uint8_t* head = w->data;
  // Header: magic, version, header size, then the bytes of the entries that follow it.
  if (field<std::uint32_t>(head, 0) != kFatbinMagic)
    throw Error(fmt::format("the fatbinary starts with {:#x}, not the fatbinary magic {:#x}", field<std::uint32_t>(head, 0), kFatbinMagic));
  const auto header = field<std::uint16_t>(head, 6);
  const auto total = field<std::uint64_t>(head, 8);
  if (header < 16 || total > kMaxFatbin) throw Error("the fatbinary's header is malformed");
  std::string best;
  int best_arch = -1, later_arch = -1;
  bool compressed = false;
  for (std::uint64_t at = header; at < header + total;) {
    // Entry header: kind, version, header size, payload size, compressed size, ..., arch at 28.
    const std::uint8_t* e = head + at;
    const auto kind = field<std::uint16_t>(e, 0);
    const auto entry_header = field<std::uint32_t>(e, 4);
    const auto size = field<std::uint64_t>(e, 8);
    if (entry_header < 64 || size > total || at + entry_header + size > header + total)
      throw Error(fmt::format("fatbinary entry at byte {} is malformed", at));
    if (kind == kPtxKind) {
      const auto arch = static_cast<int>(field<std::uint32_t>(e, 28));
      if (arch > sm) {
        later_arch = arch;
      } else if (arch > best_arch) {
        best_arch = arch;
        compressed = field<std::uint32_t>(e, 16) != 0;
        const char* text = reinterpret_cast<const char*>(e + entry_header);
        best.assign(text, strnlen(text, static_cast<std::size_t>(size)));  // the payload is padded with NULs
      }
    }
    at += entry_header + size;
  }
  if (best_arch < 0) {
    if (later_arch >= 0)
      throw Error(fmt::format("the program's PTX is for compute_{}, later than the simulated sm_{}: {}", later_arch, sm, kHowTo));
    throw Error(fmt::format("the program holds machine code (SASS) but no PTX: {}", kHowTo));
  }
  if (compressed) throw Error(fmt::format("the program's PTX is compressed: {}", kHowTo));
  return best;
}

}  // namespace ptxmma::cudart
