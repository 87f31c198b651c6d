// Lie-group variational integrator (LGVI) on SO(3) for the free rigid body and the
// heavy top: Lee, Leok & McClamroch (2005/2007); for the free body it is the
// Moser–Veselov discrete rigid body. With J = diag(I₁, I₂, I₃):
//
//   J_d = ½ tr(J) I₃ − J                                   (nonstandard inertia)
//   M(R) = m g (Rᵀe₃) × ρ                                  (gravity moment, body frame;
//          see models/rigid_body.hpp for the sign convention)
//   (E1)  h (Π_k + (h/2) M_k)^ = F_k J_d − J_d F_kᵀ         (implicit in F_k ∈ SO(3))
//   (E2)  R_{k+1} = R_k F_k
//   (E3)  Π_{k+1} = F_kᵀ (Π_k + (h/2) M_k) + (h/2) M_{k+1}
//
// (E1) is solved in Cayley coordinates F = cay(f) = (I + f̂)(I − f̂)⁻¹
// = I + 2/(1 + |f|²) (f̂ + f̂²). Substituting, (E1) is equivalent to
//   (E1')  G(f) = g + g × f + (gᵀf) f − 2 J f = 0,    g = h Π_k + (h²/2) M_k,
// (derivation: F J_d − J_d Fᵀ = 2/(1+|f|²) (J f + f × J f)^ using f̂A + Af̂ = ((tr A)I − A)f^
// for symmetric A, and (I + f̂)⁻¹ = (I − f̂ + f fᵀ)/(1 + |f|²)), solved by Newton with
//   ∇G(f) = ĝ − 2J + (gᵀf) I₃ + f gᵀ.
//
// Properties: F is orthogonal in exact arithmetic for every f, so R stays on SO(3) by
// construction; R is never re-orthonormalized while stepping. The map is symplectic;
// rotations about the vertical R ↦ Q R (Q e₃ = e₃) leave the discrete Lagrangian
// invariant, so e₃·RΠ is conserved exactly (all of RΠ for the free body), and
// Π_{k+1} = F_kᵀ(…) keeps |Π| for the free body exactly (F orthogonal). For a symmetric
// top (I₁ = I₂, ρ on e₃) R ↦ R Q is a symmetry too: Π₃ is conserved.
//
// Forcing (discrete Lagrange–d'Alembert on the group, M–W §3.2; Lee–Leok–McClamroch
// with the external moments added to M): a constant torque τ in the space frame and
// the damping torque −c ω in the body frame. The moments at the two ends of the step
// are
//     M_k = M(R_k) + R_kᵀτ − c ω̄,   M_{k+1} = M(R_{k+1}) + R_{k+1}ᵀτ − c ω̄,
// with ω̄ = 2f/h the step's mean body angular velocity (F_k = cay(f) ≈ exp(h ω̄^)):
// each end gets half of the step's virtual work, the symmetric split, so the map
// stays symmetric and of order 2. f is the axis of F_k (F_k f = f), so ω̄ is the same
// vector in the body frames at R_k and at R_{k+1}. The damping makes g depend on f,
//     g(f) = g₀ − h c f,   g₀ = h Π_k + (h²/2)(M(R_k) + R_kᵀτ),
// and (E1') becomes
//     G(f) = g₀ + g₀ × f + (g₀ᵀf) f − h c |f|² f − h c f − 2 J f = 0,
//     ∇G = ĝ₀ + (g₀ᵀf − h c (1 + |f|²)) I₃ + f g₀ᵀ − 2 h c f fᵀ − 2J.
// Spatial momentum: π = RΠ obeys, exactly for any f (F orthogonal, F f = f),
//     π_{k+1} − π_k = (h/2) R_k M_k + (h/2) R_{k+1} M_{k+1} = h τ − h c R_k ω̄ + gravity,
// the discrete Noether theorem with forcing. Without torque and damping the step is
// the unforced arithmetic above.
//
// Private state (R, Π); the canonical state is the unit quaternion of R and Π.
#pragma once

#include <limits>

#include "vilab/integrators/integrator.hpp"
#include "vilab/models/rigid_body.hpp"
#include "vilab/solver/dense_lu.hpp"
#include "vilab/solver/newton.hpp"

namespace vilab {

// Rigid-body integrators that step (R, Π) share this canonical load/store. The stored
// quaternion takes the sign that continues the previously stored one (q and −q are
// the same rotation), so that plotted components do not jump.
template <class Stepper>
class RotationIntegrator : public Integrator {
 public:
  explicit RotationIntegrator(Stepper stepper) : stepper_(std::move(stepper)) {}
  void load(const State& s) override {
    R_ = quat::matrix(Vec4(s.q));
    Pi_ = s.p;
  }
  StepOutcome step() override { return stepper_.step(R_, Pi_); }
  void store(State& s) const override {
    Vec4 q = quat::fromMatrix(R_);
    if (s.q.size() == 4 && q.dot(Vec4(s.q)) < 0) q = -q;
    s.q = q;
    s.p = Pi_;
  }

 private:
  Stepper stepper_;
  Mat3 R_;
  Vec3 Pi_;
};

class LieGroupStepper {
 public:
  LieGroupStepper(const RigidBodyModel& model, double h)
      : model_(model), h_(h), J_(model.inertia), forced_(model.forced()) {}

  // Tests only: the forced arithmetic even without torque or damping (it must then give
  // the unforced bits).
  void setForcedPath(bool forced) { forced_ = forced; }

  // One step (R_k, Π_k) -> (R_{k+1}, Π_{k+1}); on refusal R and Π are untouched.
  StepOutcome step(Mat3& R, Vec3& Pi) const {
    if (forced_) return forcedStep(R, Pi);
    // Stage 1: gravity moment at R_k and the impulse Π_k + (h/2) M_k.
    const Vec3 Mk = model_.gravityMoment(R.row(2).transpose());
    const Vec3 impulse = Pi + (0.5 * h_) * Mk;
    // Stage 2: solve (E1') for F_k = cay(f), from the root of its linear part g − 2Jf = 0.
    CayleyProblem problem{h_ * impulse, J_, 1.0, {}};
    Vec3 f = problem.g.cwiseQuotient(2.0 * J_);
    problem.scale = f.cwiseAbs().maxCoeff() + std::numeric_limits<double>::min();
    NewtonSettings settings;
    settings.what = "the discrete rigid-body equation";
    const StepOutcome out = solveNewton(problem, f, settings);
    if (!out.ok) return out;
    const Mat3 F = cayley(f);
    // Stage 3: (E2) R_{k+1} = R_k F_k (no re-orthonormalization: F is orthogonal).
    const Mat3 R1 = R * F;
    // Stage 4: (E3) Π_{k+1} = F_kᵀ (Π_k + (h/2) M_k) + (h/2) M_{k+1}, the discrete
    // Legendre transform at the new configuration.
    const Vec3 M1 = model_.gravityMoment(R1.row(2).transpose());
    const Vec3 Pi1 = F.transpose() * impulse + (0.5 * h_) * M1;
    if (!R1.allFinite() || !Pi1.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                                 out.iterations);
    R = R1;
    Pi = Pi1;
    return out;
  }

  // The forced step (formulas above): the same stages with the external moments.
  StepOutcome forcedStep(Mat3& R, Vec3& Pi) const {
    const double c = model_.damping;
    // Stage 1: the moments at R_k without damping, M(R_k) + R_kᵀτ, and g₀.
    const Vec3 Mk = model_.gravityMoment(R.row(2).transpose()) + R.transpose() * model_.torque;
    const Vec3 impulse = Pi + (0.5 * h_) * Mk;
    // Stage 2: (E1') with g = g₀ − h c f, from the root of its linear part
    // g₀ − (h c + 2J) f = 0.
    CayleyProblem problem{h_ * impulse, J_, 1.0, {}, h_ * c};
    Vec3 f = problem.g.cwiseQuotient(2.0 * J_ + Vec3::Constant(problem.drag));
    problem.scale = f.cwiseAbs().maxCoeff() + std::numeric_limits<double>::min();
    NewtonSettings settings;
    settings.what = "the discrete rigid-body equation";
    const StepOutcome out = solveNewton(problem, f, settings);
    if (!out.ok) return out;
    const Mat3 F = cayley(f);
    // Stage 3: (E2) R_{k+1} = R_k F_k.
    const Mat3 R1 = R * F;
    // Stage 4: (E3) with the damping moment −c ω̄ = −(2c/h) f at both ends:
    // (h/2)(−c ω̄) = −c f, so Π_{k+1} = F_kᵀ(Π_k + (h/2)(M(R_k) + R_kᵀτ) − c f)
    // + (h/2)(M(R_{k+1}) + R_{k+1}ᵀτ) − c f.
    const Vec3 damping = c * f;
    const Vec3 M1 = model_.gravityMoment(R1.row(2).transpose()) + R1.transpose() * model_.torque;
    const Vec3 Pi1 = F.transpose() * (impulse - damping) + ((0.5 * h_) * M1 - damping);
    if (!R1.allFinite() || !Pi1.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                                 out.iterations);
    R = R1;
    Pi = Pi1;
    return out;
  }

  // The Newton problem of (E1'): G(f) = 0, with g = g₀ − drag·f when damped
  // (drag = h c; g below is g₀).
  struct CayleyProblem {
    using Vector = Vec3;
    Vec3 g, J;
    double scale;  // the size of the rotation per step (the predictor's |f|)
    DenseLU<3> lu;
    double drag = 0;  // h c (0: undamped, the unforced arithmetic)
    Vec3 residual(const Vec3& f) const {
      const Vec3 r = g + g.cross(f) + g.dot(f) * f - 2.0 * J.cwiseProduct(f);
      if (drag == 0) return r;
      return r - drag * (1.0 + f.squaredNorm()) * f;
    }
    NewtonEval evaluate(const Vec3& f, Vec3& r, bool linearize) {
      r = residual(f);
      if (!r.allFinite()) return NewtonEval::NonFinite;
      if (linearize) {
        Mat3 dG = hat(g) + f * g.transpose();  // ∇G = ĝ − 2J + (gᵀf) I₃ + f gᵀ
        const double gf = g.dot(f);
        for (int i = 0; i < 3; ++i) dG(i, i) += gf - 2.0 * J[i];
        if (drag != 0) {
          // − h c ((1 + |f|²) I₃ + 2 f fᵀ)
          dG -= (2.0 * drag) * (f * f.transpose());
          const double d = drag * (1.0 + f.squaredNorm());
          for (int i = 0; i < 3; ++i) dG(i, i) -= d;
        }
        if (!lu.factorize(dG)) return NewtonEval::Singular;
      }
      return NewtonEval::Ok;
    }
    double conditionEstimate() const { return lu.pivotRatio(); }
    void solve(Vec3& b) const { lu.solveInPlace(b); }
    // Relative to the rotation per step, so that discrete Noether (RΠ) holds to rounding
    // however small the step.
    double size(const Vec3& df) const { return df.cwiseAbs().maxCoeff() / scale; }
  };

 private:
  RigidBodyModel model_;
  double h_;
  Vec3 J_;
  bool forced_;  // torque or damping: forcedStep
};

}  // namespace vilab
