// The baselines' shared construction and their registry entries.
#include "common.hpp"

namespace vilab {

std::unique_ptr<Stepper> makeRungeKutta(const SystemInstance& sys, const Scenario& s, RungeKuttaMethod method) {
  if (const auto* osc = std::get_if<OscillatorModel>(&sys.model)) {
    const Vec<double, 1> q0 = sys.q0, v0 = sys.v0;
    return std::make_unique<LagrangianOdeStepper<OscillatorSystem, OscillatorTraits>>(OscillatorSystem{*osc}, method,
                                                                                      s.h, q0, v0);
  }
  if (const auto* chain = std::get_if<ChainModel>(&sys.model))
    return std::make_unique<ChainOdeStepper>(*chain, method, s.h, sys.q0, sys.v0);
  if (const auto* body = std::get_if<RigidBodyModel>(&sys.model)) return makeRigidBodyRungeKutta(*body, sys, s, method);
  throw InputError("integrator", "does not apply to system " + s.system);
}

namespace {
VILAB_COLD IntegratorEntry baseline(RungeKuttaMethod method) {
  IntegratorEntry e;
  const bool rk4 = method == RungeKuttaMethod::RK4;
  e.id = rk4 ? "rk4" : "euler";
  e.title = rk4 ? "Runge–Kutta 4 (baseline)" : "Explicit Euler (baseline)";
  e.family = "baseline";
  e.order = rk4 ? 4 : 1;
  e.conserves = {};
  e.systems = allSystems();
  e.summary = rk4 ? "Classical fourth-order Runge–Kutta on the equations of motion: accurate per step, but energy "
                    "and constraints drift."
                  : "Explicit Euler on the equations of motion: energy grows every step.";
  e.docs =
      std::string(rk4 ? "RK4 is the workhorse of most browser simulators. Its local error is O(h⁵), yet it is not "
                        "symplectic: the energy error accumulates, typically as a slow monotone drift (damping for "
                        "oscillations), and nothing keeps momenta or constraints exact. "
                      : "Explicit Euler is the simplest method; for oscillatory motion it adds energy every step, "
                        "so orbits spiral outward. ") +
      "Pendulums and chains are integrated in Cartesian coordinates in index-1 form: the link constraints are "
      "differentiated twice and the multipliers solved at every stage, so the links' lengths drift. Rigid bodies "
      "integrate Euler's equations with quaternion kinematics, so |Π| and |q| drift.";
  e.equations = rk4 ? "y' = f(y),\\quad y_{k+1} = y_k + \\tfrac{h}{6}(k_1 + 2k_2 + 2k_3 + k_4)\\\\"
                      "M\\ddot q = -\\nabla V(q) + Dg(q)^{\\mathsf T}\\lambda,\\quad \\ddot g(q) = 0"
                    : "y_{k+1} = y_k + h\\,f(y_k)\\\\M\\ddot q = -\\nabla V(q) + Dg(q)^{\\mathsf T}\\lambda,\\quad "
                      "\\ddot g(q) = 0";
  e.citation = "Marsden & West, Fig. 1 (variational Newmark vs RK4 energy)";
  e.make = [method](const SystemInstance& sys, const Scenario& s) { return makeRungeKutta(sys, s, method); };
  return e;
}
}  // namespace

VILAB_COLD IntegratorEntry rk4Integrator() { return baseline(RungeKuttaMethod::RK4); }
VILAB_COLD IntegratorEntry eulerIntegrator() { return baseline(RungeKuttaMethod::Euler); }

}  // namespace vilab
