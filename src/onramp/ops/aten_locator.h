#pragma once
// Where the ATen schema comes from: `--aten PATH`, or the native_functions.yaml
// packaged inside the torchgen of the interpreter that has torch (found by
// python/interpreter.h from import specs, without importing torch).
#include <string>

#include "onramp/python/interpreter.h"
#include "onramp/util/error.h"

namespace onramp::ops {

struct SchemaLocation {
  std::string path;      // native_functions.yaml
  std::string evidence;  // the path given, or the exact command that found it
};

// aten: a native_functions.yaml or a directory holding one ("" to ask Python).
// python: the interpreter to ask (onramp's choice: python3, then /usr/bin/python3).
Result<SchemaLocation> locate_aten_schema(python::Interpreters& interpreters, const std::string& aten,
                                          const python::PythonRequest& python);

}  // namespace onramp::ops
