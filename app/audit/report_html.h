// The self-contained HTML page of a rule audit (no network: inline CSS and
// SVG or text diagrams).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace loom::audit {

/// A diagram for the page: a title and an HTML fragment (inline SVG or <pre>).
struct Diagram {
  std::string title, html;
};

/// The page for a report object (see audit.h); diagrams[i] belong to rule set i.
std::string report_html(const nlohmann::json& report,
                        const std::vector<std::vector<Diagram>>& diagrams);

}  // namespace loom::audit
