// Constant parameters of the free rigid body and the heavy top.
#pragma once

#include "vilab/types.hpp"

namespace vilab {

struct RigidBodyModel {
  Vec3 inertia = Vec3(1, 2, 3);  // principal moments I1, I2, I3 (body frame)
  bool heavy = false;            // heavy top: fixed point at the origin, gravity along −z
  double mass = 0;
  Vec3 com = Vec3::Zero();  // centre of mass in the body frame
  double g = 0;
};

}  // namespace vilab
