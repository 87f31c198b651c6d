// Energy–momentum integrators (Gonzalez): discretize Hamilton's equations with a
// discrete gradient, (y − x)/h = 𝕁 ∇̄H(x, y), where
//     ∇̄H(x, y) = ∇H(x̄) + [H(y) − H(x) − ∇H(x̄)·(y − x)] (y − x)/|y − x|²,  x̄ = (x + y)/2
// (seed 002; equations.md, "Energy-momentum"). Then H(y) − H(x) = ∇̄H·(y − x) = 0: energy
// is conserved exactly, and momentum maps of symmetries that act linearly are kept too.
// The map is not symplectic, in general.
//
// Every system it is offered on has a quadratic (plus linear) Hamiltonian and quadratic
// constraints, and then the bracket vanishes: ∇̄H = ∇H(x̄), the scheme is the implicit
// midpoint rule, and the constraint's discrete gradient is Dg(q̄) (g(q₁) − g(q₀) =
// Dg(q̄)(q₁ − q₀) exactly for quadratic g; Gonzalez 1999).
//
// Chain (pendulum, spherical pendulum, DSP, N links), M constant, ∇V constant (gravity):
//     q_{k+1} − q_k = h M⁻¹ p̄,                 p̄ = (p_k + p_{k+1})/2
//     p_{k+1} − p_k = −h ∇V + Dg(q̄)ᵀ Λ,       q̄ = (q_k + q_{k+1})/2
//     g(q_{k+1}) = 0.
// Energy: H₁ − H₀ = (p₁ − p₀)·M⁻¹p̄ + ∇V·Δq = Λ·Dg(q̄)Δq = Λ·(g(q₁) − g(q₀)) = 0.
// J_z: the constraint impulses are central pairs and gravity is vertical, so no torque
// about z acts at q̄, and the midpoint rule keeps the bilinear J_z exactly.
// Constraints hold at every node; velocities satisfy the hidden constraint at the
// midpoint, Dg(q̄) M⁻¹ p̄ = 0, so M⁻¹p_k is tangent only to O(h²): no projection is
// applied, since projecting would change the energy.
//
// Rigid body and heavy top, in Lie–Poisson form with Γ = Rᵀe₃ (Ω = I⁻¹Π):
//     Π_{k+1} − Π_k = h Π̄ × Ω̄ + h m g Γ̄ × ρ,   Γ_{k+1} − Γ_k = h Γ̄ × Ω̄,
//     R_{k+1} = R_k cay(h Ω̄ / 2),   cay(f) = (I + f̂)(I − f̂)⁻¹.
// The Cayley factor is exactly the one that maps Γ_k to Γ_{k+1} (and, for the free body,
// Π_k to Π_{k+1}). E = ½Π·Ω + m g ρ·Γ, |Π|² (free body), Γ·Π = e₃·RΠ and |Γ|² are
// quadratic, so the midpoint rule keeps all of them; R stays orthogonal by construction.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "vilab/integrators/lie_group.hpp"
#include "vilab/integrators/chain_projection.hpp"
#include "vilab/stepper.hpp"
#include "vilab/systems/chain.hpp"
#include "vilab/systems/rigid_body.hpp"

namespace vilab {

// ---- chain: O(N) per iteration ------------------------------------------------------
// Unknowns Λ (one impulse per link). With the midpoint normals ā_i = d_i(q̄)/l_i,
//     q_{k+1}(Λ) = q* + (h/2) M⁻¹ Dg(q̄)ᵀ Λ,   q* = q_k + h M⁻¹ (p_k − (h/2)∇V),
// which is implicit in q_{k+1} only through ā. Each iteration freezes ā at the latest
// q̄, takes a Newton step on g(q_{k+1}(Λ)) = 0 with the tridiagonal matrix
//     Dg(q_{k+1}) (h/2) M⁻¹ Dg(q̄)ᵀ
// (link i touches bobs i−1 and i only), then refreshes ā. Neglecting ∂ā/∂q_{k+1} makes
// the convergence linear, with a rate of about h²(g + v²/l)/(4l): 5e-4 for the default
// DSP at h = 0.01, so a handful of O(N) iterations reach rounding.
class ChainEnergyMomentumIntegrator {
 public:
  // Momenta of this scheme are not tangent at the nodes (see above): setState keeps p.
  static constexpr bool kTangentMomentum = false;

  ChainEnergyMomentumIntegrator(const ChainModel& model, double h) : model_(model), h_(h) {
    const int n = model_.bobs();
    lengthScale_ = 0;
    for (int i = 0; i < n; ++i) {
      lengthScale_ += model_.lengths[i];
      halfHOverMass_.push_back(0.5 * h / model_.masses[i]);
      invLength_.push_back(1.0 / model_.lengths[i]);
    }
    impulse_.resize(n);
    update_.resize(n);
    normalMid_.resize(n);
    normalEnd_.resize(n);
    freeFlight_.resize(3 * n);
    q1_.resize(3 * n);
    before_.resize(3 * n);
    p1_.resize(3 * n);
    matrix_.resize(n);
  }

  const ChainModel& model() const { return model_; }
  double h() const { return h_; }

  StepOutcome step(VecX& q, VecX& p) {
    StepOutcome out;
    const int n = model_.bobs();
    const double g = model_.g;

    // Stage 1: free flight q* − q_k = h M⁻¹ (p_k − (h/2)∇V), ∇V = (0, 0, m_i g) per bob.
    for (int i = 0; i < n; ++i) {
      const double hm = 2 * halfHOverMass_[i];
      freeFlight_[3 * i] = hm * p[3 * i];
      freeFlight_[3 * i + 1] = hm * p[3 * i + 1];
      freeFlight_[3 * i + 2] = hm * (p[3 * i + 2] - 0.5 * h_ * model_.masses[i] * g);
    }
    // Predictor: Λ = 0, midpoint normals at q_k.
    for (int i = 0; i < n; ++i) normalMid_[i] = chainLink(q.data(), i) * invLength_[i];
    std::fill(impulse_.begin(), impulse_.end(), 0.0);
    positions(q);

    // Stage 2: solve g(q_{k+1}) = 0 for Λ, with ā refreshed every iteration.
    double previousUpdate = std::numeric_limits<double>::infinity();
    bool converged = false;
    for (int it = 1; it <= kMaxIterations && !converged; ++it) {
      out.iterations = it;
      for (int i = 0; i < n; ++i) {
        const Vec3 d = chainLink(q1_.data(), i);
        normalEnd_[i] = d * invLength_[i];
        update_[i] = -(d.squaredNorm() - model_.lengths[i] * model_.lengths[i]) * (0.5 * invLength_[i]);
      }
      linkCouplingMatrix(normalEnd_, normalMid_, halfHOverMass_, matrix_);
      if (!matrix_.solve(update_.data(), scratch_))
        return out.refused("singular multiplier matrix (a link folded onto its neighbour, or h too large)");
      for (int i = 0; i < n; ++i) impulse_[i] += update_[i];
      // Refresh ā at the new midpoint; the size of this iteration is how far q_{k+1}
      // moved (through ΔΛ and through ā), relative to the chain's length.
      before_ = q1_;
      positions(q);
      for (int i = 0; i < n; ++i) normalMid_[i] = 0.5 * (chainLink(q.data(), i) + chainLink(q1_.data(), i)) * invLength_[i];
      positions(q);
      const double update = (q1_ - before_).cwiseAbs().maxCoeff() / lengthScale_;
      if (!std::isfinite(update)) return out.refused("the iteration is not finite (h too large?)");
      // Converged when q_{k+1} no longer moves, or stalls within a few hundred ulps: ā
      // must be the midpoint normal of the final q_{k+1} to the last bit, or the impulses
      // exert a torque (J_z) and do work (E) that, being one-signed, accumulate.
      converged = update == 0 || (update <= 1e-13 && update >= previousUpdate);
      previousUpdate = update;
    }
    if (!converged)
      return out.refused("the constraint iteration did not converge in " + std::to_string(kMaxIterations) +
                         " iterations (last update " + scientific(previousUpdate) + "); reduce h");

    // Stage 3: impulse form p_{k+1} = p_k − h∇V + Dg(q̄)ᵀΛ (no projection: it would
    // change the energy).
    VecX& p1 = p1_;
    p1 = p;
    for (int i = 0; i < n; ++i) {
      const Vec3 push = pushOn(i);
      for (int c = 0; c < 3; ++c) p1[3 * i + c] += push[c];
      p1[3 * i + 2] -= h_ * model_.masses[i] * g;
    }
    if (!q1_.allFinite() || !p1.allFinite()) return out.refused("the new state is not finite");
    q = q1_;
    p = p1;
    return out;
  }

  // Makes M⁻¹p tangent to every link (chain_projection.hpp). Used only for the initial
  // data, which must be tangent anyway.
  bool projectMomentum(const VecX& q, VecX& p) { return projector_.project(model_, q, p); }

 private:
  static constexpr int kMaxIterations = 50;
  static constexpr double kEps = std::numeric_limits<double>::epsilon();

  // The impulse Dg(q̄)ᵀΛ on bob i: link i pulls it along ā_i, link i+1 back.
  Vec3 pushOn(int i) const {
    Vec3 push = impulse_[i] * normalMid_[i];
    if (i + 1 < model_.bobs()) push -= impulse_[i + 1] * normalMid_[i + 1];
    return push;
  }

  // q_{k+1}(Λ) = q_k + q* − q_k + (h/2) M⁻¹ Dg(q̄)ᵀΛ with the current ā.
  void positions(const VecX& q) {
    for (int i = 0; i < model_.bobs(); ++i) {
      const Vec3 push = pushOn(i);
      for (int c = 0; c < 3; ++c)
        q1_[3 * i + c] = q[3 * i + c] + (freeFlight_[3 * i + c] + halfHOverMass_[i] * push[c]);
    }
  }

  ChainModel model_;
  double h_;
  double lengthScale_;
  std::vector<double> impulse_, update_, scratch_;
  std::vector<double> halfHOverMass_, invLength_;
  std::vector<Vec3> normalMid_, normalEnd_;
  VecX freeFlight_, q1_, p1_, before_;
  Tridiagonal matrix_;
  ChainMomentumProjector projector_;
};

// ---- rigid body and heavy top ---------------------------------------------------------
// Newton on x = (Π_{k+1}, Γ_{k+1}) ∈ R⁶ for the residuals
//     r_Π = Π₁ − Π₀ − h Π̄ × Ω̄ − h m g Γ̄ × ρ,   r_Γ = Γ₁ − Γ₀ − h Γ̄ × Ω̄,
// with the exact Jacobian (a × b = â b, ∂Π̄/∂Π₁ = ½, Ω̄ = I⁻¹Π̄):
//     ∂r_Π/∂Π₁ = I − (h/2)(Π̄^ I⁻¹ − Ω̄^),   ∂r_Π/∂Γ₁ = (h/2) m g ρ^,
//     ∂r_Γ/∂Π₁ = −(h/2) Γ̄^ I⁻¹,            ∂r_Γ/∂Γ₁ = I + (h/2) Ω̄^.
class RigidBodyEnergyMomentumIntegrator {
 public:
  RigidBodyEnergyMomentumIntegrator(const RigidBodyModel& model, double h) : model_(model), h_(h) {
    invInertia_ = model.inertia.cwiseInverse();
    weight_ = model.heavy ? model.mass * model.g : 0.0;
  }
  const RigidBodyModel& model() const { return model_; }
  double h() const { return h_; }

  // One step (R_k, Π_k) -> (R_{k+1}, Π_{k+1}); on failure R and Π are untouched.
  StepOutcome step(Mat3& R, Vec3& Pi) const {
    StepOutcome out;
    const Vec3 Gamma0 = R.row(2).transpose();
    const Vec3& rho = model_.com;
    // Predictor: Π₁ = Π₀, Γ₁ = Γ₀.
    Vec3 Pi1 = Pi, Gamma1 = Gamma0;
    const double scalePi = Pi.cwiseAbs().maxCoeff() + h_ * weight_ * rho.cwiseAbs().maxCoeff();
    double previous = std::numeric_limits<double>::infinity();
    bool converged = false;
    for (int it = 1; it <= kMaxIterations && !converged; ++it) {
      out.iterations = it;
      const Vec3 PiMid = 0.5 * (Pi + Pi1), GammaMid = 0.5 * (Gamma0 + Gamma1);
      const Vec3 OmegaMid = invInertia_.cwiseProduct(PiMid);
      Vec<double, 6> r;
      r.head<3>() = Pi1 - Pi - h_ * PiMid.cross(OmegaMid) - (h_ * weight_) * GammaMid.cross(rho);
      r.tail<3>() = Gamma1 - Gamma0 - h_ * GammaMid.cross(OmegaMid);
      Mat<double, 6, 6> J;
      J.topLeftCorner<3, 3>() =
          Mat3::Identity() - (0.5 * h_) * (hat(PiMid) * invInertia_.asDiagonal() - hat(OmegaMid));
      J.topRightCorner<3, 3>() = (0.5 * h_ * weight_) * hat(rho);
      J.bottomLeftCorner<3, 3>() = -(0.5 * h_) * hat(GammaMid) * invInertia_.asDiagonal();
      J.bottomRightCorner<3, 3>() = Mat3::Identity() + (0.5 * h_) * hat(OmegaMid);
      if (!r.allFinite() || !J.allFinite()) return out.refused("the residual is not finite (h·|Ω| too large?)");
      const Eigen::PartialPivLU<Mat<double, 6, 6>> lu(J);
      const double rcond = lu.rcond();
      if (!(rcond > 1e-14)) return out.refused("singular Newton matrix (rcond " + scientific(rcond) + "); reduce h");
      const Vec<double, 6> dx = -lu.solve(r);
      Pi1 += dx.head<3>();
      Gamma1 += dx.tail<3>();
      // Scaled update: Π relative to its size (or the gravity impulse), Γ is a unit vector.
      const double update = std::max(scalePi > 0 ? dx.head<3>().cwiseAbs().maxCoeff() / scalePi : 0.0,
                                     dx.tail<3>().cwiseAbs().maxCoeff());
      if (!std::isfinite(update)) return out.refused("the Newton update is not finite");
      converged = update <= 4 * kEps || (update <= 1e-13 && update >= previous);
      previous = update;
    }
    if (!converged)
      return out.refused("Newton did not converge in " + std::to_string(kMaxIterations) + " iterations (last update " +
                         scientific(previous) + "); the rotation per step is too large, reduce h");
    // Stage 2: R_{k+1} = R_k cay(hΩ̄/2), orthogonal by construction.
    const Vec3 OmegaMid = invInertia_.cwiseProduct(0.5 * (Pi + Pi1));
    const Mat3 R1 = R * LieGroupIntegrator::cayley((0.5 * h_) * OmegaMid);
    if (!R1.allFinite() || !Pi1.allFinite()) return out.refused("the new state is not finite");
    R = R1;
    Pi = Pi1;
    return out;
  }

 private:
  static constexpr int kMaxIterations = 50;
  static constexpr double kEps = std::numeric_limits<double>::epsilon();

  RigidBodyModel model_;
  double h_;
  double weight_;  // m g (heavy top), 0 for the free body
  Vec3 invInertia_;
};

using RigidBodyEnergyMomentumStepper = RotationMatrixStepper<RigidBodyEnergyMomentumIntegrator>;

}  // namespace vilab
