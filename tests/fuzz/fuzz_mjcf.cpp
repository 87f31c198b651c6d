// libFuzzer target: MJCF text through importMjcf, the one entry of `vilab import` and
// lab.importMjcf. Every input is imported or refused with an InputError (its message
// delivered whole, as every target checks); an imported scenario's JSON text is UTF-8
// and parseScenario accepts it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "check.hpp"
#include "vilab/mjcf.hpp"
#include "vilab/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace vilab;
  const std::string text(reinterpret_cast<const char*>(data), size);
  Json scenario;
  if (!fuzz::clean("importMjcf", [&] { scenario = importMjcf(text); })) return 0;
  std::string dumped;
  // As `vilab import` prints it and the bindings send it: strict UTF-8.
  fuzz::clean("dump", [&] { dumped = scenario.dump(2, ' ', false, Json::error_handler_t::strict); });
  if (!fuzz::clean("parseScenario", [&] { parseScenario(dumped); }))
    fuzz::finding("an imported scenario is refused", dumped);
  return 0;
}
