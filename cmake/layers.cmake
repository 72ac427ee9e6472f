# The layers of ptxmma, lowest first, and what each may use (docs/architecture.md, "Layers").
# Each layer names its folders (or single files) and the layers below it that it uses directly;
# it may include the headers of those and of everything they use in turn, never of a layer above
# or beside it. The libraries of sim/, isa/ and tools/vectors are built from this table
# (ptxmma_layer_library), and the ctest `layering` (cmake/check_layers.cmake) checks every
# `#include "..."` of the sources against it. A new folder of sources needs a row here.
#
# Included by the build and by the check (cmake -P); it only records, it creates no target.

# ptxmma_layer(NAME PATH... [DEPS LAYER...]): PATH is a folder (with everything below it) or one
# file, relative to the source root; every DEPS layer must be declared already, so the table
# cannot have a cycle.
function(ptxmma_layer name)
  cmake_parse_arguments(PARSE_ARGV 1 L "" "" "DEPS")
  get_property(layers GLOBAL PROPERTY PTXMMA_LAYERS)
  if(name IN_LIST layers)
    message(FATAL_ERROR "layer '${name}' is declared twice")
  endif()
  set(allowed ${name})
  foreach(dep IN LISTS L_DEPS)
    if(NOT dep IN_LIST layers)
      message(FATAL_ERROR "layer '${name}' uses '${dep}', which is not declared before it")
    endif()
    get_property(below GLOBAL PROPERTY PTXMMA_LAYER_${dep}_ALLOWED)
    list(APPEND allowed ${below})
  endforeach()
  list(REMOVE_DUPLICATES allowed)
  set_property(GLOBAL APPEND PROPERTY PTXMMA_LAYERS ${name})
  set_property(GLOBAL PROPERTY PTXMMA_LAYER_${name}_PATHS ${L_UNPARSED_ARGUMENTS})
  set_property(GLOBAL PROPERTY PTXMMA_LAYER_${name}_DEPS ${L_DEPS})
  set_property(GLOBAL PROPERTY PTXMMA_LAYER_${name}_ALLOWED ${allowed})
endfunction()

ptxmma_layer(util     sim/util sim/error.hpp)           # errors, bounded file reading, YAML, targets
ptxmma_layer(numeric  sim/numeric DEPS util)            # formats, decoding, rounding, exact values
ptxmma_layer(layout   sim/layout DEPS util numeric)     # fragment layouts; the register codec
ptxmma_layer(catalog  sim/catalog DEPS layout numeric)  # the variant catalogues
ptxmma_layer(model    sim/model DEPS numeric)           # rounding models and dot-product engines
ptxmma_layer(state    sim/state DEPS util)              # warps, warpgroups, memory
ptxmma_layer(isa      isa DEPS catalog)                 # instruction text and PTX -> decoded form
ptxmma_layer(exec     sim/exec DEPS isa model state)    # executors and the PTX interpreter
ptxmma_layer(vectors  tools/vectors DEPS exec)          # golden sets, test vectors, replay
ptxmma_layer(cli      tools/ptxmma DEPS vectors)        # the ptxmma command
ptxmma_layer(cudart   tools/cudart DEPS exec)           # libcudart.so.13: CUDA programs' kernels on the simulator
ptxmma_layer(capture  tools/capture DEPS vectors)       # GPU capture programs and make_probes
ptxmma_layer(python   python/src DEPS vectors)          # the Python module
ptxmma_layer(bench    bench DEPS vectors)               # Google Benchmark programs
ptxmma_layer(tests    tests DEPS vectors)               # the test suite and fuzz targets
