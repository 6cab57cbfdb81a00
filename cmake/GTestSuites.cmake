# onramp_gtest_suites(TARGET LABEL...): one ctest test per GoogleTest suite of
# TARGET, named SUITE (a parameterised suite PREFIX/SUITE), that runs the
# suite's tests in one process. An end-to-end suite's SetUpTestSuite (an audit,
# a wheel built, a venv made) then runs once for all its tests, where
# gtest_discover_tests' one process per test runs it once per test. The list is
# read from `TARGET --gtest_list_tests` after each build; before the target is
# built, ctest runs TARGET_NOT_BUILT, which fails, so that no test is dropped
# without a word.
set(ONRAMP_GTEST_SUITES_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/GTestSuitesScript.cmake)

function(onramp_gtest_suites target)
  string(JOIN "," labels ${ARGN})  # a ';' would split the custom command's argument
  set(suites_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_suites.cmake")
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_include.cmake")
  add_custom_command(
    TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -DBINARY=$<TARGET_FILE:${target}> -DOUT=${suites_file} "-DLABELS=${labels}"
            -P ${ONRAMP_GTEST_SUITES_SCRIPT}
    BYPRODUCTS ${suites_file}
    VERBATIM)
  file(WRITE ${include_file}
       "if(EXISTS \"${suites_file}\")\n"
       "  include(\"${suites_file}\")\n"
       "else()\n"
       "  add_test(${target}_NOT_BUILT \"${target}_NOT_BUILT\")\n"
       "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${include_file})
endfunction()
