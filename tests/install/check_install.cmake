# The ctest `install` (docs/install.md): `cmake --install` into a prefix, the prefix moved, then
#  - the moved program, run from another folder, reads the moved prefix's configs (its --version
#    names them) and runs `layout` and the installed examples (`test`);
#  - a C++ project (tests/install/consumer) configured against the moved prefix alone, its compile
#    and link lines naming nothing of the source or build tree, builds and computes one mma.
# Run as
#   cmake -DBUILD_DIR=<build> -DSOURCE_DIR=<source> -DGENERATOR=<generator> -DCXX=<compiler>
#         [-DLAUNCHER=<compiler launcher>] -P tests/install/check_install.cmake
cmake_minimum_required(VERSION 3.25)
foreach(v BUILD_DIR SOURCE_DIR GENERATOR CXX)
  if(NOT ${v})
    message(FATAL_ERROR "check_install.cmake: -D${v}=... is missing")
  endif()
endforeach()

# Outside both trees, so that a path into either in the consumer's build files is a real finding.
string(RANDOM LENGTH 8 tag)
set(work "$ENV{TMPDIR}")
if(NOT work)
  set(work /tmp)
endif()
set(work "${work}/ptxmma-install-test-${tag}")
file(MAKE_DIRECTORY ${work})

# run(NAME COMMAND ...): runs in ${work}, fails with the command's output unless it exits 0; its
# standard output is left in NAME.
macro(run name)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${work} RESULT_VARIABLE rc OUTPUT_VARIABLE ${name} ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN}\nexited ${rc}:\n${${name}}${err}")
  endif()
endmacro()

run(out ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${work}/prefix)
file(RENAME ${work}/prefix ${work}/moved)
set(prefix ${work}/moved)
set(ptxmma ${prefix}/bin/ptxmma)

run(version ${ptxmma} --version)
if(NOT version MATCHES "configs: ${prefix}/share/ptxmma/configs\n")
  message(FATAL_ERROR "the moved program does not read the moved prefix's configs:\n${version}")
endif()
run(layout ${ptxmma} layout mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32)
file(GLOB examples ${prefix}/share/doc/ptxmma/examples/*.test.yaml)
run(test ${ptxmma} test ${examples})
if(NOT test MATCHES "test: [1-9][0-9]* passed, 0 failed")
  message(FATAL_ERROR "the installed examples:\n${test}")
endif()

file(COPY ${SOURCE_DIR}/tests/install/consumer DESTINATION ${work})
run(configure ${CMAKE_COMMAND} -S consumer -B consumer-build -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX}
    -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER} -DCMAKE_PREFIX_PATH=${prefix})
if(NOT configure MATCHES "configs in ${prefix}/share/ptxmma/configs\n")
  message(FATAL_ERROR "find_package(ptxmma) gives no ptxmma_CONFIG_DIR in the prefix:\n${configure}")
endif()
file(GLOB build_files ${work}/consumer-build/compile_commands.json ${work}/consumer-build/build.ninja
     ${work}/consumer-build/CMakeFiles/consumer.dir/link.txt)
foreach(f IN LISTS build_files)
  file(READ ${f} text)
  foreach(tree ${SOURCE_DIR} ${BUILD_DIR})
    string(FIND "${text}" "${tree}/" at)
    if(at GREATER -1)
      message(FATAL_ERROR "${f} names ${tree}: the consumer was not built against the prefix alone")
    endif()
  endforeach()
endforeach()
run(build ${CMAKE_COMMAND} --build consumer-build)
run(mma ${CMAKE_COMMAND} -E env PTXMMA_CONFIG_DIR=${prefix}/share/ptxmma/configs consumer-build/consumer)
message("${version}${mma}")
file(REMOVE_RECURSE ${work})
