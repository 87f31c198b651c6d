// Placeholder until the rigid-body systems land.
#include "../integrators/common.hpp"

namespace vilab {

std::unique_ptr<Stepper> makeRigidBodyRungeKutta(const RigidBodyModel&, const SystemInstance&, const Scenario& s,
                                                 RungeKuttaMethod) {
  throw InputError("integrator", "does not apply to system " + s.system);
}

}  // namespace vilab
