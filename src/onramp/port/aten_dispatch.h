#pragma once
// Which ATen op overloads core PyTorch serves for any backend: those whose
// kernel is a composite (CompositeImplicitAutograd, CompositeExplicitAutograd,
// CompositeExplicitAutogradNonFunctional in native_functions.yaml), built
// from other ops. The ops library's AtenSchema keeps only the implicit kind;
// the join needs the explicit kinds too, so this reads the dispatch sections,
// and the structured delegates through which a backend serves structured ops,
// and which ops are the CPU's own kernels.
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "onramp/util/error.h"

namespace onramp::port {

struct CompositeKernel {
  std::string kind;  // CompositeImplicitAutograd, CompositeExplicitAutograd, ...
  int line = 0;      // of the op's func: line
};

struct AtenDispatch {
  std::string origin;  // the yaml's path
  std::map<std::string, CompositeKernel, std::less<>> composite;  // "t" -> ...
  // A structured op's structured_delegate: "add.Tensor" -> "add.out". The
  // default backend kernel torch computes for the op calls the delegate.
  std::map<std::string, std::string, std::less<>> delegate;
  // Ops whose every kernel is the CPU's: a dispatch section whose keys all
  // name the CPU (CPU, QuantizedCPU, MkldnnCPU, ...; Meta aside), no
  // structured delegate ("_scaled_dot_product_flash_attention_for_cpu").
  // No device kernel exists: a composite chose one on the CPU, and on a device
  // the same composite chooses otherwise (port/device_generic.h).
  std::set<std::string, std::less<>> cpu_only;

  const CompositeKernel* find(std::string_view full_name) const;
};

Result<AtenDispatch> parse_aten_dispatch(std::string_view yaml_text, const std::string& origin);
Result<AtenDispatch> load_aten_dispatch(const std::string& native_functions_path);

}  // namespace onramp::port
