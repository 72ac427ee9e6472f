# cmake -DPTXMMA=... -DPROGRAM=... -DEXPECTED=... -P same_output.cmake: `ptxmma exec PROGRAM` must
# exit 0 and print exactly EXPECTED (what the program printed on the GPU).
execute_process(COMMAND ${PTXMMA} exec -- ${PROGRAM} OUTPUT_VARIABLE got ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ptxmma exec ${PROGRAM} exited ${rc}:\n${err}")
endif()
file(READ ${EXPECTED} want)
if(NOT got STREQUAL want)
  file(WRITE ${PROGRAM}.got "${got}")
  message(FATAL_ERROR "${PROGRAM}: the output differs from ${EXPECTED} (written to ${PROGRAM}.got)\n${err}")
endif()
