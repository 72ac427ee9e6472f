# ptxmma_layer_library(NAME): the static library ptxmma_NAME of a layer of cmake/layers.cmake,
# built from the .cpp files of its folders and linked (PUBLIC) to the libraries of the layers it
# uses. The caller adds the layer's third-party libraries.
function(ptxmma_layer_library name)
  get_property(paths GLOBAL PROPERTY PTXMMA_LAYER_${name}_PATHS)
  get_property(deps GLOBAL PROPERTY PTXMMA_LAYER_${name}_DEPS)
  set(globs)
  foreach(p IN LISTS paths)
    if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/${p})
      list(APPEND globs ${PROJECT_SOURCE_DIR}/${p}/*.cpp)
    endif()
  endforeach()
  file(GLOB sources CONFIGURE_DEPENDS ${globs})
  add_library(ptxmma_${name} ${sources})
  target_include_directories(ptxmma_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  foreach(dep IN LISTS deps)
    target_link_libraries(ptxmma_${name} PUBLIC ptxmma_${dep})
  endforeach()
endfunction()
