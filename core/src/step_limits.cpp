// The largest time step of each (system, integrator) pair: the largest h on the ladder
// 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1 s at which the integrator takes
// the system's default scenario for 100 s (or 10⁴ steps, when fewer) without a refused
// step; 0 when it breaks down at every step on the ladder. Measured, not chosen:
// tests/native/test_registry.cpp measures every pair again and fails when a value here
// is no longer the measured one.
//
// A system accepts steps up to the largest of its structure-preserving integrators'
// (variational and energy–momentum): beyond it none of them solves its discrete
// equations on the default motion (the double spherical pendulum's midpoint DEL has no
// solution beyond h ≈ 0.05, its energy–momentum scheme none beyond 0.2). Below it, an
// integrator may still be refused at run time, with the reason: the explicit
// baselines blow up (that is their lesson) and an implicit step may have no solution
// near the motion. DOPRI5 is left out of the system's limit: its h is only the output
// interval of an adaptive method.
#include <algorithm>

#include "vilab/registry.hpp"

namespace vilab {

namespace {
struct Limit {
  const char* system;
  const char* integrator;
  double maxH;
};

// clang-format off
constexpr Limit kLimits[] = {
    {"oscillator", "midpoint", 1}, {"oscillator", "trapezoid", 1}, {"oscillator", "alpha", 1},
    {"oscillator", "energy-momentum", 1}, {"oscillator", "rk4", 1}, {"oscillator", "euler", 1},
    {"oscillator", "dopri5", 1},
    {"oscillator", "sem", 1},
    {"pendulum", "midpoint", 0.2}, {"pendulum", "trapezoid", 0.2}, {"pendulum", "alpha", 0.2},
    {"pendulum", "generalized", 0.2}, {"pendulum", "angles-midpoint", 1}, {"pendulum", "penalty", 0.1},
    {"pendulum", "energy-momentum", 1}, {"pendulum", "rk4", 0.5}, {"pendulum", "euler", 0.002},
    {"pendulum", "dopri5", 1},
    {"spherical-pendulum", "midpoint", 0.2}, {"spherical-pendulum", "trapezoid", 0.2},
    {"spherical-pendulum", "alpha", 0.2}, {"spherical-pendulum", "generalized", 0.2},
    {"spherical-pendulum", "angles-midpoint", 0.5}, {"spherical-pendulum", "penalty", 0.05},
    {"spherical-pendulum", "energy-momentum", 1}, {"spherical-pendulum", "rk4", 0.5},
    {"spherical-pendulum", "euler", 0.002}, {"spherical-pendulum", "dopri5", 1},
    {"double-spherical-pendulum", "midpoint", 0.05}, {"double-spherical-pendulum", "trapezoid", 0.05},
    {"double-spherical-pendulum", "alpha", 0.05}, {"double-spherical-pendulum", "generalized", 0.05},
    {"double-spherical-pendulum", "angles-midpoint", 0.002}, {"double-spherical-pendulum", "penalty", 0.02},
    {"double-spherical-pendulum", "energy-momentum", 0.2}, {"double-spherical-pendulum", "rk4", 0.2},
    {"double-spherical-pendulum", "euler", 0.001}, {"double-spherical-pendulum", "dopri5", 1},
    {"chain", "midpoint", 0.01}, {"chain", "trapezoid", 0.01}, {"chain", "alpha", 0.005},
    {"chain", "energy-momentum", 0.05}, {"chain", "rk4", 0.05}, {"chain", "euler", 0}, {"chain", "dopri5", 1},
    {"rigid-body", "quaternion", 0.2}, {"rigid-body", "lie-group", 0.2}, {"rigid-body", "energy-momentum", 1},
    {"rigid-body", "rk4", 1}, {"rigid-body", "euler", 0.05}, {"rigid-body", "dopri5", 1},
    {"heavy-top", "quaternion", 0.05}, {"heavy-top", "lie-group", 0.05}, {"heavy-top", "energy-momentum", 1},
    {"heavy-top", "rk4", 0.2}, {"heavy-top", "euler", 0.005}, {"heavy-top", "dopri5", 1},
    // The default of "lagrangian" (the elastic pendulum); its system limit is not measured (maxStep).
    {"lagrangian", "midpoint", 0.2}, {"lagrangian", "trapezoid", 0.2}, {"lagrangian", "alpha", 0.2},
    {"lagrangian", "penalty", 0.2}, {"lagrangian", "rk4", 0.2}, {"lagrangian", "euler", 0.002},
    {"lagrangian", "dopri5", 1}, {"lagrangian", "energy-momentum", 0.2},
    {"lagrangian", "sem", 0.5},
    // The survey's family around the midpoint rule.
    {"oscillator", "symplectic-euler", 1}, {"oscillator", "rattle", 1}, {"oscillator", "newmark", 1},
    {"oscillator", "composition4", 1}, {"oscillator", "composition6", 1},
    {"pendulum", "symplectic-euler", 0.2}, {"pendulum", "rattle", 0.2}, {"pendulum", "composition4", 0.1},
    {"pendulum", "composition6", 0.2},
    {"spherical-pendulum", "symplectic-euler", 0.2}, {"spherical-pendulum", "rattle", 0.2},
    {"spherical-pendulum", "composition4", 0.1}, {"spherical-pendulum", "composition6", 0.2},
    {"double-spherical-pendulum", "symplectic-euler", 0.05}, {"double-spherical-pendulum", "rattle", 0.05},
    {"double-spherical-pendulum", "composition4", 0.02}, {"double-spherical-pendulum", "composition6", 0.02},
    {"chain", "symplectic-euler", 0.005}, {"chain", "rattle", 0.01}, {"chain", "composition4", 0.005},
    {"chain", "composition6", 0.005},
    {"rigid-body", "composition4", 0.2}, {"rigid-body", "composition6", 0.2},
    {"heavy-top", "composition4", 0.02}, {"heavy-top", "composition6", 0.05},
    {"lagrangian", "symplectic-euler", 0.2}, {"lagrangian", "composition4", 0.5}, {"lagrangian", "composition6", 1},
    // Gonzalez's discrete gradient on the penalty Hamiltonian (default μ = 1e4).
    {"pendulum", "penalty-energy-momentum", 0.1}, {"spherical-pendulum", "penalty-energy-momentum", 0.1},
    {"double-spherical-pendulum", "penalty-energy-momentum", 0.02}, {"lagrangian", "penalty-energy-momentum", 0.2},
    // Lobatto IIIA–IIIB (order 4).
    {"oscillator", "lobatto", 1}, {"pendulum", "lobatto", 0.2}, {"spherical-pendulum", "lobatto", 0.5},
    {"double-spherical-pendulum", "lobatto", 0.1}, {"chain", "lobatto", 0.02}, {"lagrangian", "lobatto", 0.5},
};
// clang-format on

double measured(const std::string& system, const std::string& integrator) {
  for (const Limit& l : kLimits)
    if (system == l.system && integrator == l.integrator) return l.maxH;
  return -1;  // not measured: a new pair (tests/native/test_registry.cpp says so)
}
}  // namespace

double measuredMaxStep(const std::string& system, const std::string& integrator) {
  return measured(system, integrator);
}

double maxStep(const SystemEntry& system, const IntegratorEntry& integrator) {
  const double h = measured(system.id, integrator.id);
  // A pair that refuses the default definition of a system defined by data (it needs a
  // constant mass matrix, say) was not measured: the system's limit applies.
  if (h < 0 && system.parseParams) return maxStep(system);
  return std::max(0.0, h);
}

double maxStep(const SystemEntry& system) {
  // A system defined by data has no default motion to measure on: any h up to the top
  // of the ladder, and the implicit equations refuse the steps they cannot solve.
  if (system.parseParams) return 1.0;
  double h = 0;
  for (const auto& id : integratorsOf(system)) {
    const IntegratorEntry& integrator = *findIntegrator(id);
    if (integrator.family == "variational" || integrator.family == "energy-momentum")
      h = std::max(h, maxStep(system, integrator));
  }
  return h;
}

}  // namespace vilab
