// CSV rows shared by the native CLI and the wasm CLI (`npx vilab run`):
// t, q…, p…, energy, momentum…, constraint, iterations at %.17g.
#pragma once

#include <string>

#include "vilab/simulation.hpp"

namespace vilab {

std::string csvHeader(const Simulation& sim);
std::string csvRow(const Simulation& sim);

}  // namespace vilab
