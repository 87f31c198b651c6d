// Lie-group variational integrator (LGVI) on SO(3) for the free rigid body and the
// heavy top: Lee, Leok & McClamroch (2005/2007); for the free body it is the
// Moser–Veselov discrete rigid body. Equations as in equations.md, "Lie-group
// variational integrator on SO(3)", with J = diag(I₁, I₂, I₃):
//
//   J_d = ½ tr(J) I₃ − J                                   (nonstandard inertia)
//   M(R) = m g (Rᵀe₃) × ρ                                  (gravity moment, body frame;
//          gravity along −z — equations.md's m g ρ × Rᵀe₃ is the same moment in LLM's
//          convention with e₃ pointing down; see systems/rigid_body.hpp)
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
// construction; R is never re-orthonormalized, and ‖RᵀR − I‖ only collects rounding.
// The map is symplectic; rotations about the vertical R ↦ Q R (Q e₃ = e₃) leave the
// discrete Lagrangian invariant, so e₃·RΠ is conserved exactly (all of RΠ for the free
// body), and Π_{k+1} = F_kᵀ(…) keeps |Π| for the free body exactly (F orthogonal). For a
// symmetric top (I₁ = I₂, ρ on e₃) R ↦ R Q is a symmetry too: Π₃ is conserved.
#pragma once

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "vilab/detmath.hpp"
#include "vilab/stepper.hpp"
#include "vilab/systems/rigid_body.hpp"

namespace vilab {

inline Mat3 hat(const Vec3& v) {
  Mat3 m;
  m << 0, -v[2], v[1],  //
      v[2], 0, -v[0],   //
      -v[1], v[0], 0;
  return m;
}

// max_ij |(RᵀR − I)_ij|: the orthonormality defect (the lie-group constraint residual).
inline double orthonormalityError(const Mat3& R) {
  return (R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff();
}

class LieGroupIntegrator {
 public:
  LieGroupIntegrator(const RigidBodyModel& model, double h) : model_(model), h_(h) {
    J_ = model.inertia;
  }
  const RigidBodyModel& model() const { return model_; }
  double h() const { return h_; }

  // Cayley map cay(f) = (I + f̂)(I − f̂)⁻¹ = I + 2/(1 + |f|²)(f̂ + f̂²).
  static Mat3 cayley(const Vec3& f) {
    const Mat3 F = hat(f);
    return Mat3::Identity() + (2.0 / (1.0 + f.squaredNorm())) * (F + F * F);
  }

  // G(f) of (E1').
  Vec3 residual(const Vec3& g, const Vec3& f) const {
    return g + g.cross(f) + g.dot(f) * f - 2.0 * J_.cwiseProduct(f);
  }

  // Solves (E1') for f by Newton, to rounding. Returns false with a reason on failure.
  bool solveCayley(const Vec3& g, Vec3& f, int& iterations, std::string& reason) const {
    // Predictor: the linear part of G, g − 2Jf = 0.
    f = g.cwiseQuotient(2.0 * J_);
    double previous = std::numeric_limits<double>::infinity();
    for (iterations = 1; iterations <= kMaxIterations; ++iterations) {
      const Vec3 G = residual(g, f);
      Mat3 dG = hat(g) + f * g.transpose();  // ∇G = ĝ − 2J + (gᵀf) I₃ + f gᵀ
      const double gf = g.dot(f);
      for (int i = 0; i < 3; ++i) dG(i, i) += gf - 2.0 * J_[i];
      if (!G.allFinite() || !dG.allFinite()) {
        reason = "the Cayley residual is not finite (h·|Π| too large?)";
        return false;
      }
      const Eigen::PartialPivLU<Mat3> lu(dG);
      const double rcond = lu.rcond();
      if (!(rcond > 1e-14)) {
        reason = "singular Newton matrix in the Cayley equation (rcond " + scientific(rcond) + "); reduce h";
        return false;
      }
      const Vec3 df = -lu.solve(G);
      if (!df.allFinite()) {
        reason = "the Newton update of the Cayley equation is not finite";
        return false;
      }
      f += df;
      // Converged when the update is at rounding level relative to |f| (or |f| = 0, as
      // for Π = 0), or has stopped shrinking once within a few hundred ulps.
      const double scale = f.cwiseAbs().maxCoeff();
      const double update = df.cwiseAbs().maxCoeff();
      if (update <= 4 * kEps * scale || (update <= 1e-13 * scale && update >= previous)) return true;
      previous = update;
    }
    iterations = kMaxIterations;
    reason = "Newton on the Cayley equation did not converge in " + std::to_string(kMaxIterations) +
             " iterations (last update " + scientific(previous) + "); the rotation per step is too large, reduce h";
    return false;
  }

  // One step (R_k, Π_k) -> (R_{k+1}, Π_{k+1}); on failure R and Π are untouched.
  StepOutcome step(Mat3& R, Vec3& Pi) const {
    StepOutcome out;
    // Stage 1: gravity moment at R_k and the impulse Π_k + (h/2) M_k.
    const Vec3 Mk = gravityMoment(model_, R.row(2).transpose());
    const Vec3 impulse = Pi + (0.5 * h_) * Mk;
    // Stage 2: solve (E1) for F_k = cay(f): G(f) = 0 with g = h Π_k + (h²/2) M_k.
    const Vec3 g = h_ * impulse;
    Vec3 f;
    std::string reason;
    if (!solveCayley(g, f, out.iterations, reason)) {
      out.ok = false;
      out.reason = reason;
      return out;
    }
    const Mat3 F = cayley(f);
    // Stage 3: (E2) R_{k+1} = R_k F_k (no re-orthonormalization: F is orthogonal).
    const Mat3 R1 = R * F;
    // Stage 4: (E3) Π_{k+1} = F_kᵀ (Π_k + (h/2) M_k) + (h/2) M_{k+1}, the discrete
    // Legendre transform at the new configuration.
    const Vec3 M1 = gravityMoment(model_, R1.row(2).transpose());
    const Vec3 Pi1 = F.transpose() * impulse + (0.5 * h_) * M1;
    if (!R1.allFinite() || !Pi1.allFinite()) {
      out.ok = false;
      out.reason = "the new state is not finite";
      return out;
    }
    R = R1;
    Pi = Pi1;
    return out;
  }

 private:
  static constexpr int kMaxIterations = 50;
  static constexpr double kEps = std::numeric_limits<double>::epsilon();

  RigidBodyModel model_;
  double h_;
  Vec3 J_;
};

// A rigid-body integrator on rotation matrices (step(R, Π)) behind the Stepper interface.
// State: q = the 9 entries of R (row-major), p = Π (3). Diagnostics: energy
// ½ΠᵀI⁻¹Π + V(R), momentum RΠ, bodyMomentum Π, constraint max_ij |(RᵀR − I)_ij|.
// Visual state: the unit quaternion of R (Shepperd, w ≥ 0).
template <class Integrator>
class RotationMatrixStepper final : public Stepper {
 public:
  // From the scenario's data: orientation quaternion (unit) and body angular velocity.
  RotationMatrixStepper(const RigidBodyModel& m, double h, const Vec4& q0, const Vec3& omega0) : integrator_(m, h) {
    R_ = quat::matrix(Vec4(q0 / dm::sqrt(q0.squaredNorm())));
    Pi_ = m.inertia.cwiseProduct(omega0);
    sync();
  }
  StepOutcome step() override {
    const StepOutcome o = integrator_.step(R_, Pi_);
    if (o.ok) {
      iterations_ = o.iterations;
      sync();
    }
    return o;
  }
  const VecX& q() const override { return qx_; }
  const VecX& p() const override { return px_; }
  // q: R row-major (9), orthonormal with det R > 0 within 1e-9 (then projected onto
  // SO(3) through its quaternion); p: Π (3).
  void setState(const VecX& q, const VecX& p) override {
    if (q.size() != 9 || !q.allFinite())
      throw InputError("q", "expected the 9 entries of R (row-major), finite numbers");
    if (p.size() != 3 || !p.allFinite()) throw InputError("p", "expected Π (3 finite numbers)");
    Mat3 R;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) R(i, j) = q[3 * i + j];
    const double err = orthonormalityError(R);
    if (!(err <= 1e-9) || !(R.determinant() > 0))
      throw InputError("q", "not a rotation matrix: max |RᵀR − I| = " + formatNumber(err) +
                                (R.determinant() > 0 ? "" : ", det R ≤ 0") + " (tolerance 1e-9)");
    R_ = quat::matrix(quat::fromMatrix(R));
    Pi_ = p;
    iterations_ = 0;
    sync();
  }
  Diagnostics diagnostics() const override {
    Diagnostics d = rigidBodyDiagnostics(integrator_.model(), R_, Pi_);
    d.constraint = orthonormalityError(R_);
    d.iterations = iterations_;
    return d;
  }
  void visualState(std::vector<double>& out) const override {
    const Vec4 qv = quat::fromMatrix(R_);
    out.assign(qv.data(), qv.data() + 4);
  }
  const Mat3& rotation() const { return R_; }
  const Vec3& bodyMomentum() const { return Pi_; }

 private:
  void sync() {
    qx_.resize(9);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) qx_[3 * i + j] = R_(i, j);
    px_ = Pi_;
  }
  Integrator integrator_;
  Mat3 R_;
  Vec3 Pi_;
  VecX qx_, px_;
  int iterations_ = 0;
};

using LieGroupStepper = RotationMatrixStepper<LieGroupIntegrator>;

}  // namespace vilab
