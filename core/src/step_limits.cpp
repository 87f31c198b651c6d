// The largest time step of each (system, integrator) pair: the largest h on the ladder
// 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1 s at which the integrator takes
// the system's default scenario for 100 s (or 10⁴ steps, when fewer) without a refused
// step; 0 when it breaks down at every step on the ladder. Measured, not chosen, and kept
// as data: core/data/step_limits.json (system → integrator → h), embedded at build time.
// tests/native/test_registry.cpp measures every pair again and fails when a value there
// is no longer the measured one; run with VILAB_UPDATE_LIMITS=1 it rewrites the file
// with the measured values instead (a pair that refuses the default definition of a
// system defined by data is not measured: it has no entry).
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

#include "vilab/embedded.hpp"
#include "vilab/registry.hpp"

namespace vilab {

namespace {
// The measured table, parsed once: {system: {integrator: h}}.
const Json& limitsTable() {
  static const Json table = embedded::document(embedded::stepLimits, embedded::stepLimitsSize);
  return table;
}

double measured(const std::string& system, const std::string& integrator) {
  const Json& table = limitsTable();
  const auto s = table.find(system);
  if (s == table.end()) return -1;
  const auto h = s->find(integrator);
  return h == s->end() ? -1 : h->get<double>();  // −1: not measured (a new pair: the registry test says so)
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

// The smallest steps. Below 1e-12 s a step's increment q_{k+1} − q_k is a few ulp of q:
// velocities (q_{k+1} − q_k)/h lose their digits and the implicit equations cannot be
// solved to their tolerance, so every step is refused (at h = 4.9e-324, 1/h is not even
// finite). One integrator needs more, measured on its systems' default scenarios: the
// quaternion DEL on the rigid body (the generic engine's Newton matrix) mixes rows of
// order 1 and 1/h², and below 2e-6 s its pivot ratio passes kSingularPivotRatio (2.4e25
// at 1e-12 s); on a mechanism its rows are scaled to order 1 and it has no such floor. A
// system's floor is the largest of its integrators', so every pair steps at it
// (tests/native/test_hardening.cpp).
constexpr double kMinStep = 1e-12;
constexpr double kMinStepQuaternion = 1e-5;

double minStep(const SystemEntry& system) {
  double h = kMinStep;
  for (const auto& id : integratorsOf(system))
    if (id == "quaternion" && system.model == ModelKind::RigidBody) h = std::max(h, kMinStepQuaternion);
  return h;
}

double maxStep(const SystemEntry& system) {
  // A system defined by data has no default motion to measure on: any h up to the top
  // of the ladder, and the implicit equations refuse the steps they cannot solve.
  if (system.parseParams) return 1.0;
  double h = 0;
  for (const auto& id : integratorsOf(system)) {
    const IntegratorEntry& integrator = *findIntegrator(id);
    if (integrator.family == IntegratorFamily::Variational || integrator.family == IntegratorFamily::EnergyMomentum)
      h = std::max(h, maxStep(system, integrator));
  }
  return h;
}

}  // namespace vilab
