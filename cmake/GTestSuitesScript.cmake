# Writes OUT: an add_test() per GoogleTest suite that BINARY lists, each with
# the LABELS (separated by commas). Run by onramp_gtest_suites
# (GTestSuites.cmake) after a build.
execute_process(
  COMMAND ${BINARY} --gtest_list_tests
  OUTPUT_VARIABLE listing
  ERROR_VARIABLE errors
  RESULT_VARIABLE status
  TIMEOUT 60)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${BINARY} --gtest_list_tests failed (${status}): ${errors}")
endif()
string(REPLACE "," ";" LABELS "${LABELS}")
string(REPLACE "\n" ";" lines "${listing}")
set(text "")
set(count 0)
foreach(line IN LISTS lines)
  # A suite's line starts in the first column and ends in '.', before any
  # "  # TypeParam = ..." comment; its tests' lines are indented.
  if(line MATCHES "^([^ #][^ ]*)\\.( .*)?$")
    set(suite "${CMAKE_MATCH_1}")
    string(APPEND text
           "add_test([=[${suite}]=] [=[${BINARY}]=] [=[--gtest_filter=${suite}.*]=])\n"
           "set_tests_properties([=[${suite}]=] PROPERTIES LABELS \"${LABELS}\")\n")
    math(EXPR count "${count} + 1")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "${BINARY} --gtest_list_tests listed no test suite")
endif()
file(WRITE "${OUT}.new" "${text}")
file(RENAME "${OUT}.new" "${OUT}")
