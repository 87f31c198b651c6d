// The continuous equations of motion of a mechanism (models/mechanism.hpp) as an index-1
// differential-algebraic system, solved for the accelerations at every evaluation.
// Per body, with v = (ẋ, ω) (ω in the body frame) and the joints' multipliers λ:
//   m ẍ   = m g + f − c_x ẋ + Gₓᵀ λ      (space frame)
//   J ω̇   = J ω × ω + τ − c ω + G_ηᵀ λ   (Euler's equations, body frame)
// with f, τ the applied loads (MechanismModel::appliedLoads: a potential's and applied
// torques), c the body's damping and c_x its linear damping.
//   Ṙ     = R ω̂
// closed by the differentiated velocity constraint G a = −Ġ v, a = (ẍ, ω̇), so that
//   (G M⁻¹ Gᵀ) λ = −Ġ v − G M⁻¹ F,   M = diag(m I, J),  F the right-hand sides above
// (Haug, Computer-Aided Kinematics and Dynamics of Mechanical Systems, §6.3; the rotation
// columns of G are those of the variation R ↦ R exp(η̂), so G_ηᵀ λ is a body-frame torque).
// Ġ v is the time derivative of G(R(t)) v along Ṙ = R ω̂ with v held fixed.
// This is the system the projected Runge–Kutta baselines integrate
// (integrators/mechanism_baselines.hpp); it drifts off g = 0 at the rate of its
// integration error, which is why they project.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <vector>

#include "vilab/models/mechanism.hpp"
#include "vilab/models/mechanism_loads.hpp"

namespace vilab {

// Ġ v for the joints of `model` at orientations R, v = (ẋ_i, ω_i) per body (6 per body),
// written into `out` (constraintCount() rows). Row by row, in space-frame terms with
// Ω = R ω and the joint points r = R c:
//   ball   Ω_p × (Ω_p × r_p) − Ω_c × (Ω_c × r_c)
//   hinge  (Ω_p×(Ω_p×u))·e + 2 (Ω_p×u)·(Ω_c×e) + u·(Ω_c×(Ω_c×e)),  u = R_p a_p, e = R_c w
//   fixed  ω_c × (R_cᵀ R_p ω_p)   (the rows G v = ω_c − R_cᵀ R_p ω_p differentiated)
//   rod    (|ḋ|² − d·(Ω_p × (Ω_p × r_p)))/L,  ḋ = ẋ_c − ẋ_p − Ω_p × r_p
//          (G v = d·ḋ/L differentiated with ẍ and Ω̇ held at 0)
inline double rodVelocityProduct(const std::vector<Vec3>& x, const VecX& v, const MechanismJoint& j, const Vec3& Wp,
                                 const Vec3& rp) {
  const bool world = j.parent < 0;
  const Vec3 d = x[j.child] - (world ? Vec3::Zero() : x[j.parent]) - rp;
  const Vec3 dd =
      Vec3(v.segment<3>(6 * j.child)) - (world ? Vec3::Zero() : Vec3(v.segment<3>(6 * j.parent))) - Wp.cross(rp);
  return (dd.squaredNorm() - d.dot(Wp.cross(Wp.cross(rp)))) / j.length;
}

inline void constraintVelocityProduct(const MechanismModel& model, const std::vector<Vec3>& x,
                                      const std::vector<Mat3>& R, const VecX& v, Eigen::Ref<VecX> out) {
  int row = 0;
  for (const MechanismJoint& j : model.joints) {
    const Mat3& Rc = R[j.child];
    const Mat3 Rp = j.parent < 0 ? Mat3::Identity() : R[j.parent];
    const Vec3 wc = v.segment<3>(6 * j.child + 3);
    const Vec3 wp = j.parent < 0 ? Vec3::Zero() : Vec3(v.segment<3>(6 * j.parent + 3));
    const Vec3 Wc = Rc * wc, Wp = Rp * wp;
    const Vec3 rc = Rc * j.childPoint, rp = Rp * j.parentPoint;
    if (j.kind == JointKind::Rod) {
      out[row++] = rodVelocityProduct(x, v, j, Wp, rp);
      continue;
    }
    out.segment<3>(row) = Wp.cross(Wp.cross(rp)) - Wc.cross(Wc.cross(rc));
    row += 3;
    if (j.kind == JointKind::Hinge) {
      Vec3 b, d;
      MechanismModel::perpendiculars(j.childAxis, b, d);
      const Vec3 u = Rp * j.parentAxis;
      const Vec3 du = Wp.cross(u);
      for (const Vec3& w : {b, d}) {
        const Vec3 e = Rc * w, de = Wc.cross(e);
        out[row++] = Wp.cross(du).dot(e) + 2 * du.dot(de) + u.dot(Wc.cross(de));
      }
    } else if (j.kind == JointKind::Fixed) {
      out.segment<3>(row) = wc.cross(Rc.transpose() * (Rp * wp));
      row += 3;
    }
  }
}

// The scale Newton measures a step's joint-impulse unknowns w by: w moves the bodies by
// Gᵀw/m, against the mechanism's length (rounding of the positions is what it can be
// resolved to), or against the joints' impulse per step, (h²/2)·m·(|g| + v²/L), where that
// is larger. massScale: the largest mass; speed2: the largest squared speed, rotations
// counted at lengthScale.
inline double jointImpulseScale(const MechanismModel& model, double h, double massScale, double lengthScale,
                                double speed2) {
  return std::max(0.5 * h * h * massScale * (dm::sqrt(model.gravity.squaredNorm()) + speed2 / lengthScale),
                  massScale * lengthScale);
}

// The rates of a mechanism's state: ẋ, ω (so that Ṙ = R ω̂), ṗ, Π̇ per body, and the
// multipliers λ (the joints' reactions) that produced them.
struct MechanismRates {
  std::vector<Vec3> xdot, omega, pdot, Pidot;
  VecX lambda;
};

// The equations of motion of one mechanism, with the inverse inertias cached.
class MechanismDynamics {
 public:
  explicit MechanismDynamics(const MechanismModel& model) : model_(model) {
    for (const MechanismBody& b : model_.bodies) inverseInertia_.push_back(b.inverseInertia());
    const int m = model_.constraintCount(), n = 6 * bodyCount();
    G_.resize(m, n);
    gv_.resize(m);
  }

  const MechanismModel& model() const { return model_; }
  int bodyCount() const { return static_cast<int>(model_.bodies.size()); }
  const Mat3& inverseInertia(int i) const { return inverseInertia_[i]; }

  // v = (p/m, J⁻¹Π) per body.
  void velocities(const std::vector<Vec3>& p, const std::vector<Vec3>& Pi, VecX& v) const {
    v.resize(6 * bodyCount());
    for (int i = 0; i < bodyCount(); ++i) {
      v.segment<3>(6 * i) = p[i] / model_.bodies[i].mass;
      v.segment<3>(6 * i + 3) = inverseInertia_[i] * Pi[i];
    }
  }
  VecX velocities(const std::vector<Vec3>& p, const std::vector<Vec3>& Pi) const {
    VecX v;
    velocities(p, Pi, v);
    return v;
  }

  // M⁻¹ y for y with 6 entries per body.
  template <class In, class Out>
  void applyInverseMass(const In& y, Out&& r) const {
    for (int i = 0; i < bodyCount(); ++i) {
      r.template segment<3>(6 * i) = y.template segment<3>(6 * i) / model_.bodies[i].mass;
      r.template segment<3>(6 * i + 3) = inverseInertia_[i] * y.template segment<3>(6 * i + 3);
    }
  }
  VecX applyInverseMass(const VecX& y) const {
    VecX r(y.size());
    applyInverseMass(y, r);
    return r;
  }

  // The reaction system at the configuration (x, R): G, M⁻¹Gᵀ and the factorization of
  // G M⁻¹ Gᵀ (kept for solveReactions); false when it is singular.
  bool factorReactions(const std::vector<Vec3>& x, const std::vector<Mat3>& R) const {
    model_.constraintJacobian(x, R, G_);
    MinvGt_.resize(G_.cols(), G_.rows());
    for (Eigen::Index r = 0; r < G_.rows(); ++r) applyInverseMass(G_.row(r).transpose(), MinvGt_.col(r));
    A_.noalias() = G_ * MinvGt_;
    ldlt_.compute(A_);
    return ldlt_.info() == Eigen::Success;
  }
  const Eigen::MatrixXd& jacobian() const { return G_; }
  const Eigen::MatrixXd& inverseMassJacobianT() const { return MinvGt_; }
  const Eigen::LDLT<Eigen::MatrixXd>& reactionFactor() const { return ldlt_; }

  // The rates at the configuration (x, R), momenta (p, Π) and time t; false when the
  // reaction system is singular or a rate is not finite.
  bool rates(const std::vector<Vec3>& x, const std::vector<Mat3>& R, const std::vector<Vec3>& p,
             const std::vector<Vec3>& Pi, double t, MechanismRates& out) const {
    const int n = bodyCount();
    velocities(p, Pi, v_);
    force_.resize(6 * n);
    for (int i = 0; i < n; ++i) {
      force_.segment<3>(6 * i) = model_.bodies[i].mass * model_.gravity;
      force_.segment<3>(6 * i + 3) = Pi[i].cross(v_.segment<3>(6 * i + 3));
    }
    if (model_.appliedLoads(x, R, t, loadForce_, loadTorque_))
      for (int i = 0; i < n; ++i) {
        force_.segment<3>(6 * i) += loadForce_[i];
        force_.segment<3>(6 * i + 3) += loadTorque_[i];
      }
    for (int i = 0; i < n; ++i) {
      if (model_.bodies[i].damping != 0)
        force_.segment<3>(6 * i + 3) += model_.dampingTorque(i, v_.segment<3>(6 * i + 3));
      if (linearDampingOf(model_, i) != 0)
        force_.segment<3>(6 * i) -= linearDampingOf(model_, i) * v_.segment<3>(6 * i);
    }
    if (model_.constraintCount() > 0) {
      if (!factorReactions(x, R)) return false;
      constraintVelocityProduct(model_, x, R, v_, gv_);
      rhs_.noalias() = -gv_;
      rhs_.noalias() -= MinvGt_.transpose() * force_;  // G M⁻¹ f, M⁻¹ symmetric
      out.lambda = ldlt_.solve(rhs_);
      force_.noalias() += G_.transpose() * out.lambda;
    } else {
      out.lambda.resize(0);
    }
    out.xdot.resize(n);
    out.omega.resize(n);
    out.pdot.resize(n);
    out.Pidot.resize(n);
    for (int i = 0; i < n; ++i) {
      out.xdot[i] = v_.segment<3>(6 * i);
      out.omega[i] = v_.segment<3>(6 * i + 3);
      out.pdot[i] = force_.segment<3>(6 * i);
      out.Pidot[i] = force_.segment<3>(6 * i + 3);
    }
    return out.lambda.allFinite() && force_.allFinite();
  }
  MechanismRates rates(const MechanismState& s) const {
    MechanismRates r;
    rates(s.x, s.R, s.p, s.Pi, s.t, r);
    return r;
  }

 private:
  MechanismModel model_;
  std::vector<Mat3> inverseInertia_;
  // Scratch, reused by every evaluation.
  mutable Eigen::MatrixXd G_, MinvGt_, A_;
  mutable Eigen::LDLT<Eigen::MatrixXd> ldlt_;
  mutable VecX gv_, v_, force_, rhs_;
  mutable std::vector<Vec3> loadForce_, loadTorque_;
};

}  // namespace vilab
