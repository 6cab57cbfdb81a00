# onramp_embed(OUT FILES): writes OUT, a C++ file that defines
# onramp::embedded::all(), mapping each file's path (relative to the source
# dir) to its bytes. Regenerated when any embedded file changes.
function(onramp_embed out files)
  set(script ${CMAKE_SOURCE_DIR}/cmake/EmbedScript.cmake)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DROOT=${CMAKE_SOURCE_DIR} "-DFILES=${files}" -P ${script}
    DEPENDS ${files} ${script}
    COMMENT "Embedding data files"
    VERBATIM)
endfunction()
