// Which integrator models forcing (damping, torque, a driving force) on which system: its
// entry's `forces`, save the pairs of the applicability table whose step has no load terms
// (core/src/table.cpp, VILAB_UNFORCED_PAIRS). The scenario parser refuses a forced system
// with the others; the registry publishes the systems as `forcedSystems`.
#pragma once

#include "vilab/registry.hpp"

namespace vilab {

bool modelsForcing(const IntegratorEntry& integrator, ModelKind model);

}  // namespace vilab
