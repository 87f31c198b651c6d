// The equations of motion as first-order ODEs y' = f(y) for the baselines (rk4, euler,
// dopri5), in each model's canonical coordinates y = [q; p] (models/*.hpp), each with
// the projection onto its manifold that the baselines apply after every step
// (Hairer–Lubich–Wanner §IV.4: projection keeps the order of the method).
//
// An ODE provides
//   int positions() const, size() const;   // length of q, and of y = [q; p]
//   bool rhs(const VecX& y, VecX& dy);      // f(y); false where f is undefined
//   const char* undefined() const;          // why f can be undefined, for refusals
//   StepOutcome project(VecX& y);           // y onto the manifold; unchanged on refusal
//   static constexpr bool kProjects;        // whether project() can move y
//
// Forcing (Lagrange–d'Alembert): the models' forces outside L join the right-hand
// sides, the oscillator's −c ẋ, the chain's drag −c ẋ_i on every bob, the rigid body's
// Rᵀτ − c ω. Unforced models evaluate the unforced expressions unchanged.
#pragma once

#include <string>
#include <vector>

#include "vilab/integrators/chain_projection.hpp"
#include "vilab/models/oscillator.hpp"
#include "vilab/models/rigid_body.hpp"
#include "vilab/outcome.hpp"

namespace vilab {

// The oscillator: ẋ = p/m, ṗ = −k x − c ẋ. No manifold.
struct OscillatorOde {
  static constexpr bool kProjects = false;
  OscillatorModel model;

  explicit OscillatorOde(const OscillatorModel& m) : model(m) {}
  int positions() const { return 1; }
  int size() const { return 2; }
  bool rhs(const VecX& y, VecX& dy) const {
    dy[0] = y[1] / model.mass;
    dy[1] = -model.stiffness * y[0];
    if (model.forced()) dy[1] -= model.damping * dy[0];
    return std::isfinite(dy[0]) && std::isfinite(dy[1]);
  }
  // ∂f/∂y of the linear vector field above.
  bool rhsJacobian(const VecX&, Eigen::MatrixXd& A) const {
    A.resize(2, 2);
    A << 0, 1 / model.mass, -model.stiffness, 0;
    if (model.forced()) A(1, 1) -= model.damping / model.mass;
    return A.allFinite();
  }
  const char* undefined() const { return "the equations of motion are not finite"; }
  StepOutcome project(VecX&) { return {}; }
};

// A chain in Cartesian coordinates, index-1 multiplier form. With a_i = d_i / l_i the
// gradient of g_i = (|d_i|² − l_i²)/(2 l_i) (d_i = x_i − x_{i−1}) and w_i = v_i − v_{i−1}:
//     ẋ = M⁻¹ p,   ṗ = f + Dg(x)ᵀ λ,   f_i = m_i g⃗ − c v_i (gravity along −z, drag),
// with λ from the twice-differentiated constraints g̈ = 0,
//     (Dg M⁻¹ Dgᵀ) λ = −Dg M⁻¹ f − (|w_i|² / l_i)_i,
// a tridiagonal solve (link i shares a bob with links i ± 1): O(N) per evaluation.
// g̈ = 0 alone lets g and ġ drift linearly and quadratically; the projection after
// every step (positions in the mass metric, then momenta onto the tangent space)
// keeps both at rounding.
class ChainIndex1Ode {
 public:
  static constexpr bool kProjects = true;

  explicit ChainIndex1Ode(const ChainModel& m) : model_(m) {
    const int n = model_.bobs();
    invMass_.resize(n);
    invLength_.resize(n);
    for (int i = 0; i < n; ++i) {
      invMass_[i] = 1.0 / model_.masses[i];
      invLength_[i] = 1.0 / model_.lengths[i];
    }
    normals_.resize(n);
    gram_.resize(n);
    lambda_.resize(n);
    q_.resize(3 * n);
    p_.resize(3 * n);
  }

  const ChainModel& model() const { return model_; }
  int positions() const { return 3 * model_.bobs(); }
  int size() const { return 6 * model_.bobs(); }

  bool rhs(const VecX& y, VecX& dy) {
    const int n = model_.bobs();
    const double* x = y.data();
    const double* p = y.data() + 3 * n;
    const Vec3 gravity(0, 0, -model_.g);  // f_i / m_i
    for (int i = 0; i < n; ++i) normals_[i] = chainLink(x, i) * invLength_[i];
    // The Gram matrix Dg M⁻¹ Dgᵀ and the right-hand side −Dg M⁻¹ f − |w_i|²/l_i. Every
    // bob has the same acceleration g⃗ under gravity alone, so (Dg M⁻¹ f)_i = a_i·(g⃗ − g⃗)
    // = 0 for i > 0 and a_0·g⃗ for the link to the anchor.
    linkCouplingMatrix(normals_, normals_, invMass_, gram_);
    for (int i = 0; i < n; ++i) {
      Vec3 w = invMass_[i] * Vec3(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
      if (i > 0) w -= invMass_[i - 1] * Vec3(p[3 * i - 3], p[3 * i - 2], p[3 * i - 1]);
      lambda_[i] = -w.squaredNorm() * invLength_[i] - (i == 0 ? normals_[0].dot(gravity) : 0.0);
    }
    // The drag's share: (Dg M⁻¹ f_drag)_i = −c a_i·(v_i/m_i − v_{i−1}/m_{i−1}).
    if (model_.forced())
      for (int i = 0; i < n; ++i) {
        Vec3 u = (invMass_[i] * invMass_[i]) * Vec3(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
        if (i > 0) u -= (invMass_[i - 1] * invMass_[i - 1]) * Vec3(p[3 * i - 3], p[3 * i - 2], p[3 * i - 1]);
        lambda_[i] += model_.damping * normals_[i].dot(u);
      }
    if (!gram_.solve(lambda_.data())) return false;
    // ẋ_i = p_i / m_i;  ṗ_i = m_i g⃗ − c ẋ_i + λ_i a_i − λ_{i+1} a_{i+1} (link i+1 pulls
    // bob i back).
    for (int i = 0; i < n; ++i) {
      Vec3 force = lambda_[i] * normals_[i];
      if (i + 1 < n) force -= lambda_[i + 1] * normals_[i + 1];
      force += model_.masses[i] * gravity;
      if (model_.forced()) force -= (model_.damping * invMass_[i]) * Vec3(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
      for (int c = 0; c < 3; ++c) {
        dy[3 * i + c] = invMass_[i] * p[3 * i + c];
        dy[3 * n + 3 * i + c] = force[c];
      }
    }
    return dy.allFinite();
  }
  const char* undefined() const {
    return "the equations of motion are undefined (two links folded onto each other, or a non-finite state)";
  }

  // Positions onto the links (the M-orthogonal projection, Newton to rounding), then
  // momenta onto the tangent space at the projected positions (M-orthogonal, linear).
  StepOutcome project(VecX& y) {
    const int n = model_.bobs();
    q_ = y.head(3 * n);
    p_ = y.tail(3 * n);
    StepOutcome out = positions_.project(model_, q_);
    if (!out.ok) {
      out.refusal.reason =
          "the step carried the bobs too far off the links' lengths to project them back (" + out.refusal.reason + ")";
      return out;
    }
    if (!momenta_.project(model_, q_, p_))
      return StepOutcome::refuse(RefusalCode::SingularMatrix,
                                 "the projection of the momenta is singular (two links folded onto each other)",
                                 Suggestion::reduceH(), out.iterations);
    y.head(3 * n) = q_;
    y.tail(3 * n) = p_;
    return out;
  }

 private:
  ChainModel model_;
  std::vector<double> invMass_, invLength_;
  std::vector<Vec3> normals_;  // a_i = d_i / l_i at the evaluation point
  Tridiagonal gram_;
  std::vector<double> lambda_;
  VecX q_, p_;
  ChainPositionProjector positions_;
  ChainMomentumProjector momenta_;
};

// A rigid body: Euler's equations with quaternion kinematics, y = [q; Π] ∈ R⁴ × R³,
//     q̇ = ½ q ⊗ (0, ω),   Π̇ = Π × ω + M(q) + R(q)ᵀτ − c ω,   ω = I⁻¹ Π,
// with the heavy top's gravity moment M(q) = m g (Rᵀe₃) × ρ, the external torque τ
// (space frame) and the damping c. |q| is a first integral
// of the flow (q̇ ⟂ q), so normalizing q after every step is the orthogonal projection
// onto it. |Π| (free body) and the energy are invariants too, but nothing keeps them.
struct RigidBodyOde {
  static constexpr bool kProjects = true;
  RigidBodyModel model;

  explicit RigidBodyOde(const RigidBodyModel& m) : model(m) {}
  int positions() const { return 4; }
  int size() const { return 7; }
  bool rhs(const VecX& y, VecX& dy) const {
    const Vec4 q = y.head<4>();
    const Vec3 Pi = y.tail<3>();
    const Vec3 omega = Pi.cwiseQuotient(model.inertia);
    dy.head<4>() = 0.5 * quat::mul(q, quat::pure(omega));
    dy.tail<3>() = Pi.cross(omega) + model.gravityMoment(quat::verticalInBody(q));
    if (model.forced()) dy.tail<3>() += model.externalMoment(quat::matrix(q), omega);
    return dy.allFinite();
  }
  const char* undefined() const { return "the equations of motion are not finite"; }
  StepOutcome project(VecX& y) const {
    const double norm = dm::sqrt(y.head<4>().squaredNorm());
    if (!(norm > 0) || !std::isfinite(norm))
      return StepOutcome::refuse(RefusalCode::NonFinite, "the orientation quaternion vanished or is not finite",
                                 Suggestion::reduceH());
    y.head<4>() /= norm;
    return {};
  }
};

}  // namespace vilab
