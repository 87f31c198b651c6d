// MuJoCo models in: the subset of MJCF (MuJoCo's XML model format) that maps onto a
// `mechanism` scenario — bodies with their inertia (from <inertial> or from their geoms),
// ball and hinge joints, free bodies, bodies welded to their parent, gravity, the time
// step and the first keyframe as the initial state. Anything else that changes the
// physics is refused with the line it is on.
#pragma once

#include <string>

#include "vilab/json.hpp"

namespace vilab {

// The `mechanism` scenario (system, integrator "lie-group", h, params, about) of an MJCF
// document, accepted by parseScenario. Refusals are InputErrors whose field is
// "mjcf line N" ("mjcf line 12: <tendon> is not supported").
Json importMjcf(const std::string& xml);

}  // namespace vilab
