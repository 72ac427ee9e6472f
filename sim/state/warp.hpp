// A simulated warp: 32 lanes, each with its own named registers (PTX names: %r1, %rd3, %f2, %fd4,
// %h0, %p1, ...), and the mask of lanes that execute.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxmma {

enum class RegKind : std::uint8_t { b16, b32, b64, pred };
std::string_view name(RegKind k);
int bits(RegKind k);
// The kind nvcc's naming implies: %rd/%fd 64-bit, %r/%f 32-bit, %h/%rs 16-bit, %p predicate.
std::optional<RegKind> kind_from_name(std::string_view reg);

class Warp {
 public:
  static constexpr int kLanes = 32;

  // Declares a register in every lane (value 0). Redeclaring with another kind is an Error.
  void declare(const std::string& reg, RegKind kind);
  [[nodiscard]] bool declared(const std::string& reg) const { return regs_.count(reg) != 0; }
  [[nodiscard]] RegKind kind(const std::string& reg) const;  // Error if undeclared

  // Values are zero-extended to 64 bits; set() keeps only the register's width.
  [[nodiscard]] std::uint64_t get(int lane, const std::string& reg) const;
  void set(int lane, const std::string& reg, std::uint64_t value);

  [[nodiscard]] std::uint32_t active_mask() const { return active_; }
  void set_active_mask(std::uint32_t mask) { active_ = mask; }
  [[nodiscard]] bool active(int lane) const { return (active_ >> lane) & 1U; }

  [[nodiscard]] std::vector<std::string> register_names() const;  // in declaration order

 private:
  struct Reg {
    RegKind kind;
    std::array<std::uint64_t, kLanes> value{};
    int order;
  };
  const Reg& reg(const std::string& name) const;
  std::map<std::string, Reg, std::less<>> regs_;
  std::uint32_t active_ = 0xffffffffU;
};

}  // namespace ptxmma
