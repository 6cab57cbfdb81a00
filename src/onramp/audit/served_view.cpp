#include "onramp/audit/served_view.h"

#include <fmt/format.h>

#include <array>
#include <set>

#include "onramp/report/finding_graph.h"

namespace onramp::audit {
namespace {

using probe::Route;

constexpr std::array kRoutes{Route::own_kernel,         Route::torch_kernel,       Route::via_delegate,
                             Route::composite_explicit, Route::composite_implicit, Route::boxed_fallback,
                             Route::missing,            Route::unknown_op};

// Served: some route other than none; an op the dispatcher does not know is neither served nor missing.
bool served(Route r) { return r != Route::missing && r != Route::unknown_op; }

struct Counts {
  std::map<Route, long> by_route;
  long total = 0;
  long count(Route r) const {
    auto it = by_route.find(r);
    return it == by_route.end() ? 0 : it->second;
  }
  long served_count() const {
    long n = 0;
    for (auto r : kRoutes) n += served(r) ? count(r) : 0;
    return n;
  }
};

Counts count_routes(const std::map<std::string, std::string>& ops, const probe::AskedRoutes& asked) {
  Counts c;
  for (const auto& [op, where] : ops) {
    auto it = asked.routes.find(op);
    ++c.by_route[it == asked.routes.end() ? Route::unknown_op : it->second.route];
    ++c.total;
  }
  return c;
}

std::string evidence_of(const ServedViewInput& in, const probe::AskedRoutes& asked) {
  return asked.command + "; the ops: " + in.source_evidence + "; structured delegates: " + in.schema_evidence;
}

const std::string kMethod =
    "each op asked of the dispatcher once, in one interpreter, after importing the installed backend (autoload "
    "off): its PrivateUse1 line of _dispatch_dump_table, whether the import registered it, and for a structured op "
    "its structured_delegate's line; ";

report::Figure figure(const std::string& key, const std::string& label, long value, const std::string& what,
                      const std::string& evidence, const probe::AskedRoutes& asked) {
  report::Figure f{key, label, value, "ops", kMethod + what, evidence, ""};
  if (!asked.facts.measured) {
    f.value = nullptr;
    f.not_measured = asked.facts.not_measured;
  }
  return f;
}

void add_figures(report::Section& s, const Counts& src, const Counts& listed, long all, const std::string& ev,
                 const probe::AskedRoutes& a) {
  s.add(figure("served_view_ops", "Ops in the served view", all,
               "the ops the source registers for PrivateUse1 and the ops its unregistered lists name, each once", ev, a));
  s.add(figure("source_registered_ops", "Registered in the source", src.total,
               "the ops of the source's implemented registration inventories", ev, a));
  s.add(figure("source_registered_own_kernel", "Registered in the source, the backend's kernel at run time",
               src.count(Route::own_kernel), "of those, the ones whose route is the kernel the import registered", ev,
               a));
  s.add(figure("source_registered_served_otherwise", "Registered in the source, served by another route",
               src.served_count() - src.count(Route::own_kernel),
               "of those, the ones served at run time by a route other than the backend's own kernel (torch's "
               "kernel, a delegate, a composite, a fallback)",
               ev, a));
  s.add(figure("source_registered_missing", "Registered in the source, no route at run time",
               src.count(Route::missing), "of those, the ones no route serves: a call raises \"Could not run\"", ev, a));
  s.add(figure("source_registered_unknown_op", "Registered in the source, unknown to the dispatcher",
               src.count(Route::unknown_op), "of those, the ones the running torch does not know", ev, a));
  s.add(figure("listed_unregistered_ops", "Listed as unregistered", listed.total,
               "the ops the source's unregistered-ops inventories name, asked by the name the list gives", ev, a));
  s.add(figure("listed_unregistered_served", "Listed as unregistered, served anyway", listed.served_count(),
               "of those, the ones some route serves at run time (the served_view table says which)", ev, a));
  s.add(figure("listed_unregistered_missing", "Listed as unregistered, no route at run time",
               listed.count(Route::missing), "of those, the ones no route serves: a call raises \"Could not run\"",
               ev, a));
  s.add(figure("listed_unregistered_unknown_op", "Listed as unregistered, unknown to the dispatcher",
               listed.count(Route::unknown_op), "of those, the names the running torch does not know", ev, a));
}

report::Table counts_table(const Counts& src, const Counts& listed, const std::string& ev) {
  report::Table t{"served_view", "Ops by route at run time",
                  kMethod + "each op counted once per list it is in", ev,
                  {{"route", "Route", ""}, {"source_registered", "Registered in source", "ops"},
                   {"listed_unregistered", "Listed unregistered", "ops"}},
                  {}};
  for (auto r : kRoutes) {
    t.rows.push_back({{"route", probe::to_string(r)}, {"source_registered", src.count(r)},
                      {"listed_unregistered", listed.count(r)}});
  }
  return t;
}

std::string list_of(const ServedViewInput& in, const std::string& op) {
  bool src = in.source_registered.contains(op), listed = in.listed_unregistered.contains(op);
  return src && listed ? "both" : src ? "source_registered" : "listed_unregistered";
}

report::Table routes_table(const ServedViewInput& in, const probe::AskedRoutes& asked, const std::string& ev) {
  report::Table t{"served_routes", "Each op's route at run time", kMethod + "one row per op of either list", ev,
                  {{"op", "Op", ""}, {"list", "List", ""}, {"route", "Route", ""}, {"where", "Where", ""},
                   {"via", "Via", ""}, {"source", "Source place", ""}, {"note", "Note", ""}},
                  {}, 20};
  for (const auto& op : served_view_ops(in)) {
    auto it = asked.routes.find(op);
    probe::ServedRoute r = it == asked.routes.end() ? probe::ServedRoute{Route::unknown_op, "", "", "not asked"} : it->second;
    auto src = in.source_registered.find(op);
    std::string place = src != in.source_registered.end() ? src->second : in.listed_unregistered.at(op);
    t.rows.push_back({{"op", op}, {"list", list_of(in, op)}, {"route", probe::to_string(r.route)}, {"where", r.where},
                      {"via", r.via}, {"source", place}, {"note", r.note}});
  }
  return t;
}

void add_findings(report::Section& s, const Counts& src, const Counts& listed, const std::string& ev) {
  using report::Severity;
  if (long n = src.count(Route::missing); n > 0) {
    s.add(report::Finding{Severity::friction,
                          report::Title{fmt::format("{} op(s) the source registers for PrivateUse1 have no route at run time", n)},
                          fmt::format("{} op(s) the source registers for PrivateUse1 have no route at run time: a call "
                                      "raises \"Could not run\" (see served_routes)",
                                      n),
                          "check that the registration is compiled into the installed build", ev});
  }
  if (long n = src.served_count() - src.count(Route::own_kernel); n > 0) {
    s.add(report::Finding{Severity::info,
                          report::Title{fmt::format("{} op(s) the source registers for PrivateUse1 are served by another route", n)},
                          fmt::format("{} op(s) the source registers for PrivateUse1 are served by another route at run "
                                      "time (see served_routes)",
                                      n),
                          "", ev});
  }
  if (listed.total > 0) {
    std::string by;
    for (auto r : kRoutes) {
      if (served(r) && listed.count(r) > 0) by += fmt::format("{}{} {}", by.empty() ? "" : ", ", listed.count(r), probe::to_string(r));
    }
    s.add(report::Finding{Severity::info,
                          report::Title{fmt::format("Of {} op(s) listed as unregistered, {} are served anyway", listed.total,
                                                    listed.served_count())},
                          fmt::format("Of {} op(s) listed as unregistered, {} are served anyway{}, {} have no route and "
                                      "{} are unknown to the dispatcher",
                                      listed.total, listed.served_count(), by.empty() ? "" : " (" + by + ")",
                                      listed.count(Route::missing), listed.count(Route::unknown_op)),
                          "", ev});
  }
}

}  // namespace

std::vector<std::string> served_view_ops(const ServedViewInput& in) {
  std::set<std::string> all;
  for (const auto& [op, where] : in.source_registered) all.insert(op);
  for (const auto& [op, where] : in.listed_unregistered) all.insert(op);
  return {all.begin(), all.end()};
}

report::Section served_view_section(const ServedViewInput& in, const probe::AskedRoutes& asked) {
  report::Section s{kRoutesSection, "Served view: each op's route on PrivateUse1, asked of the dispatcher", {}, {}, {}};
  std::string ev = evidence_of(in, asked);
  Counts src = count_routes(in.source_registered, asked), listed = count_routes(in.listed_unregistered, asked);
  add_figures(s, src, listed, static_cast<long>(served_view_ops(in).size()), ev, asked);
  if (!asked.facts.measured) {
    report::Finding& f =
        s.add(report::Finding{report::Severity::info, report::Title{"The served view was not measured"},
                              "Not measured: the served view: " + asked.facts.not_measured, "", ev});
    f.diagnosis = report::kNotMeasured;
    return s;
  }
  s.add(counts_table(src, listed, ev));
  s.add(routes_table(in, asked, ev));
  add_findings(s, src, listed, ev);
  return s;
}

}  // namespace onramp::audit
