// The warp-level wmma.mma family: its catalogue (configs/wmma/variants.yaml, docs/wmma-catalogue.md)
// through the one loader, and its spelling. wmma.load and wmma.store move the same fragments
// between registers and memory (isa/wmma_instruction.hpp).
#pragma once
#include <string>

#include "sim/catalog/matrix_catalog.hpp"
#include "sim/catalog/matrix_variant.hpp"

namespace ptxmma {

// The canonical spelling of a selector, the PTX ISA's for each type:
//   f16         wmma.mma.sync.aligned.<alayout>.<blayout>.<shape>.<d>.<c>
//   b1          wmma.mma.<xor|and>.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32
//   the others  wmma.mma.sync.aligned.<alayout>.<blayout>.<shape>.<d>.<a>.<b>.<c>[.satfinite]
// (f64 takes its rounding qualifier after the shape; a selector has none.)
std::string wmma_ptx(const MatrixSelector& s);

// Reads <config_dir>/wmma/: layouts.yaml and variants.yaml.
MatrixCatalog load_wmma_catalog(const std::string& config_dir);
// The same with Volta's published layouts (layouts-volta.yaml) in place of sm_90's where it has them.
MatrixCatalog load_wmma_catalog_volta(const std::string& config_dir);

// The process-wide catalogue of a target (process_catalog): Volta's for the targets its layouts
// are published for, else the one of sm_90's layouts. The variants and their legality are the
// same in both; only fragment layouts differ.
const MatrixCatalog& wmma_catalog(std::string_view target = "sm_90a");

}  // namespace ptxmma
