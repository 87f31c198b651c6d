// The Lie-group variational integrator for a mechanism of rigid bodies joined by
// holonomic constraints (Lee, Leok & McClamroch 2005/2007 for each body on SE(3) =
// R³ × SO(3); Marsden & West, Part 3, for the constraints with multipliers).
//
// Discrete Lagrangian of a step, per body (m, J, J_d = ½ tr(J) I₃ − J), F = R_kᵀR_{k+1}:
//   L_d = Σ_i [ m_i/(2h) |x_{k+1} − x_k|² + (1/h) tr((I − F_i) J_d,i) ] − (h/2)(U_k + U_{k+1}),
// U = −Σ m_i g·x_i, with the constraints g(x, R) = 0 at every configuration. Its discrete
// Euler–Lagrange equations with multipliers, in position–momentum form (the discrete
// Legendre transforms p_k = −D₁L_d + (h/2) Gₖᵀλ, p_{k+1} = D₂L_d + (h/2) G_{k+1}ᵀμ), are
// RATTLE on the group. With the impulses of the step's start
//   P_i = p_i + (h/2) m_i g + (h/2)(G_xᵀλ)_i,       Q_i = Π_i + (h/2)(G_ηᵀλ)_i   (G at q_k)
// the configuration update is
//   (E1)  x_{i,k+1} = x_{i,k} + (h/m_i) P_i
//   (E2)  h Q_i^ = F_i J_d,i − J_d,i F_iᵀ,  R_{i,k+1} = R_{i,k} F_i      (Lee et al. eq. (E1))
//   (E3)  g(x_{k+1}, R_{k+1}) = 0
// and the momenta at the step's end are
//   (E4)  p_{i,k+1} = P_i + (h/2) m_i g + (G_xᵀν)_i,  Π_{i,k+1} = F_iᵀQ_i + (G_ηᵀν)_i   (G at q_{k+1})
// with ν = (h/2)μ chosen so that the velocities keep the joints closed, G_{k+1} M⁻¹ p = 0
// (M = blockdiag(m_i I₃, J_i)): a linear, symmetric positive definite solve.
//
// (E2) is solved in Cayley coordinates F = cay(f): for symmetric J it reads
//   C(f) = a + a × f + (aᵀf) f − 2 J f = 0,   a = h Q     (as for the heavy top, lie_group.hpp),
// and (E1)–(E3) together are one Newton problem in z = (f_1 … f_B, w), w = (h²/2)λ:
//   ∂C_i/∂f_i = â − 2J + (aᵀf) I₃ + f aᵀ,       ∂C_i/∂w = (I₃ − f̂ + f fᵀ) G_η,iᵀ(q_k),
//   ∂g/∂f_i = G_η,i(q_{k+1}) · 2/(1 + |f|²) (I₃ − f̂)     (cay(f)ᵀ d cay(f) = (2/(1+|f|²)(I − f̂)df)^),
//   ∂g/∂w = Σ_i G_x,i(q_{k+1}) G_x,iᵀ(q_k) / m_i.
//
// Loads beyond gravity (MechanismModel::appliedLoads: a potential V(x, R, t) and applied
// torques, all functions of the configuration and t) enter as the potential does in Lee,
// Leok & McClamroch's discrete equations, half at each end of the step: (h/2) f_k and
// (h/2) τ_k join P and Q, and (E4) adds (h/2) f_{k+1}, (h/2) τ_{k+1} at the new
// configuration, explicitly (they do not enter the Newton problem). Damping −c ω is a
// non-conservative force, taken by the discrete Lagrange–d'Alembert principle (Marsden &
// West, Part 3, eq. (3.2.2)) with f_d^± = (h/2)(−c ω̄), ω̄ = 2f/h the step's mean angular
// velocity (cay(f) turns by 2 atan|f|; F f = f, so ω̄ is the same in both body frames):
// Q gains −c f_i, which makes (E2) depend on f through a (∂a/∂f_i = −h c_i), and (E4)
// gains −c f_i again. Linear damping −c_x ẋ takes the same split with the step's mean
// velocity v̄ = (x_{k+1} − x_k)/h = P/m: P = P₀ + (h/2)(−c_x P/m) is linear in P, so
// P = P₀/(1 + h c_x/(2m)), which divides ∂x_{k+1}/∂w by the same factor, and (E4) adds
// −(h/2) c_x P/m.
//
// Properties: F_i is orthogonal for every f, so every R stays on SO(3) without
// re-orthonormalization; the map is symplectic and symmetric (order 2); a rotation about
// the gravity axis through a point fixed in the world leaves L_d and the joints to the world
// at that point invariant, so the component of the angular momentum Σ x × p + RΠ along g
// is conserved to rounding (discrete Noether); without joints to the world all of the
// linear momentum's components normal to g and the total angular momentum's along g are.
// On the constraint manifold the step is the variational integrator of the restricted
// discrete Lagrangian: one body on a ball joint at the world's origin gives the heavy top's
// LGVI about the pivot (J_d + m ccᵀ = the pivot's J_d, c the pivot's offset).
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "vilab/integrators/integrator.hpp"
#include "vilab/models/mechanism.hpp"
#include "vilab/outcome.hpp"
#include "vilab/solver/newton.hpp"

namespace vilab {

class MechanismLGVI {
 public:
  MechanismLGVI(const MechanismModel& model, double h);

  double h() const { return h_; }
  const MechanismModel& model() const { return model_; }

  // One step s_k → s_{k+1}; on refusal s is untouched.
  StepOutcome step(MechanismState& s);

  // Tests only: all of the damping impulse at the step's start (f_d^- = h(−c ω̄), f_d^+ = 0),
  // a forcing of order one that the energy balance tests must tell apart.
  void dampAllAtStart(bool allAtStart) { dampAllAtStart_ = allAtStart; }

  // Tests: the residual of (E1)–(E3) at z = (f, w) from the state s, and Newton's matrix.
  void residual(const MechanismState& s, const Eigen::VectorXd& z, Eigen::VectorXd& r, Eigen::MatrixXd* jacobian);

 private:
  int bodyCount() const { return static_cast<int>(model_.bodies.size()); }

  void prepare(const MechanismState& s);

  // The Newton problem of (E1)–(E3), rows scaled to f's units (rotation rows by 2 J_max,
  // joint rows by the mechanism's length) so that the pivots measure conditioning
  // rather than units.
  struct StepProblem {
    using Vector = Eigen::VectorXd;
    MechanismLGVI* self = nullptr;
    const MechanismState* s = nullptr;
    std::vector<Vec3> P0;               // p + (h/2) m g (+ (h/2) f_k)
    std::vector<Vec3> Pi0;              // Π (+ (h/2) τ_k)
    std::vector<double> damping;        // per body, the c of −c f in Q (2c when all at the start)
    std::vector<double> linearDamping;  // per body, the c_x of −(h/2) c_x v̄ in P (2c_x when all at the start)
    Eigen::MatrixXd Gk, G1, jacobian;   // the Jacobians at q_k and q_{k+1}; Newton's matrix
    Eigen::VectorXd g1;                 // the joints at q_{k+1}
    Eigen::PartialPivLU<Eigen::MatrixXd> lu;
    double ratio = 1, fScale = 1, wScale = 1;
    // Filled by configure(z):
    std::vector<Vec3> impulse, rotImpulse, x1;
    std::vector<Mat3> F, R1;

    // x_{k+1}, R_{k+1} and the impulses P, Q from z = (f, w).
    void configure(const Vector& z);

    NewtonEval evaluate(const Vector& z, Vector& r, bool linearize);
    double conditionEstimate() const { return ratio; }
    void solve(Vector& b) const { b = lu.solve(b); }
    // Relative to the rotation per step and to the joints' impulse per step, so that the
    // discrete Noether momentum holds to rounding however small the step.
    double size(const Vector& dz) const;
  };

  MechanismModel model_;
  double h_;
  double lengthScale_ = 1;
  double massScale_ = 0;  // the largest mass
  std::vector<Mat3> inertiaInverse_;
  std::vector<double> rotationScale_;
  StepProblem problem_;
  NewtonWorkspace<Eigen::VectorXd> workspace_;
  bool dampAllAtStart_ = false;
  std::vector<Vec3> force_, torque_;  // the applied loads, scratch
};

// The registry's integrator on a mechanism: the canonical state (x, quaternion; p, Π per
// body) in, (x, R; p, Π) stepped, the canonical state out.
class MechanismIntegrator final : public Integrator {
 public:
  MechanismIntegrator(const MechanismModel& model, double h) : lgvi_(model, h) {}
  void load(const State& s) override { s_ = lgvi_.model().toMechanism(s); }
  StepOutcome step() override { return lgvi_.step(s_); }
  void setTime(double t) override { s_.t = t; }
  void store(State& s) const override { lgvi_.model().store(s_, s); }

 private:
  MechanismLGVI lgvi_;
  MechanismState s_;
};

}  // namespace vilab
