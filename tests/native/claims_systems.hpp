// Systems defined by data that the claims sweep adds to the registry's defaults: each
// has a declared symmetry, and the first two velocity-linear (gyroscopic) terms, where
// L_q̇q ≠ 0 and a method for M q̈ = f(q) is not symplectic.
#pragma once

#include "support.hpp"

namespace vilab::test {

// A unit charge in the plane, in the axially symmetric field B_z = B(1 + r²) (vector
// potential A = (B/2)(1 + r²/2)(−y, x)), bound by V = k r²/2 + r⁴/4: nonlinear, and
// rotations about z leave L invariant, so the canonical L_z = x p_y − y p_x is kept.
inline Json chargedParticle() {
  return Json::parse(R"({"system":"lagrangian","integrator":"midpoint","h":0.01,
    "params":{"coordinates":["x","y"],"constants":{"B":1,"k":1},
      "lagrangian":"(x'^2 + y'^2)/2 + B/2*(1 + (x^2 + y^2)/2)*(x*y' - y*x') - k*(x^2 + y^2)/2 - (x^2 + y^2)^2/4",
      "symmetries":{"Lz":["-y","x"]}},
    "initial":{"q":[1,0],"qdot":[0.3,0.8]}})");
}

// A unit charge on the unit sphere in the uniform field B e_z under gravity: a
// constraint, a gyroscopic term and the symmetry about the vertical.
inline Json chargedOnSphere() {
  return Json::parse(R"({"system":"lagrangian","integrator":"midpoint","h":0.01,
    "params":{"coordinates":["x","y","z"],"constants":{"B":2,"g":9.81},
      "lagrangian":"(x'^2 + y'^2 + z'^2)/2 + B/2*(x*y' - y*x') - g*z",
      "constraints":["(x^2 + y^2 + z^2 - 1)/2"],
      "symmetries":{"Lz":["-y","x","0"]}},
    "initial":{"q":[0.6,0,-0.8],"qdot":[0,1.5,0]}})");
}

}  // namespace vilab::test
