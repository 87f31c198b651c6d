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
  e.title = "Midpoint in unit quaternions (variational)";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  e.symplectic = true;
  e.symmetric = true;
  e.conserves = {{ClaimKind::Symplectic, "symplectic form"},
                 {ClaimKind::Momentum, "spatial angular momentum (free body) / its vertical component (heavy top)"},
                 {ClaimKind::Casimir, "|Π| (free body)"},
                 {ClaimKind::Constraints, "unit quaternion |q| = 1"},
                 {ClaimKind::Momentum, "Π₃ (symmetric top)"},
                 {ClaimKind::EnergyBounded, "energy (bounded, no drift)"}};
  e.summary = "Wendlandt–Marsden: the midpoint DEL on R⁴ with the constraint |q|² = 1 imposed by a Lagrange "
              "multiplier.";
  e.docs =
      "The orientation is a quaternion q in R⁴ constrained to the unit sphere, and the body angular velocity is "
      "ω = 2 vec(q* ⊗ q̇). The Lagrangian L = ½ ωᵀIω − V(q) is written once and the generic engine forms the "
      "midpoint discrete Lagrangian, the discrete Euler–Lagrange equations with a multiplier for |q|² = 1, and their "
      "Newton matrix by automatic differentiation. Being variational, the map is symplectic. Rotating the body in "
      "space, q ↦ r ⊗ q, is a linear symmetry of L (for the heavy top only rotations about the vertical), so the "
      "discrete Noether theorem conserves the spatial angular momentum RΠ exactly (its vertical component for the "
      "heavy top); with |q| = 1 imposed at every step, |Π| = |RΠ| is then conserved too. The energy is not exact but "
      "oscillates within O(h²) without drift. The kinetic energy is degenerate along q itself; vilab gives the "
      "radial rate Ω₀ = 2 q·q̇ an inertia I₀ = mean(I), which changes nothing on the constraint manifold because the "
      "midpoint radial rate (|q_{k+1}|² − |q_k|²)/h vanishes there. On the free body the midpoint L_d depends on the "
      "relative rotation q_k* ⊗ q_{k+1} only, exactly like Moser–Veselov's, so this method and `lie-group` produce "
      "the same discrete motion (to rounding); with gravity they differ at O(h²).";
  e.equations =
      "\\Omega_4 = 2\\,\\bar q^{*}\\otimes\\dot q = (\\Omega_0,\\omega),\\quad "
      "L(q,\\dot q) = \\tfrac12\\left(I_0\\Omega_0^2 + \\omega^{\\mathsf T}I\\omega\\right) - V(q),\\quad "
      "g(q) = |q|^2 - 1\\\\"
      "L_d(q_k,q_{k+1}) = h\\,L\\!\\left(\\tfrac{q_k+q_{k+1}}{2},\\tfrac{q_{k+1}-q_k}{h}\\right)\\\\"
      "p_k + D_1L_d(q_k,q_{k+1}) + 2\\lambda_k q_k = 0,\\quad |q_{k+1}|^2 = 1,\\quad p_{k+1} = D_2L_d(q_k,q_{k+1})\\\\"
      "\\Pi = \\tfrac12\\,\\mathrm{vec}(q^{*}\\otimes p)";
  e.citation = "Wendlandt & Marsden, Mechanical integrators derived from a discrete variational principle, §5 (rigid "
               "body in unit quaternions), eqs. 4.4–4.5";
  return e;
}

const IntegratorEntry& quaternionEntry() {
  static const IntegratorEntry e = make_quaternionIntegrator();
  return e;
}

std::unique_ptr<Integrator> quaternionOnRigidBody(const Model& model, const Options&, double h) {
  return std::make_unique<DelIntegrator<RigidBodyQuaternion, QuaternionCoordinates>>(
      RigidBodyQuaternion(std::get<RigidBodyModel>(model)), DiscreteRule::midpoint(), h);
}

}  // namespace vilab
