// libFuzzer target: scenario JSON text through parseScenario, the one entry of the CLI,
// the JS API (normalize, simulate) and share links; and a definition's params through
// inspectLagrangian (the editor's preview). Every input is accepted or refused with an
// InputError; an accepted scenario's normalized text is itself accepted and normalizes
// to the same text.
#include <cstddef>
#include <cstdint>
#include <string>

#include "check.hpp"
#include "vilab/models/lagrangian.hpp"
#include "vilab/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace vilab;
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string normalized;
  if (fuzz::clean("parseScenario", [&] { normalized = parseScenario(text).normalized; })) {
    std::string again;
    if (!fuzz::clean("parseScenario", [&] { again = parseScenario(normalized).normalized; }))
      fuzz::finding("the normalized scenario is refused", normalized);
    if (again != normalized) fuzz::finding("normalizing is not idempotent", normalized + "\n" + again);
  }
  // The editor's preview of a definition: the same parser, without compiling programs.
  Json doc;
  if (!fuzz::clean("parseJsonText", [&] { doc = parseJsonText(text, "scenario", limits::kMaxScenarioDepth); }))
    return 0;
  if (doc.is_object() && doc.contains("params")) {
    fuzz::clean("inspectLagrangian", [&] {
      Json out;
      inspectLagrangian(doc["params"], out);
      out.dump(-1, ' ', false, Json::error_handler_t::strict);  // as the bindings send it: must be UTF-8
    });
  }
  return 0;
}
