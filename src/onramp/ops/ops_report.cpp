#include "onramp/ops/ops_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <set>

#include "onramp/ops/gaps.h"
#include "onramp/report/section_keys.h"
#include "onramp/ops/methods.h"
#include "onramp/report/writing.h"
#include "onramp/util/text.h"

namespace onramp::ops {
namespace {

using namespace report::writing;

size_t utf8_length(std::string_view s, size_t i) {
  auto b = static_cast<unsigned char>(s[i]);
  size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return 0;
  }
  return n;
}

std::string label_of(const OpInventory& inv) { return printable(inv.where()) + " " + printable(inv.name); }

std::string member_where(const OpInventory& inv, const ResolvedMember& m) {
  return printable(m.member.path.empty() ? inv.path : m.member.path) + ":" + std::to_string(m.member.line);
}

bool is_implemented(const OpInventory& inv) {
  return inv.meaning == "implemented" || inv.meaning == "supported";
}

std::set<std::string> registered_base_names(const Discovery& d) {
  std::set<std::string> names;
  for (const auto& inv : d.inventories) {
    if (!is_implemented(inv)) continue;
    for (const auto& m : inv.members) {
      if (!m.sentinel()) names.insert(fold_to_base(strip_out_and_backward(m.op).name));
    }
  }
  return names;
}

Table inventory_table(const Discovery& d) {
  Table t{keys::kInventoriesTable, "Op inventories found",
          "collections of names (enums, registrations merged by namespace and dispatch key over the tree, string "
          "lists, Python literals, YAML lists and dispatch sections) with at least 10 non-sentinel members of which "
          "more than half resolve to ATen ops, plus any a profile declares",
          "", {{"where", "Where", ""}, {"kind", "Kind", ""}, {"name", "Name", ""}, {"meaning", "Meaning", ""},
               {"meaning_from", "Meaning from", ""}, {"dispatch_key", "Dispatch key", ""},
               {"blocks", "Blocks", "blocks"}, {"members", "Members", "entries"},
               {"sentinels", "Sentinels", "entries"}, {"resolved", "Resolved", "entries"},
               {"resolved_fraction", "Resolved share", "fraction"}},
          {}};
  for (const auto& inv : d.inventories) {
    t.rows.push_back(Json{{"where", printable(inv.where())}, {"kind", to_string(inv.kind)},
                          {"name", printable(inv.name)}, {"meaning", inv.meaning},
                          {"meaning_from", inv.meaning_declared ? "profile" : "guessed from the name"},
                          {"dispatch_key", printable(inv.key_shown.empty() ? inv.dispatch_key : inv.key_shown)},
                          {"blocks", inv.blocks}, {"members", inv.members.size()}, {"sentinels", inv.sentinel_count()},
                          {"resolved", inv.resolved_count()},
                          {"resolved_fraction", std::round(inv.resolved_fraction() * 1000) / 1000}});
  }
  return t;
}

Table methods_table(const OpInventory& inv, const std::vector<CountingMethod>& methods, const OpsReportInput& in) {
  Table t{methods_table_key(inv.where(), inv.name), "Counting methods: " + label_of(inv),
          "the inventory counted every way; each row's rule says how", printable(inv.where()),
          {{"method", "Method", ""}, {"value", "Count", "ops"}, {"rule", "Rule", ""}}, {}};
  t.chart = {"method", "value"};
  if (in.claim_value) t.columns.insert(t.columns.begin() + 2, {"vs_claim", "vs claim", "ops"});
  for (const auto& m : methods) {
    Json row{{"method", m.label}, {"value", m.value ? Json(*m.value) : Json(nullptr)}};
    if (in.claim_value) row["vs_claim"] = m.value ? Json(static_cast<long>(*m.value) - *in.claim_value) : Json(nullptr);
    row["rule"] = m.not_measured.empty() ? m.rule : m.rule + " (not measured: " + m.not_measured + ")";
    t.rows.push_back(std::move(row));
  }
  return t;
}

// Every op each method counts, so that two reports can be compared op by op
// (onramp diff) and other tools can read the inventory (port trace --backend).
Table counted_table(const OpInventory& inv, const std::vector<CountingMethod>& methods) {
  Table t{counted_table_key(inv.where(), inv.name), "Counted under each method: " + label_of(inv),
          "one row per op a method counts (method keys as in the counting-methods table; raw entries as written, "
          "the others as normalized names)",
          printable(inv.where()), {{"method", "Method", ""}, {"op", "Op", ""}}, {}};
  t.json_only = true;
  for (const auto& m : methods) {
    for (const auto& item : m.items) t.rows.push_back(Json{{"method", m.key}, {"op", printable(item)}});
  }
  return t;
}

Table gaps_table(const OpInventory& inv, const std::vector<GapClass>& gaps) {
  Table t{"gaps:" + printable(inv.where()) + ":" + printable(inv.name), "Gap classes: " + label_of(inv),
          "each entry goes to the first class that fits, in this order, read from the source and the schema alone: "
          "whether the dispatcher serves an entry anyway (a decomposition, a delegate, a fallback) needs the "
          "installed backend (onramp audit with a wheel: its routes section)",
          printable(inv.where()),
          {{"class", "Class", ""}, {"count", "Entries", "entries"}, {"examples", "Examples", ""}, {"rule", "Rule", ""}},
          {}};
  t.chart = {"class", "count"};
  for (const auto& g : gaps) {
    std::string examples;
    for (size_t i = 0; i < g.members.size() && i < 5; ++i) examples += (i ? ", " : "") + printable(g.members[i]);
    t.rows.push_back(Json{{"class", g.label}, {"count", g.members.size()}, {"examples", examples}, {"rule", g.rule}});
  }
  return t;
}

void add_member_tables(report::Section& s, const Discovery& d) {
  Table sentinels{"sentinels", "Sentinel members (not counted as ops)",
                  "enum members whose name or comment marks a bound, count or alias (data/ops_rules.toml)", "",
                  {{"where", "Where", ""}, {"inventory", "Inventory", ""}, {"member", "Member", ""}, {"reason", "Why", ""}},
                  {}};
  Table unresolved{"unresolved", "Members that resolve to no ATen op",
                   "members (sentinels excluded) that name no op of the schema, with the normalized name tried", "",
                   {{"where", "Where", ""}, {"inventory", "Inventory", ""}, {"member", "Member", ""}, {"tried", "Tried as", ""}},
                   {}, 40};
  Table conditional{"conditional_members", "Members under #if branches (counted)",
                    "members written under a preprocessor condition other than #if 0; every branch is read, since "
                    "which one a build takes is unknown here", "",
                    {{"where", "Where", ""}, {"inventory", "Inventory", ""}, {"member", "Member", ""},
                     {"condition", "Condition", ""}},
                    {}, 40};
  for (const auto& inv : d.inventories) {
    for (const auto& m : inv.members) {
      if (!m.member.condition.empty()) {
        conditional.rows.push_back(Json{{"where", member_where(inv, m)}, {"inventory", printable(inv.name)},
                                        {"member", printable(m.member.text)}, {"condition", printable(m.member.condition)}});
      }
      Json base{{"where", member_where(inv, m)}, {"inventory", printable(inv.name)},
                {"member", printable(m.member.text)}};
      if (m.sentinel()) {
        base["reason"] = m.member.sentinel;
        sentinels.rows.push_back(std::move(base));
      } else if (!m.op.resolved) {
        base["tried"] = printable(m.op.full_name());
        unresolved.rows.push_back(std::move(base));
      }
    }
  }
  s.add(std::move(sentinels));
  s.add(std::move(unresolved));
  s.add(std::move(conditional));
}

// Where each member of a merged inventory is written, for evidence op by op.
Table members_table(const OpInventory& inv) {
  Table t{"members:" + printable(inv.where()) + ":" + printable(inv.name), "Members and where they are written: " + label_of(inv),
          "one row per registration merged into the inventory, with its file:line and the macro that built its name",
          printable(inv.where()), {{"op", "Op", ""}, {"where", "Where", ""}, {"macro", "Macro", ""}}, {}};
  t.json_only = true;
  for (const auto& m : inv.members) {
    t.rows.push_back(Json{{"op", printable(m.member.text)}, {"where", member_where(inv, m)}, {"macro", printable(m.member.macro)}});
  }
  return t;
}

void add_problem_tables(report::Section& s, const Discovery& d) {
  Table fallbacks{keys::kFallbacksTable, "Backend-wide fallbacks", "TORCH_LIBRARY_IMPL(_, KEY, m) blocks that call m.fallback(...)",
                  "", {{"where", "Where", ""}, {"dispatch_key", "Dispatch key", ""}}, {}};
  for (const auto& f : d.fallbacks) {
    fallbacks.rows.push_back(Json{{"where", printable(f.path) + ":" + std::to_string(f.line)}, {"dispatch_key", printable(f.alias_evidence.empty() ? f.dispatch_key : f.alias_evidence)}});
  }
  s.add(std::move(fallbacks));
  Table problems{"problems", "Files that could not be read cleanly",
                 "malformed YAML, unterminated literals or blocks, macros inside enums; reading continued", "",
                 {{"where", "Where", ""}, {"problem", "Problem", ""}}, {}, 40};
  for (const auto& p : d.diagnostics) {
    problems.rows.push_back(Json{{"where", printable(p.path) + ":" + std::to_string(p.line)}, {"problem", printable(p.problem)}});
  }
  s.add(std::move(problems));
}

void add_claim_findings(report::Section& s, const OpsReportInput& in) {
  if (!in.claim_value) return;
  for (const auto& inv : in.discovery.inventories) {
    if (!is_implemented(inv)) continue;
    std::vector<std::string> exact;
    size_t lo = SIZE_MAX, hi = 0;
    for (const auto& m : count_every_way(inv, in.schema)) {
      if (!m.value || m.key == "unresolved") continue;
      lo = std::min(lo, *m.value), hi = std::max(hi, *m.value);
      if (static_cast<long>(*m.value) == *in.claim_value) exact.push_back(m.label);
    }
    std::string text = fmt::format("The claim \"{}\" set against {}: the counting methods give {} to {}; ", in.claim,
                                   label_of(inv), lo, hi);
    text += exact.empty() ? "none gives exactly " + std::to_string(*in.claim_value) + ", so the figure depends on an unstated rule"
                          : "\"" + exact.front() + "\" gives it exactly";
    std::string name = util::shortened(printable(inv.name), 25);
    report::Title title{exact.empty()
                            ? fmt::format("No counting method gives the claimed {} for {}: they give {} to {}",
                                          *in.claim_value, name, lo, hi)
                            : fmt::format("Counted as \"{}\", {} has exactly the claimed {}",
                                          util::shortened(exact.front(), 25), name, *in.claim_value)};
    s.add(Finding{exact.empty() ? Severity::friction : Severity::info, std::move(title), text,
                  exact.empty() ? "state the counting rule next to the number" : "", printable(inv.where())});
  }
}

void add_gap_findings(report::Section& s, const OpInventory& inv, const std::vector<GapClass>& gaps) {
  size_t total = 0, other = 0;
  std::string parts;
  for (const auto& g : gaps) {
    total += g.members.size();
    if (g.key == "other") other = g.members.size();
    else if (!g.members.empty()) parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", g.members.size(), g.label);
  }
  if (total == 0) return;
  s.add(Finding{Severity::info,
                report::Title{fmt::format("{} lists {} entries: a list of work, not of failures",
                                          util::shortened(printable(inv.name), 40), total)},
                fmt::format("{} lists {} entries: {}; {} other. It is a list of work, not a count of failures.",
                            label_of(inv), total, parts.empty() ? "none classified" : parts, other),
                "", printable(inv.where())});
}

Table blocks_table(const Discovery& d) {
  Table t{"registration_blocks", "Registration blocks (TORCH_LIBRARY_IMPL), and the inventory each is merged into",
          "every TORCH_LIBRARY_IMPL(ns, KEY, m) block in the tree, written or opened by a macro's use, its key after "
          "#define and constexpr aliases, and the names it registers",
          "", {{"where", "Where", ""}, {"namespace", "Namespace", ""}, {"key_written", "Key as written", ""},
               {"key", "Key", ""}, {"macro", "Macro", ""}, {"members", "Registrations", "entries"},
               {"merged_into", "Merged into", ""}},
          {}, 40};
  for (const auto& b : d.blocks) {
    t.rows.push_back(Json{{"where", printable(b.path) + ":" + std::to_string(b.line)}, {"namespace", printable(b.ns)},
                          {"key_written", printable(b.key_written)}, {"key", printable(b.key)},
                          {"macro", printable(b.macro)}, {"members", b.members},
                          {"merged_into", printable(b.merged_into)}});
  }
  return t;
}

Table macros_table(const Discovery& d) {
  Table t{"registering_macros", "Macros that register ops by names they build",
          "function-like #defines whose body calls impl() with a name made of literals and #PARAM; each use found at "
          "file scope or in a registration block is expanded with its arguments", "",
          {{"where", "Where", ""}, {"macro", "Macro", ""}, {"uses", "Uses", "uses"},
           {"members", "Names built", "entries"}, {"unread", "Not readable", "registrations"}},
          {}};
  for (const auto& m : d.macros) {
    t.rows.push_back(Json{{"where", printable(m.path) + ":" + std::to_string(m.line)}, {"macro", printable(m.macro)},
                          {"uses", m.uses}, {"members", m.members}, {"unread", m.unread}});
  }
  return t;
}

Table dispatch_files_table(const Discovery& d) {
  Table t{"dispatch_yaml_files", "Files in native_functions.yaml format",
          "top-level lists of func: entries; a file is a copy of PyTorch's schema when more than half of its entries "
          "with a dispatch: section name none but PyTorch's own keys (data/ops_rules.toml), else each other key's "
          "entries are an inventory", "",
          {{"where", "Where", ""}, {"reads_as", "Reads as", ""}, {"entries", "Entries", "entries"},
           {"with_dispatch", "With dispatch", "entries"}, {"only_pytorch_keys", "Only PyTorch's keys", "entries"},
           {"keys", "Keys", ""}},
          {}};
  auto row = [&](const DispatchFile& f, const char* reads_as) {
    std::string keys;
    for (const auto& [k, n] : f.keys) keys += (keys.empty() ? "" : ", ") + printable(k) + " " + std::to_string(n);
    t.rows.push_back(Json{{"where", printable(f.path) + ":" + std::to_string(f.line)}, {"reads_as", reads_as},
                          {"entries", f.entries}, {"with_dispatch", f.with_dispatch},
                          {"only_pytorch_keys", f.only_pytorch_keys}, {"keys", keys}});
  };
  for (const auto& c : d.schema_copies) row(c.file, "a copy of PyTorch's schema, not an inventory");
  for (const auto& f : d.backend_lists) row(f, "a backend's own list");
  std::sort(t.rows.begin(), t.rows.end(), [](const Json& a, const Json& b) { return a["where"] < b["where"]; });
  return t;
}

Table custom_ops_table(const Discovery& d) {
  Table t{"custom_ops", "The backend's own ops (TORCH_LIBRARY m.def)",
          "schemas defined with m.def(\"...\") in TORCH_LIBRARY and TORCH_LIBRARY_FRAGMENT blocks, counted apart "
          "from ATen ops", "", {{"namespace", "Namespace", ""}, {"op", "Op", ""}, {"where", "Where", ""}}, {}, 40};
  for (const auto& c : d.custom_ops) {
    t.rows.push_back(Json{{"namespace", printable(c.ns)}, {"op", printable(c.schema)},
                          {"where", printable(c.path) + ":" + std::to_string(c.line)}});
  }
  return t;
}

size_t macro_named_registrations(const Discovery& d) {
  size_t n = d.unknown_macro_uses;
  for (const auto& m : d.macros) n += m.unread;
  for (const auto& inv : d.inventories) n += static_cast<size_t>(inv.macro_names);
  return n;
}

void add_registration_tables(report::Section& s, const Discovery& d, const OpsReportInput& in) {
  s.add(Figure{"registration_blocks", "Registration blocks", d.blocks.size(), "blocks",
               "TORCH_LIBRARY_IMPL blocks in the tree, written or opened by a macro's use", in.source_evidence, ""});
  size_t macro_named = macro_named_registrations(d);
  s.add(Figure{"registrations_named_by_macro_unread", "Registrations with a name made by a macro, not read",
               macro_named, "registrations",
               "impl() calls whose op name is not a literal and no readable macro use gives it, plus uses of undefined "
               "macros in registration blocks", in.source_evidence, ""});
  std::set<std::pair<std::string, std::string>> custom;
  for (const auto& c : d.custom_ops) custom.emplace(c.ns, c.schema.substr(0, c.schema.find('(')));
  s.add(Figure{"custom_ops_defined", "The backend's own ops", custom.size(), "ops",
               "distinct namespace::name of m.def schemas in TORCH_LIBRARY blocks", in.source_evidence, ""});
  s.add(Figure{"schema_copies", "Copies of PyTorch's schema", d.schema_copies.size(), "files",
               "native_functions.yaml-format files whose dispatch entries mostly name PyTorch's own keys",
               in.source_evidence, ""});
  s.add(blocks_table(d));
  s.add(macros_table(d));
  s.add(dispatch_files_table(d));
  s.add(custom_ops_table(d));
  for (const auto& inv : d.inventories) {
    if (inv.kind != InventoryKind::cpp_registration || inv.blocks < 2) continue;
    s.add(Finding{Severity::info,
                  report::Title{fmt::format("{} ops for {}: {} blocks in {} files, merged into one inventory",
                                            util::shortened(printable(inv.ns), 15),
                                            util::shortened(printable(inv.dispatch_key), 20), inv.blocks,
                                            inv.files.size())},
                  fmt::format("{} ops registered for {}: {} registrations in {} blocks across {} files, merged into "
                              "one inventory ({})",
                              printable(inv.ns), printable(inv.key_shown.empty() ? inv.dispatch_key : inv.key_shown),
                              inv.members.size(), inv.blocks, inv.files.size(), label_of(inv)),
                  "", printable(inv.where())});
  }
  if (macro_named > 0) {
    s.add(Finding{Severity::friction,
                  report::Title{fmt::format("{} registrations have a name made by a macro that could not be read",
                                            macro_named)},
                  fmt::format("{} registrations have a name made by a macro that could not be read; they are not in "
                              "any inventory (see the registering_macros table and the problems table)", macro_named),
                  "write the op names as literals, or keep the registering macro's uses in the tree", ""});
  }
}

}  // namespace

std::string methods_table_key(const std::string& where, const std::string& name) {
  return "methods:" + printable(where) + ":" + printable(name);
}

std::string counted_table_key(const std::string& where, const std::string& name) {
  return "counted:" + printable(where) + ":" + printable(name);
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t n = utf8_length(text, i);
    if (n == 0) {
      out += fmt::format("\\x{:02X}", static_cast<unsigned char>(text[i]));
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

report::Section build_ops_section(const OpsReportInput& in) {
  const Discovery& d = in.discovery;
  report::Section s;
  s.key = keys::kSection;
  s.title = "Operator inventories";
  s.add(Figure{"aten_schema", "ATen schema", printable(in.schema.origin()), "", "the native_functions.yaml every name "
               "is resolved against", in.schema_evidence, ""});
  s.add(Figure{"aten_ops", "ATen ops in the schema", in.schema.ops().size(), "ops", "func: entries (name.overload)",
               printable(in.schema.origin()), ""});
  Figure core{"aten_core_ops", "Core ATen op names", nullptr, "ops", "distinct op names with the core tag on any overload",
              printable(in.schema.origin()), ""};
  if (in.schema.has_core_tag()) core.value = in.schema.core_names().size();
  else core.not_measured = "this schema has no core tag (PyTorch before 2.1)";
  s.add(std::move(core));
  s.add(Figure{"files_read", "Files read", d.files_read, "files", "listed files with a C/C++, Python or YAML extension",
               in.source_evidence, ""});
  s.add(Figure{"inventories_found", "Inventories found", d.inventories.size(), "inventories",
               "collections kept by the rule of the inventories table", in.source_evidence, ""});
  s.add(Figure{"fallbacks", "Backend-wide fallbacks", d.fallbacks.size(), "registrations",
               "TORCH_LIBRARY_IMPL(_, KEY, m) blocks calling m.fallback", in.source_evidence, ""});
  if (!in.claim.empty()) {
    s.add(Figure{"claim", "Claim", in.claim, "", "the claim the counting methods are set against",
                 in.claim_source, ""});
  }
  s.add(inventory_table(d));
  std::set<std::string> registered = registered_base_names(d);
  for (const auto& inv : d.inventories) {
    auto methods = count_every_way(inv, in.schema);
    s.add(methods_table(inv, methods, in));
    s.add(counted_table(inv, methods));
    if (inv.blocks > 1 || inv.declared_by >= 0) s.add(members_table(inv));
    if (inv.meaning == "unregistered" || inv.meaning == "falls_back_to_cpu") {
      auto gaps = classify_gaps(inv, in.schema, in.rules, registered);
      s.add(gaps_table(inv, gaps));
      add_gap_findings(s, inv, gaps);
    }
  }
  add_member_tables(s, d);
  add_problem_tables(s, d);
  add_claim_findings(s, in);
  add_registration_tables(s, d, in);
  for (const auto& m : d.missing) {
    std::string what = m.key.empty() ? m.name + " in " + m.path
                                     : "the " + m.ns + " registrations for key " + m.key + " in " + (m.files.empty() ? "any file" : m.files);
    report::Title title{m.key.empty()
                            ? fmt::format("The profile declares {} but no such inventory was found",
                                          util::shortened(m.name, 45))
                            : fmt::format("The profile's {} registrations for key {} were not found",
                                          util::shortened(m.ns, 20), util::shortened(m.key, 25))};
    s.add(Finding{Severity::friction, std::move(title), "The profile declares " + what + " (" + m.meaning +
                  ") but no such inventory was found", "update the profile to the repository's layout", in.profile ? in.profile->origin : ""});
  }
  bool guessed = std::any_of(d.inventories.begin(), d.inventories.end(), [](const auto& i) { return !i.meaning_declared; });
  if (guessed) {
    s.add(Finding{Severity::info,
                  report::Title{"Meanings marked \"guessed from the name\" come from data/ops_rules.toml, not from the "
                                "backend"},
                  "Meanings marked \"guessed from the name\" come from data/ops_rules.toml, not from the backend",
                  "pass --profile NAME (or a .toml) to declare what each inventory means", ""});
  }
  return s;
}

}  // namespace onramp::ops
