// Integrator `quaternion`: the rigid body in unit quaternions, V = R⁴ with the
// constraint |q|² = 1 (Wendlandt & Marsden §5), through the generic
// VariationalIntegrator (midpoint discrete Lagrangian, Lagrange multiplier, Newton
// with the nested-AD Jacobian). The Lagrangian is written once over a template
// scalar in lagrangians/rigid_body.hpp (RigidBodyQuaternion).
#include "common.hpp"
#include "vilab/lagrangians/rigid_body.hpp"

namespace vilab {

namespace {
// Canonical (q, Π) ↔ the system's (q, p) ∈ T*R⁴: p = 2 q ⊗ (0, Π), the momentum of the
// tangent velocity q̇ = ½ q ⊗ (0, ω); back, Π = ½ vec(q* ⊗ p), which drops the normal
// part of p (along q) that the multiplier absorbs.
struct QuaternionCoordinates {
  static void load(const RigidBodyQuaternion&, const State& s, Vec4& q, Vec4& p) {
    q = s.q;
    p = RigidBodyQuaternion::momentumFromBody(q, Vec3(s.p));
  }
  static void store(const RigidBodyQuaternion&, const Vec4& q, const Vec4& p, State& s) {
    s.q = q;
    s.p = RigidBodyQuaternion::bodyMomentum(q, p);
  }
};
}  // namespace

VILAB_COLD static IntegratorEntry make_quaternionIntegrator() {
  IntegratorEntry e;
  e.id = "quaternion";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  e.symplectic = true;
  e.symmetric = true;
  // On mechanisms: loads, damping and applied torques by the discrete Lagrange–d'Alembert
  // principle (mechanism_quaternion.cpp). The rigid body's step has no load terms: that
  // pair is listed as unforced (table.cpp), so forced rigid bodies refuse it and the
  // registry's forcedSystems leaves them out.
  e.forces = true;
  e.conserves = claims({ClaimKind::Symplectic, ClaimKind::Momentum, ClaimKind::Casimir, ClaimKind::Constraints,
                        ClaimKind::Momentum, ClaimKind::EnergyBounded});
  return e;
}

const IntegratorEntry& quaternionEntry() {
  static const IntegratorEntry e = withProse(make_quaternionIntegrator());
  return e;
}

std::unique_ptr<Integrator> quaternionOnRigidBody(const Model& model, const Options&, double h) {
  return std::make_unique<DelIntegrator<RigidBodyQuaternion, QuaternionCoordinates>>(
      RigidBodyQuaternion(std::get<RigidBodyModel>(model)), DiscreteRule::midpoint(), h);
}

}  // namespace vilab
