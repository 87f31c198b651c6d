// Energy–momentum integrator of the rigid body and the heavy top (Gonzalez's discrete
// gradient), in Lie–Poisson form with Γ = Rᵀe₃ (Ω = I⁻¹Π):
//     Π_{k+1} − Π_k = h Π̄ × Ω̄ + h m g Γ̄ × ρ,   Γ_{k+1} − Γ_k = h Γ̄ × Ω̄,
//     R_{k+1} = R_k cay(h Ω̄ / 2),   cay(f) = (I + f̂)(I − f̂)⁻¹.
// E = ½Π·Ω + m g ρ·Γ, |Π|² (free body), Γ·Π = e₃·RΠ and |Γ|² are quadratic, so the
// discrete gradient is the gradient at the midpoint and the midpoint rule keeps all of
// them exactly. The Cayley factor is exactly the one that maps Γ_k to Γ_{k+1} (and, for
// the free body, Π_k to Π_{k+1}); R stays orthogonal by construction. Not symplectic.
//
// Newton on x = (Π_{k+1}, Γ_{k+1}) ∈ R⁶ for the residuals
//     r_Π = Π₁ − Π₀ − h Π̄ × Ω̄ − h m g Γ̄ × ρ,   r_Γ = Γ₁ − Γ₀ − h Γ̄ × Ω̄,
// with the exact Jacobian (a × b = â b, ∂Π̄/∂Π₁ = ½, Ω̄ = I⁻¹Π̄):
//     ∂r_Π/∂Π₁ = I − (h/2)(Π̄^ I⁻¹ − Ω̄^),   ∂r_Π/∂Γ₁ = (h/2) m g ρ^,
//     ∂r_Γ/∂Π₁ = −(h/2) Γ̄^ I⁻¹,            ∂r_Γ/∂Γ₁ = I + (h/2) Ω̄^.
#pragma once

#include "vilab/integrators/lie_group.hpp"

namespace vilab {

class RigidEnergyMomentumStepper {
 public:
  RigidEnergyMomentumStepper(const RigidBodyModel& model, double h) : model_(model), h_(h) {
    invInertia_ = model.inertia.cwiseInverse();
    weight_ = model.heavy ? model.mass * model.g : 0.0;
  }

  // One step (R_k, Π_k) -> (R_{k+1}, Π_{k+1}); on refusal R and Π are untouched.
  StepOutcome step(Mat3& R, Vec3& Pi) const {
    // Stage 1: Newton on (Π_{k+1}, Γ_{k+1}) from the predictor (Π_k, Γ_k).
    Problem problem(*this, Pi, R.row(2).transpose());
    Vec<double, 6> x;
    x << Pi, problem.Gamma0;
    NewtonSettings settings;
    settings.what = "the discrete Lie–Poisson equations";
    const StepOutcome out = solveNewton(problem, x, settings);
    if (!out.ok) return out;
    const Vec3 Pi1 = x.head<3>();
    // Stage 2: R_{k+1} = R_k cay(hΩ̄/2), orthogonal by construction.
    const Vec3 OmegaMid = invInertia_.cwiseProduct(0.5 * (Pi + Pi1));
    const Mat3 R1 = R * cayley((0.5 * h_) * OmegaMid);
    if (!R1.allFinite() || !Pi1.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                                 out.iterations);
    R = R1;
    Pi = Pi1;
    return out;
  }

  // The Newton problem of stage 1 (public for the tests).
  struct Problem {
    using Vector = Vec<double, 6>;
    const RigidEnergyMomentumStepper& em;
    const Vec3 Pi0, Gamma0;
    double scalePi;
    DenseLU<6> lu;
    Problem(const RigidEnergyMomentumStepper& e, const Vec3& Pi, const Vec3& Gamma) : em(e), Pi0(Pi), Gamma0(Gamma) {
      // Π relative to its size (or to the gravity impulse when the body is at rest).
      scalePi = Pi.cwiseAbs().maxCoeff() + e.h_ * e.weight_ * e.model_.com.cwiseAbs().maxCoeff() +
                std::numeric_limits<double>::min();
    }
    NewtonEval evaluate(const Vector& x, Vector& r, bool linearize) {
      const double h = em.h_;
      const Vec3& rho = em.model_.com;
      const Vec3 Pi1 = x.head<3>(), Gamma1 = x.tail<3>();
      const Vec3 PiMid = 0.5 * (Pi0 + Pi1), GammaMid = 0.5 * (Gamma0 + Gamma1);
      const Vec3 OmegaMid = em.invInertia_.cwiseProduct(PiMid);
      r.head<3>() = Pi1 - Pi0 - h * PiMid.cross(OmegaMid) - (h * em.weight_) * GammaMid.cross(rho);
      r.tail<3>() = Gamma1 - Gamma0 - h * GammaMid.cross(OmegaMid);
      if (!r.allFinite()) return NewtonEval::NonFinite;
      if (linearize) {
        Mat<double, 6, 6> J;
        J.topLeftCorner<3, 3>() =
            Mat3::Identity() - (0.5 * h) * (hat(PiMid) * em.invInertia_.asDiagonal() - hat(OmegaMid));
        J.topRightCorner<3, 3>() = (0.5 * h * em.weight_) * hat(rho);
        J.bottomLeftCorner<3, 3>() = -(0.5 * h) * hat(GammaMid) * em.invInertia_.asDiagonal();
        J.bottomRightCorner<3, 3>() = Mat3::Identity() + (0.5 * h) * hat(OmegaMid);
        if (!lu.factorize(J)) return NewtonEval::Singular;
      }
      return NewtonEval::Ok;
    }
    double conditionEstimate() const { return lu.pivotRatio(); }
    void solve(Vector& b) const { lu.solveInPlace(b); }
    // Π relative to its scale; Γ is a unit vector.
    double size(const Vector& dx) const {
      return std::max(dx.head<3>().cwiseAbs().maxCoeff() / scalePi, dx.tail<3>().cwiseAbs().maxCoeff());
    }
  };

 private:
  RigidBodyModel model_;
  double h_;
  double weight_;  // m g (heavy top), 0 for the free body
  Vec3 invInertia_;
};

}  // namespace vilab
