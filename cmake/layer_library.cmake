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
  # Headers are named from the source root, and from include/ptxmma once installed (cmake/install.cmake).
  target_include_directories(ptxmma_${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                                   $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/ptxmma>)
  set_target_properties(ptxmma_${name} PROPERTIES EXPORT_NAME ${name})  # ptxmma::NAME when exported
  foreach(dep IN LISTS deps)
    target_link_libraries(ptxmma_${name} PUBLIC ptxmma_${dep})
  endforeach()
endfunction()
