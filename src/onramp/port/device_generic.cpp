#include "onramp/port/device_generic.h"

#include <string>
#include <vector>

namespace onramp::port {
namespace {

std::string calls_text(uint64_t calls) { return std::to_string(calls) + (calls == 1 ? " call" : " calls"); }

// The composite a CPU-only forward op stands under, or "" when none was seen.
std::string composite_above(const OpTrace& trace, const std::string& op, const AtenDispatch& dispatch) {
  auto it = trace.within.find(op);
  if (it == trace.within.end()) return "";
  std::string call = it->value("call", "");
  const CompositeKernel* kernel = dispatch.find(call);
  return kernel && kernel->kind == "CompositeImplicitAutograd" ? call : "";
}

}  // namespace

void ask_the_device_generic_ops(OpTrace& trace, const AtenDispatch& dispatch) {
  std::vector<std::string> chosen;
  for (const auto& [op, calls] : OpCounts(trace.forward)) {
    if (!dispatch.cpu_only.contains(op)) continue;
    std::string composite = composite_above(trace, op, dispatch);
    if (composite.empty()) {
      trace.notes.push_back(op + " is the CPU's own kernel (the ATen schema gives it CPU kernels only) and no " +
                            "composite call above it was seen: asked as it is, though no device has a kernel of it");
      continue;
    }
    trace.forward.erase(op);
    trace.forward[composite] += calls;
    const auto& args = trace.within[op]["args"];
    if (!trace.op_args.contains(composite) && args.is_object()) trace.op_args[composite] = args;
    chosen.push_back(op);
    trace.notes.push_back(op + " (forward, " + calls_text(calls) + ") is the CPU's own kernel, chosen inside " +
                          composite + ": a device meets " + composite + " and chooses for itself, so " + composite +
                          " is asked in its place");
  }
  if (chosen.empty()) return;
  for (const auto& [op, calls] : OpCounts(trace.backward)) {
    if (!dispatch.cpu_only.contains(op)) continue;
    trace.backward.erase(op);
    trace.notes.push_back(op + " (backward, " + calls_text(calls) + ") is the CPU's own kernel, the derivative " +
                          "of the forward's CPU choice: not asked (a device's backward follows from what its " +
                          "forward chose)");
  }
}

}  // namespace onramp::port
