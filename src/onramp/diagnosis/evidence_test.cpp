#include "onramp/diagnosis/evidence.h"

#include <gtest/gtest.h>

#include "onramp/diagnosis/outcome.h"

namespace onramp::diagnosis {
namespace evidence_test {  // one per file: a unity batch joins several

// The loader's message as Python 3.11 raised it for the e2e fixture (tests/e2e/fixtures/make_index.py).
constexpr const char* kLoader =
    "/tmp/run-1/venv/lib/python3.11/site-packages/autoload_symbol_device/_C.so: undefined symbol: "
    "_ZN3c104impl25onramp_gone_in_this_torchEv";

TEST(Evidence, OneFailureSeenInTwoRunsReadsTheSame) {
  std::string a = normalized(kLoader);
  std::string b = normalized(
      "/home/u/.cache/onramp/x/venv/lib/python3.11/site-packages/autoload_symbol_device/_C.so: undefined symbol: "
      "_ZN3c104impl25onramp_gone_in_this_torchEv");
  EXPECT_EQ(a, "_C.so: undefined symbol: _ZN3c104impl25onramp_gone_in_this_torchEv");
  EXPECT_EQ(a, b);
  EXPECT_EQ(normalized("object at 0x7f3a2c1b0e80 and 0XdeadBEEF are\n\t gone"), "object at 0x… and 0x… are gone");
  EXPECT_EQ(normalized("No module named 'a/b'"), "No module named 'a/b'");  // a path only where a token begins
  EXPECT_EQ(normalized("libx.so.1: cannot open shared object file"), "libx.so.1: cannot open shared object file");
  EXPECT_EQ(normalized("in '/opt/vendor/lib/libx.so' (no such file)"), "in 'libx.so' (no such file)");
  EXPECT_LE(normalized(std::string(1000, 'x')).size(), 300u);
  EXPECT_EQ(normalized(""), "");
}

TEST(Evidence, AnUndefinedSymbolIsDemangledAndItsLibraryNamed) {
  struct Case {
    const char* message;
    const char* mangled;
    const char* demangled;
    const char* library;
  };
  for (const auto& c : std::initializer_list<Case>{
           {kLoader, "_ZN3c104impl25onramp_gone_in_this_torchEv", "c10::impl::onramp_gone_in_this_torch()",
            "libc10.so"},
           // torch_xla's message on a torch it was not built for.
           {"_XLAC.so: undefined symbol: _ZN5torch8autograd10deleteNodeEPNS0_4NodeE",
            "_ZN5torch8autograd10deleteNodeEPNS0_4NodeE", "torch::autograd::deleteNode(torch::autograd::Node*)",
            "libtorch_cpu.so"},
           {"x.so: undefined symbol: _ZNK2at10TensorBase4cudaEv, version", "_ZNK2at10TensorBase4cudaEv",
            "at::TensorBase::cuda() const", "libtorch_cpu.so"},
           // Not torch's; not mangled; not a name that demangles.
           {"_ext.so: undefined symbol: vendorInit", "vendorInit", "vendorInit", ""},
           {"_ext.so: undefined symbol: _Zgarbage", "_Zgarbage", "_Zgarbage", ""}}) {
    auto s = undefined_symbol(c.message);
    ASSERT_TRUE(s) << c.message;
    EXPECT_EQ(s->mangled, c.mangled);
    EXPECT_EQ(s->demangled, c.demangled);
    EXPECT_EQ(s->library, c.library);
  }
  EXPECT_FALSE(undefined_symbol("cannot open shared object file"));
  EXPECT_FALSE(undefined_symbol("undefined symbol: "));
}

// torch's autoload wrapper, as the fixture's `import torch` raised it, with the loader's error inside.
TEST(Evidence, TheWrapperIsSeenThroughAndTheSymbolSaid) {
  Raised raised{"RuntimeError",
                "Failed to load the backend extension: autoload_symbol. You can disable extension auto-loading with "
                "TORCH_DEVICE_BACKEND_AUTOLOAD=0.",
                "ImportError", kLoader, {}};
  Facts facts;
  facts.set("torch_declared", "torch>=2.6");
  facts.set("torch_range", "torch>=2.6");
  facts.set("torch_version", "2.13.0+cpu");
  Failure f = diagnosed(raised, facts);
  EXPECT_EQ(f.type, "ImportError");
  ASSERT_NE(f.diagnosis, nullptr);
  EXPECT_EQ(f.diagnosis->id, "torch-undefined-symbol-library-declared");
  EXPECT_EQ(f.explanation,
            "The backend declares torch torch>=2.6; its native extension needs c10::impl::onramp_gone_in_this_torch(), "
            "which the dynamic loader does not find in torch 2.13.0+cpu (libc10.so): it was built for another torch "
            "than its range admits.");
  EXPECT_TRUE(f.wrapper.starts_with("RuntimeError: Failed to load the backend extension: autoload_symbol."));
  // The same failure without the wrapper (the probe's import, autoload off) is the same fact.
  Failure direct = diagnosed(Raised{"ImportError", kLoader, "", "", {}}, facts);
  EXPECT_EQ(failure_fact(direct), failure_fact(f));
  EXPECT_TRUE(direct.wrapper.empty());
  auto finding = failure_finding("import autoload_symbol_device failed", f, "cmd");
  EXPECT_NE(finding.text.find("(raised inside RuntimeError: Failed to load the backend extension"), std::string::npos)
      << finding.text;
  EXPECT_EQ(finding.fact, failure_fact(f));
  // Without the declared range: the rule that says the symbol and this torch.
  Facts host_only;
  host_only.set("torch_version", "2.13.0+cpu");
  EXPECT_EQ(diagnosed(raised, host_only).diagnosis->id, "torch-undefined-symbol-library");
  // A backend that declares no torch (torch-xla 2.9.0 on torch 2.13 did): no range is said to be wrong.
  Facts none_declared = host_only;
  none_declared.set("torch_declared", "declares none");
  Failure undeclared = diagnosed(raised, none_declared);
  EXPECT_EQ(undeclared.diagnosis->id, "torch-undefined-symbol-library");
  EXPECT_EQ(undeclared.explanation.find("declares torch declares none"), std::string::npos) << undeclared.explanation;
}

TEST(Evidence, AWrapperIsKeptWhereOnlyItMatchesARule) {
  Facts none;
  Failure f = diagnosed(Raised{"ModuleNotFoundError", "No module named 'vendor_sdk'", "KeyError", "'x'", {}}, none);
  EXPECT_EQ(f.type, "ModuleNotFoundError");
  EXPECT_EQ(f.diagnosis->id, "module-not-found");
  // Neither matches: the innermost is what is said, the wrapper beside it.
  Failure g = diagnosed(Raised{"ValueError", "outer", "KeyError", "'inner'", {}}, none);
  EXPECT_EQ(g.type, "KeyError");
  EXPECT_EQ(g.wrapper, "ValueError: outer");
  EXPECT_EQ(failure_fact(g), "raised KeyError: 'inner'");
}

}  // namespace evidence_test
}  // namespace onramp::diagnosis
