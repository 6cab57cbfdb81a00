#pragma once
// The callees of a composite kernel on PrivateUse1. A CompositeExplicit or
// CompositeImplicitAutograd kernel serves an op on every backend only if the
// ops it calls are served there too. api_probe.py --routes runs each such
// kernel on meta tensors (redispatched to PrivateUse1, with the arguments of
// one traced call) under a TorchDispatchMode that records the ops it
// reaches; those are read here, recursively, each by its own route.
#include <string>
#include <vector>

#include "onramp/probe/served_routes.h"

namespace onramp::probe {

struct CalleeVerdict {
  bool checked = false;                    // the op's own callees were read
  std::string why_not;                     // when not checked
  std::vector<std::string> callees;        // its direct callees
  std::vector<std::string> missing_chain;  // op -> ... -> the first callee with no route; empty when none
  std::string missing_note;                // that callee's own note
  std::vector<std::string> fallback;       // callees reached only through the boxed fallback
  std::vector<std::string> unchecked;      // composite callees whose own callees were not checked
};

// Follows the callees of `op` (depth first, each op once) through their own
// routes (entry_route); a composite callee is followed in turn.
CalleeVerdict check_callees(const ServedFacts& facts, const std::string& op, const DelegateOf& delegate_of);

// "masked_fill.Scalar -> masked_fill_.Scalar: missing"
std::string chain_text(const std::vector<std::string>& chain);

// A composite route with what its callees say: missing with the chain when
// one of them has no route, else the route with its callees in the note.
ServedRoute with_callees(ServedRoute route, const ServedFacts& facts, const std::string& op,
                         const DelegateOf& delegate_of);

}  // namespace onramp::probe
