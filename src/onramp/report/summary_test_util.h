#pragma once
// A small audit report for the summary's tests and the views': a verdict
// that restates the probe's findings, a root blocker with one follower, a
// root friction, an info, and four of the verdict's figures.
#include "onramp/report/model.h"

namespace onramp::report::testing {

// A verdict that restates two sections' findings: a root blocker with one
// follower, a root friction, an info.
inline Report audit_report() {
  Report r;
  r.target = Json{{"kind", "requirement"}, {"requirement", "torch-tpu==0.2.0"},
                  {"host", {{"python_version", "3.11.7"}, {"torch_version", "2.13.0+cpu"}, {"chosen_by", "--python"}}}};
  Section verdict{"verdict", "Verdict: torch-tpu", {}, {}, {}};
  verdict.restates_findings = true;
  verdict.add(Figure{"audit_wall_seconds", "Audit wall time", 49.1, "s", "steady_clock", "", ""});
  verdict.add(Figure{"install_outcome", "pip outcome", "exit 0", "", "pip's exit", "", ""});
  verdict.add(Figure{"import_cold_seconds", "Cold import time", 3.5, "s", "perf_counter", "", ""});
  verdict.add(Figure{"download_bytes", "Download", 249e6, "bytes", "index", "", ""});
  Section probe{"probe", "Probe", {}, {}, {}};
  Finding root{Severity::blocker, Title{"'tpu' is never registered as a device name on this machine"},
               "After `import torch_tpu`, PrivateUse1 is still named 'privateuseone': long detail"};
  root.id = "probe.1";
  probe.add(root);
  Finding follower{Severity::blocker, Title{"torch.device(\"tpu\")"}, "torch.device(\"tpu\"): RuntimeError"};
  follower.id = "probe.2";
  follower.caused_by = "probe.1";
  probe.add(follower);
  Finding friction{Severity::friction, Title{"import torch_tpu shows 1 warning(s) to every user"},
                   "import torch_tpu shows 1 warning(s) to every user; the first: tcmalloc"};
  friction.id = "probe.3";
  probe.add(friction);
  probe.add(Finding{Severity::info, Title{"an info"}, "an info"});
  r.sections = {verdict, probe};
  return r;
}

}  // namespace onramp::report::testing
