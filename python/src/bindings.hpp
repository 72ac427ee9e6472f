// Shared pieces of the nanobind bindings: numpy arrays in and out, and the registration function
// of each file (one concept per file). The Python layer (python/ptxmma/__init__.py) checks shapes
// and dtypes and names the argument; these functions take and give element codes as uint64.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "isa/wmma_instruction.hpp"
#include "sim/exec/mma.hpp"
#include "sim/layout/fragment_layout.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma::py {

namespace nb = nanobind;

template <class T>
using Array = nb::ndarray<nb::numpy, T>;
// A C-contiguous host array of any shape (the Python layer gave it the right one).
template <class T>
using In = nb::ndarray<const T, nb::c_contig, nb::device::cpu>;

// Moves `v` into a numpy array of `shape` that owns it (no copy).
template <class T>
Array<T> to_numpy(std::vector<T> v, const std::vector<std::size_t>& shape) {
  auto* owned = new std::vector<T>(std::move(v));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return Array<T>(owned->data(), shape.size(), shape.data(), owner);
}

template <class T>
std::vector<T> to_vector(const In<T>& a) {
  return std::vector<T>(a.data(), a.data() + a.size());
}

// A PTX type by name; Error "unknown type 'x' (known: ...)" as `ptxmma format` says it.
Type type_arg(const std::string& s);
// "A", "B", "C", "D" (either case); Error otherwise.
Operand operand_arg(const std::string& s);

// A decoded mma instruction with its model and an executor, kept for the next call with the same
// instruction and architecture.
struct PreparedMma {
  MmaInstruction ins;
  const Model* model;
  MmaExecutor exec;
};
const PreparedMma& prepare_mma(const std::string& instr, const std::string& arch);

// Both maps of a layout: "coord" (lanes, regs, elems, 3) -> (problem, row, col) and "slot"
// (problems, rows, cols, 3) -> (lane, reg, elem).
nb::dict layout_maps(const FragmentLayout& l);

void bind_numeric(nb::module_& m);
void bind_mma(nb::module_& m);
void bind_wgmma(nb::module_& m);
void bind_layout(nb::module_& m);
void bind_machine(nb::module_& m);
void bind_golden(nb::module_& m);
void bind_special(nb::module_& m);

}  // namespace ptxmma::py
