# What `cmake --install` puts under the prefix (docs/install.md), in two components, the two Debian
# packages of `cpack -G DEB`:
#   runtime:     bin/ptxmma, share/ptxmma/configs (found from the program's folder, so the prefix
#                may be moved), lib/ptxmma/libcudart.so.13 (for `ptxmma exec`), README, docs/ and
#                examples/ under share/doc/ptxmma;
#   development: the core's static libraries and headers and the CMake package ptxmma, so that a
#                C++ project can find_package(ptxmma) and link ptxmma::core (tests/install).
include(CMakePackageConfigHelpers)

install(TARGETS ptxmma RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(TARGETS ptxmma_cudart LIBRARY DESTINATION ${PTXMMA_INSTALL_CUDART_DIR} NAMELINK_SKIP COMPONENT runtime)
install(DIRECTORY configs/ DESTINATION ${PTXMMA_INSTALL_CONFIG_DIR} COMPONENT runtime)
# As in the source tree, so that the README's and docs' paths (docs/..., examples/...) hold.
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT runtime)
install(DIRECTORY docs examples DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT runtime)

# The core: the layers ptxmma_exec stands on (cmake/layers.cmake), their headers named as in the
# source tree (sim/..., isa/...) from include/ptxmma.
get_property(core_layers GLOBAL PROPERTY PTXMMA_LAYER_exec_ALLOWED)
set(core_targets ptxmma_core)
foreach(layer IN LISTS core_layers)
  list(APPEND core_targets ptxmma_${layer})
  get_property(paths GLOBAL PROPERTY PTXMMA_LAYER_${layer}_PATHS)
  foreach(p IN LISTS paths)
    if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/${p})
      install(DIRECTORY ${p}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ptxmma/${p}
              COMPONENT development FILES_MATCHING PATTERN "*.hpp")
    else()
      get_filename_component(dir ${p} DIRECTORY)
      install(FILES ${p} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ptxmma/${dir} COMPONENT development)
    endif()
  endforeach()
endforeach()
set_target_properties(ptxmma_core PROPERTIES EXPORT_NAME core)
install(TARGETS ${core_targets} EXPORT ptxmmaTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)

set(config_dest ${CMAKE_INSTALL_LIBDIR}/cmake/ptxmma)
install(EXPORT ptxmmaTargets NAMESPACE ptxmma:: DESTINATION ${config_dest} COMPONENT development)
configure_package_config_file(cmake/ptxmmaConfig.cmake.in ${PROJECT_BINARY_DIR}/ptxmmaConfig.cmake
                              INSTALL_DESTINATION ${config_dest} PATH_VARS PTXMMA_INSTALL_CONFIG_DIR)
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ptxmmaConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ptxmmaConfig.cmake ${PROJECT_BINARY_DIR}/ptxmmaConfigVersion.cmake
        DESTINATION ${config_dest} COMPONENT development)
