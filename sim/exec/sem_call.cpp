// Calls: the parameters a call copies in and out (each thread's frame in the CTA's local memory,
// sim/exec/sem_memory.cpp's resolve), and the functions CUDA provides that PTX declares .extern:
//
// vprintf(format, args) -> i32: device printf. The format string is read through its generic
// address; the arguments are packed in the buffer at `args` (the caller's .local memory), each at
// its own alignment: 4 bytes for %c %d %i %u %o %x %X (8 with l, ll, z, j, t), 8 for %p, %s (an
// address) and the floating-point conversions (a double). Each calling lane prints its line, in
// lane order, formatted on the host as the CUDA runtime formats it. The result is the number of
// arguments the format consumed (-1 for a null format), as CUDA's printf returns.
//
// __assertfail(message, file, line, function, charSize): each calling lane prints
//   file:line: function: block: [x,y,z], thread: [x,y,z] Assertion `message` failed.
// as the GPU does, and the run stops with that message as a located error.
#include <fmt/format.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "sim/error.hpp"
#include "sim/exec/ptx_semantics.hpp"

namespace ptxmma::exec {
namespace {

using ptx::Instruction;
using ptx::Operand;

constexpr std::size_t kMaxString = 4096;  // bytes of a string read for printf or an assertion

const ptx::Variable& call_param(const Exec& x, int index) { return x.p.call_params[static_cast<std::size_t>(index)]; }

// n bytes (at most 8) of a call-site parameter variable of the lane, little-endian.
std::uint64_t param_value(Exec& x, std::uint64_t address, int lane, int n) {
  auto [mem, a] = resolve(x, ptx::Space::param, address, lane, static_cast<std::uint64_t>(n));
  return mem->load(a, n);
}

void copy_bytes(Exec& x, std::uint64_t from, std::uint64_t to, std::uint64_t size, int lane) {
  std::array<std::uint8_t, 64> buf{};
  for (std::uint64_t done = 0; done < size; done += buf.size()) {
    const std::uint64_t n = std::min<std::uint64_t>(buf.size(), size - done);
    auto [src, a] = resolve(x, ptx::Space::param, from + done, lane, n);
    src->read(a, buf.data(), static_cast<std::size_t>(n));
    auto [dst, b] = resolve(x, ptx::Space::param, to + done, lane, n);
    dst->write(b, buf.data(), static_cast<std::size_t>(n));
  }
}

// A NUL-terminated string at a generic address (at most kMaxString bytes).
std::string read_string(Exec& x, std::uint64_t address, int lane) {
  std::string s;
  for (;; ++address) {
    if (s.size() >= kMaxString)
      throw Error(fmt::format("lane {}: a string longer than {} bytes (no NUL)", lane, kMaxString));
    auto [mem, a] = resolve(x, ptx::Space::generic, address, lane, 1);
    const auto c = static_cast<char>(mem->load(a, 1));
    if (c == '\0') return s;
    s += c;
  }
}

std::string vprintf_line(Exec& x, std::uint64_t format, std::uint64_t args, int lane, int& consumed) {
  const std::string f = read_string(x, format, lane);
  std::string out;
  std::uint64_t at = 0;  // offset in the argument buffer
  const auto arg = [&](int bytes) {
    at = (at + static_cast<std::uint64_t>(bytes) - 1) / static_cast<std::uint64_t>(bytes) * static_cast<std::uint64_t>(bytes);
    auto [mem, a] = resolve(x, ptx::Space::generic, args + at, lane, static_cast<std::uint64_t>(bytes));
    at += static_cast<std::uint64_t>(bytes);
    ++consumed;
    return mem->load(a, bytes);
  };
  char buf[512];
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') {
      out += f[i];
      continue;
    }
    std::size_t j = i + 1;
    while (j < f.size() && std::string_view("-+ #0").find(f[j]) != std::string_view::npos) ++j;
    while (j < f.size() && std::isdigit(static_cast<unsigned char>(f[j]))) ++j;
    if (j < f.size() && f[j] == '.') {
      ++j;
      while (j < f.size() && std::isdigit(static_cast<unsigned char>(f[j]))) ++j;
    }
    const std::size_t len_at = j;
    while (j < f.size() && std::string_view("hlLqjzt").find(f[j]) != std::string_view::npos) ++j;
    if (j >= f.size()) {  // a '%' at the end: printed as written
      out += f.substr(i);
      break;
    }
    const char conv = f[j];
    const std::string flags = f.substr(i, len_at - i);  // "%-08.3"
    const std::string length = f.substr(len_at, j - len_at);
    const bool wide = length.find_first_of("ljzt") != std::string::npos;
    i = j;
    switch (conv) {
      case '%': out += '%'; continue;
      case 'd':
      case 'i': {
        const std::uint64_t v = arg(wide ? 8 : 4);
        const long long s = wide ? static_cast<long long>(v) : static_cast<long long>(static_cast<std::int32_t>(v));
        std::snprintf(buf, sizeof buf, (flags + "ll" + conv).c_str(), s);
        break;
      }
      case 'u':
      case 'o':
      case 'x':
      case 'X':
      case 'c': {
        const std::uint64_t v = arg(wide ? 8 : 4);
        if (conv == 'c') std::snprintf(buf, sizeof buf, (flags + "c").c_str(), static_cast<int>(v & 0xff));
        else std::snprintf(buf, sizeof buf, (flags + "ll" + conv).c_str(), static_cast<unsigned long long>(v));
        break;
      }
      case 'p': std::snprintf(buf, sizeof buf, (flags + "p").c_str(), reinterpret_cast<void*>(arg(8))); break;
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
      case 'a':
      case 'A': {
        const std::uint64_t v = arg(8);
        double d;
        std::memcpy(&d, &v, sizeof d);
        std::snprintf(buf, sizeof buf, (flags + conv).c_str(), d);
        break;
      }
      case 's': {
        const std::uint64_t p = arg(8);
        const std::string s = p == 0 ? "(null)" : read_string(x, p, lane);
        std::snprintf(buf, sizeof buf, (flags + "s").c_str(), s.c_str());
        if (flags == "%") {  // no width or precision: the whole string, past the buffer too
          out += s;
          continue;
        }
        break;
      }
      default:  // not a conversion: printed as written
        out += flags + length + conv;
        continue;
    }
    out += buf;
  }
  return out;
}

}  // namespace

Builtin builtin_named(std::string_view name) {
  if (name == "vprintf") return Builtin::vprintf;
  if (name == "__assertfail") return Builtin::assertfail;
  return Builtin::none;
}

void check_builtin(const ptx::Program& p, const Instruction& call, Builtin b) {
  const ptx::Function& f = p.functions[static_cast<std::size_t>(call.d.mode)];
  const std::vector<std::uint64_t> want = b == Builtin::vprintf ? std::vector<std::uint64_t>{8, 8}
                                                                : std::vector<std::uint64_t>{8, 8, 4, 8, 8};
  const std::size_t rets = b == Builtin::vprintf ? 1 : 0;
  bool ok = f.params.size() == want.size() && f.returns.size() == rets;
  for (std::size_t i = 0; ok && i < want.size(); ++i)
    ok = p.call_params[static_cast<std::size_t>(f.params[i])].size == want[i];
  if (ok && rets == 1) ok = p.call_params[static_cast<std::size_t>(f.returns[0])].size == 4;
  if (!ok)
    throw ptx::PtxError({ptx::Diagnostic{
        p.file, f.loc,
        fmt::format("'{}' is declared with other parameters than CUDA's: {}", f.name,
                    b == Builtin::vprintf ? "(.param .b32 ret) vprintf(.param .b64 format, .param .b64 args)"
                                          : "__assertfail(.param .b64 message, .param .b64 file, .param .b32 line, "
                                            ".param .b64 function, .param .b64 charSize)")}});
}

void copy_params(Exec& x, const Operand& args, const std::vector<int>& params, std::uint32_t lanes) {
  for_lanes(lanes, [&](int lane) {
    for (std::size_t i = 0; i < params.size(); ++i) {
      const ptx::Variable& v = call_param(x, params[i]);
      copy_bytes(x, args.elems[i].value, v.address, v.size, lane);
    }
  });
}

void copy_returns(Exec& x, const Operand& rets, const std::vector<int>& returns, std::uint32_t lanes) {
  if (rets.elems.empty()) return;
  for_lanes(lanes, [&](int lane) {
    for (std::size_t i = 0; i < returns.size(); ++i) {
      const ptx::Variable& v = call_param(x, returns[i]);
      copy_bytes(x, v.address, rets.elems[i].value, v.size, lane);
    }
  });
}

void run_builtin(Exec& x, const Instruction& call, std::uint32_t lanes, Builtin b) {
  const Operand& args = call.ops[2];
  if (b == Builtin::vprintf) {
    for_lanes(lanes, [&](int lane) {
      const std::uint64_t format = param_value(x, args.elems[0].value, lane, 8);
      const std::uint64_t buffer = param_value(x, args.elems[1].value, lane, 8);
      int consumed = 0;
      std::int32_t result = -1;
      if (format != 0) {
        x.m.print(vprintf_line(x, format, buffer, lane, consumed));
        result = consumed;
      }
      if (!call.ops[0].elems.empty()) {
        auto [mem, a] = resolve(x, ptx::Space::param, call.ops[0].elems[0].value, lane, 4);
        mem->store(a, 4, static_cast<std::uint32_t>(result));
      }
    });
    return;
  }
  std::string first;
  int count = 0;
  for_lanes(lanes, [&](int lane) {
    const int t = x.base + lane;
    const auto sp = [&](ptx::Special s) { return x.m.special(s, t, x.cta_index); };
    const std::string line = fmt::format(
        "{}:{}: {}: block: [{},{},{}], thread: [{},{},{}] Assertion `{}` failed.\n",
        read_string(x, param_value(x, args.elems[1].value, lane, 8), lane),
        param_value(x, args.elems[2].value, lane, 4),
        read_string(x, param_value(x, args.elems[3].value, lane, 8), lane), sp(ptx::Special::ctaid_x),
        sp(ptx::Special::ctaid_y), sp(ptx::Special::ctaid_z), sp(ptx::Special::tid_x), sp(ptx::Special::tid_y),
        sp(ptx::Special::tid_z), read_string(x, param_value(x, args.elems[0].value, lane, 8), lane));
    x.m.print(line);
    if (first.empty()) first = line.substr(0, line.size() - 1);
    ++count;
  });
  throw Error(fmt::format("device-side assertion failed in {} thread{}: {}", count, count == 1 ? "" : "s", first));
}

}  // namespace ptxmma::exec
