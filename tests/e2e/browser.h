#pragma once
// A report page drawn by a real browser (headless Chromium) at a phone width
// and a desktop width. Chromium's headless window is at least 500 CSS px wide,
// so the page is measured inside an iframe of the exact viewport size: a
// script appended to a copy of the page measures it with
// getBoundingClientRect() and posts the numbers to the frame, which
// --dump-dom prints. Chromium is a test dependency
// (scripts/debian-packages.txt): without it a test fails rather than skips.
#include <string>

#include <nlohmann/json.hpp>

#include "harness.h"

namespace onramp::e2e {

inline constexpr const char* kChromium = "/usr/bin/chromium";

struct Viewport {
  int width;
  int height;
  int window_width() const;
};

inline constexpr Viewport kPhone{390, 844};
inline constexpr Viewport kDesktop{1280, 900};

// The measurements of `html` (a report page) drawn at `v`, made in `work`:
// viewport, scroll_width, body_width, height, title, the summary's answer and
// roots (their text and bottom edge), every chart and its bars. Null (and a
// test failure) when the browser gave none.
nlohmann::json measure_page(const TempDir& work, const std::string& html, const Viewport& v);

// A screenshot of the page last measured in `work` at `v`: a PNG of the
// window's size, kept as NAME-WIDTH.png in BUILD/e2e-output/screenshots (or
// $ONRAMP_SCREENSHOT_DIR when set) for a person to look at.
void check_screenshot(const TempDir& work, const Viewport& v, const std::string& name = "report");

// The answer first, at a phone's and a desktop's width: the page at `html`
// never scrolls sideways, its document title is `title`, its summary sentence
// begins with `answer`, and it lists `roots` root causes, the sentence and
// every root above the first screen's bottom edge. Screenshots kept (check_screenshot).
void expect_answer_first(const std::string& html, const std::string& title, const std::string& answer, size_t roots,
                         const std::string& name);

// The root blockers and frictions of a report's sections (the verdict's copies left out).
size_t root_problems(const nlohmann::json& report);

}  // namespace onramp::e2e
