// An interpreter's answer to the interpreter query (python/interpreter.h):
// JSON any interpreter on the machine prints, its supported wheel tags
// included; read as facts, then each tag list judged against wheels and named
// as the platform the interpreter installs for, as the host's choice does.
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "onramp/host/choice.h"
#include "onramp/python/interpreter.h"

ONRAMP_FUZZ_TARGET(interpreter_facts) {
  auto facts = onramp::python::parse_interpreter_facts(onramp::fuzz::as_text(data, size), "python3", "python3 -I -c");
  if (!facts) return 0;
  (void)onramp::host::platform_words(*facts);
  std::vector<onramp::index::IndexFile> files;
  for (const char* name : {"x-1.0-cp311-cp311-manylinux_2_17_x86_64.whl", "x-1.0-cp311-cp311-macosx_11_0_arm64.whl",
                           "x-1.0-cp39-abi3-musllinux_1_2_x86_64.whl", "x-1.0-py3-none-any.whl"}) {
    onramp::index::IndexFile f;
    f.file_name = name;
    f.is_wheel = true;
    f.requires_python = ">=3.8";
    files.push_back(f);
  }
  std::string why_not;
  (void)onramp::host::wheel_for_python(*facts, files, false, why_not);
  return 0;
}
