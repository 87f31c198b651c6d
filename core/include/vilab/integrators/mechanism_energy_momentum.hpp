// Integrator `energy-momentum` on a mechanism: Gonzalez's discrete gradient on the
// director formulation of rigid bodies (Betsch & Steinmann 2001, "Constrained integration
// of rigid body dynamics", CMAME 191, §2–4), with the velocity-level constraints at the new
// node (Gonzalez 1999, "Mechanical systems subject to holonomic constraints", Physica D
// 132, the formulation with both g and its rate π as constraints).
//
// Coordinates, private to the step. Each body b is its centre x and the directors d₁, d₂,
// d₃, the columns of R (body → space): q_b ∈ R¹². Its kinetic energy is
//   T_b = ½ m |ẋ|² + ½ tr(Ḋ E Ḋᵀ),  D = [d₁ d₂ d₃],  E = ½ tr(J) I − J (Euler's tensor),
// which equals ½ m|ẋ|² + ½ ωᵀJω for Ḋ = R ω̂; so the mass matrix M = diag(m I₃, E ⊗ I₃) is
// CONSTANT (E is positive definite when J's principal moments satisfy the strict triangle
// inequality). The potential −Σ m g·x is linear. Every constraint is at most quadratic in q:
//   internal  d_i·d_j − δ_ij = 0 (6 per body);
//   ball      x_p + Σ c_p,i d_p,i − x_c − Σ c_c,i d_c,i = 0 (linear);
//   hinge     the ball, and (Σ a_i d_p,i)·(Σ w_j d_c,j) = 0 for w ∈ {b, d} ⊥ the child's
//             axis (bilinear);
//   fixed     the ball, and f_j·d_c,i − f_i·d_c,j = 0 for (i, j) = (2,3), (3,1), (1,2),
//             f_j = Σ_k Q₀,kj d_p,k with Q₀ = R_pᵀR_c at t = 0 (bilinear);
// (the world's R_p = I and x_p = 0 make the parent's terms constant). For a quadratic f,
// f(q_{k+1}) − f(q_k) = ∇f(q̄)·Δq exactly, so Gonzalez's discrete gradient is the gradient
// at the midpoint q̄ for H and for every g_i, and the rates π_i(q, v) = ∇g_i(q)·v are
// bilinear, so theirs is the midpoint's too. With v = M⁻¹p the step is (Gonzalez 1999)
//   Δq = h (v̄ + M⁻¹G(q̄)ᵀμ)
//   Δv = h a_g − h M⁻¹(G(q̄)ᵀλ + P(q̄, v̄)ᵀμ),   P_i = ∂π_i/∂q = Hess(g_i) v̄
//   g(q_{k+1}) = 0,   G(q_{k+1}) v_{k+1} = 0,
// a_g the gravity on the centres. Δz = h 𝕁(∇H − Aᵀλ − Bᵀμ) with A = ∇g, B = ∇π and 𝕁
// the symplectic matrix: ΔH = ∇H·Δz, and with Δg = AΔz = 0, Δπ = BΔz = 0 at both nodes the
// skew products cancel, ΔH = 0 (to Newton's tolerance). A rotation about an axis that
// leaves g invariant (about the gravity axis through the world's joints on it; about any
// axis without gravity and joints to the world) leaves g and π invariant, so the angular
// momentum Σ x × p + Σ_i d_i × π_i (= Σ x × p + RΠ) keeps that component exactly. The map is
// symmetric and of order 2, not symplectic.
//
// The canonical state (per body x, the quaternion of R; p = m ẋ, Π = J ω) is the one
// truth: a step builds the directors and their velocities from it (ḋ_i = R(ω × e_i))
// unless it is the state the last step produced, whose directors it kept (REBOUND's
// synchronize: rebuilding them every step rounds the same steady motion the same way step
// after step, and the constraint forces turned that one-signed rounding into an energy
// drift of 4e-16 per step on the gyroscope), and it brings the new node back: R = D,
// ω = ½ Σ e_i × (Dᵀḋ_i), exact since Dᵀ Ḋ is skew at the node (π = 0 there). A flat body
// (J₁ = J₂ + J₃, e.g. a T of thin rods) has E₁ = 0: d₁ carries no kinetic energy, so the
// step leaves it out (no rows, no velocity) and takes d₁ = d₂ × d₃; a joint that leans on
// it is refused. Newton's matrix is analytic: the residual is polynomial of degree two.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "vilab/integrators/integrator.hpp"
#include "vilab/models/mechanism.hpp"
#include "vilab/models/mechanism_loads.hpp"
#include "vilab/solver/dense_lu.hpp"
#include "vilab/solver/newton.hpp"

namespace vilab {

// Refuses (InputError NotApplicable at `integrator`, saying why) a mechanism whose energy
// the scheme does not keep: a potential (H would no longer be quadratic plus linear; a typed
// V(x, R, t) needs the general discrete gradient), applied torques, damping. The mechanism
// system calls it for this integrator when the scenario is read.
inline void refuseUnlessConserving(const MechanismModel& model) {
  std::string why;
  if (model.loads && model.loads->hasPotential)
    why =
        "a potential (params.potential): energy-momentum keeps H exactly where every term is at most quadratic, "
        "and a typed V(x, R, t) would need the general discrete gradient";
  else if (model.loads && !model.loads->torques.empty())
    why = "applied torques (params.bodies[].torque): they do work, so the energy is not conserved";
  else if (model.damped())
    why = "damping (params.bodies[].damping): it dissipates the energy";
  for (int i = 0; why.empty() && i < model.bodyCount(); ++i)
    if (linearDampingOf(model, i) != 0)
      why = "linear damping (params.bodies[].linearDamping): it dissipates the energy";
  if (!why.empty())
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "energy-momentum conserves the energy of a mechanism under gravity alone, and this one has " +
                         why + ": use lie-group, quaternion, rk4 or dopri5");
}

class MechanismEnergyMomentum {
 public:
  // Refuses (InputError naming `integrator`) what it does not conserve: a potential,
  // applied torques, damping.
  MechanismEnergyMomentum(const MechanismModel& model, double h);

  StepOutcome step(VecX& q, VecX& p);
  // A loaded state's velocities are projected onto the joints' rates (the energy argument
  // needs π(z_k) = 0).
  void prepare(State& s);

  // Tests: at the last step's end, the largest |d_i·d_j − δ_ij| and |G(q) v|.
  double directorError() const { return directorError_; }
  double hiddenConstraintError() const { return hiddenError_; }

  // One row of a constraint: Σ coef q_a·q_b + Σ w·q_a + constant over 3-vector blocks
  // (block 4b is body b's centre, 4b + i its director d_i).
  struct Bilinear {
    int a, b;
    double coef;
  };
  struct Linear {
    int a;
    Vec3 w;
  };
  struct Row {
    std::vector<Bilinear> bilinear;
    std::vector<Linear> linear;
    double constant = 0;
  };

  // ---- the Newton problem: z = (Δq, Δv, λ, μ) ----
  using Vector = Eigen::VectorXd;
  NewtonEval evaluate(const Vector& z, Vector& r, bool linearize);
  double conditionEstimate() const { return lu_.pivotRatio(); }
  void solve(Vector& b) const { lu_.solveInPlace(b); }
  double size(const Vector& dz) const;

 private:
  void directors(const VecX& q, const VecX& p, Eigen::VectorXd& y, Eigen::VectorXd& v) const;
  void gradients(const Eigen::VectorXd& y, Eigen::MatrixXd& G) const;
  void hessianRows(const Eigen::VectorXd& v, Eigen::MatrixXd& P) const;  // rows Hess(g_i) v
  void hessianSum(const Eigen::VectorXd& weights, Eigen::MatrixXd& S) const;
  double value(const Row& row, const Eigen::VectorXd& y) const;
  bool projectVelocities(const Eigen::VectorXd& y, Eigen::VectorXd& v) const;
  Vec3 angularVelocity(int body, const Mat3& R, const Eigen::VectorXd& v) const;

  MechanismModel model_;
  double h_;
  int n_ = 0, c_ = 0, internalRows_ = 0;
  std::vector<int> massless_;  // per body: the director a flat body's E leaves without inertia, or −1
  std::vector<Row> rows_;
  Eigen::MatrixXd Minv_;     // M⁻¹, n × n (block diagonal)
  std::vector<Mat3> Einv_;   // per body E⁻¹
  Eigen::VectorXd gravity_;  // a_g: gravity on the centres
  double lengthScale_ = 1;
  // The step's start and scales.
  Eigen::VectorXd y0_, v0_;
  // The canonical state the last step produced, whose directors y0_, v0_ are.
  VecX keptQ_, keptP_;
  bool kept_ = false;
  double qScale_ = 1, vScale_ = 1, lambdaScale_ = 1, muScale_ = 1;
  // Scratch.
  Eigen::VectorXd ym_, vm_, y1_, v1_, previous_;
  Eigen::MatrixXd Gm_, G1_, Pm_, P1_, S_, jacobian_;
  DenseLU<Eigen::Dynamic> lu_;
  double directorError_ = 0, hiddenError_ = 0;
  NewtonWorkspace<Eigen::VectorXd> workspace_;
};

}  // namespace vilab
