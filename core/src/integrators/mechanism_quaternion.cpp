// Integrator `quaternion` on a mechanism: the midpoint rule on unit quaternions with
// multipliers (Wendlandt & Marsden §4, eqs. 4.4–4.5, and their rigid body in quaternions,
// §5), for rigid bodies joined by the joints of models/mechanism.hpp.
//
// Configuration per body: the centre of mass x ∈ R³ and a quaternion q ∈ R⁴ held on the
// unit sphere by the constraint |q|² = 1; the joints g(x, R(q)) = 0 join them. The
// Lagrangian, per body, with W = q* ⊗ q̇ (so that ω = 2 vec W on the sphere):
//   L = ½ m |ẋ|² + 2 Wᵀ 𝕀 W + m g·x,     𝕀 = diag(I₀, J),  I₀ = tr(J)/3.
// This is the free body's form (lagrangians/rigid_body.hpp) with the full inertia J. It
// is written with q* ⊗ q̇, not with the unit-sphere form 2 q̇ᵀE(q)ᵀJE(q)q̇ alone, because
// the midpoint q̄ = (q_k + q_{k+1})/2 is not a unit quaternion (|q̄|² = 1 − |q_{k+1} − q_k|²/4):
// both forms agree on the sphere and differ off it at O(h²), which keeps the order 2; the
// I₀ term makes the kinetic energy definite along q, so Newton's matrix is regular
// without relying on the multiplier, and it leaves the motion unchanged on the sphere:
// it enters D₁L_d, D₂L_d only through W̄₀ = q̄·v̄ = (|q_{k+1}|² − |q_k|²)/(2h) = 0.
//
// The midpoint discrete Lagrangian L_d = h L(q̄, (q_{k+1} − q_k)/h) gives, per body,
//   D₁L_d,rot = 2h v̄ ⊗ (𝕀W̄)* − 4 q̄ ⊗ 𝕀W̄,   D₂L_d,rot = 2h v̄ ⊗ (𝕀W̄)* + 4 q̄ ⊗ 𝕀W̄,
// (∂T/∂v = 4 q ⊗ 𝕀W, ∂T/∂q = 4 v ⊗ (𝕀W)*), and the discrete Euler–Lagrange equations with
// the constraint forces at q_k and the constraints at q_{k+1} (W–M 4.4–4.5):
//   m (x_{k+1} − x_k)/h = p_k + (h/2)(m g + f_k) + G_x(q_k)ᵀ λ
//   2 q_k ⊗ (0, Π_k + (h/2)(τ_k − c ω̄) + G_η(q_k)ᵀλ) + D₁L_d,rot + 2μ q_k = 0
//   |q_{k+1}|² = 1,   g(x_{k+1}, R(q_{k+1})) = 0,
// where p_q = 2 q ⊗ (0, Π) is the quaternion momentum of the body momentum Π and the joint
// forces in quaternion coordinates are 2 q ⊗ (0, G_ηᵀλ) (δq = ½ q ⊗ (0, η)). The momenta at
// the step's end are the discrete Legendre transform p_{k+1} = D₂L_d + f_d^+,
// Π_{k+1} = ½ vec(q_{k+1}* ⊗ p_{q,k+1}) (dropping the part along q, which the next step's μ
// absorbs), then projected so the velocities keep the joints closed,
// G(q_{k+1}) M⁻¹ (p, Π) = 0 (RATTLE's end projection, as the Lie-group step's end impulse):
// a change of p_{k+1} within the span of Gᵀ changes only the next multipliers, never the
// next configuration.
//
// Loads beyond gravity (MechanismModel::appliedLoads: f, τ of a potential V(x, R, t) and
// applied torques) and damping −c ω enter by the discrete Lagrange–d'Alembert principle
// (Marsden & West, Part 3, §3.2, the forced DEL D₂L_d(k−1) + D₁L_d(k) + f_d^+(k−1) +
// f_d^-(k) = 0) with the Lie-group step's split, not at the midpoint: f_d^± = (h/2) times
// the loads at (x_k, R_k, t_k) and at (x_{k+1}, R_{k+1}, t_{k+1}), so that (i) they are
// evaluated where q is a unit quaternion (q̄ is not), (ii) they stay out of Newton's
// problem (the potential is compiled with its gradient only, not its Hessian), and (iii)
// the two geometric steps are one forced DEL on the constraint manifold and move alike
// to rounding. For V alone this is the variational step of L_d − (h/2)(V_k + V_{k+1}),
// symmetric and of order 2. Damping uses the step's mean angular velocity
// ω̄ = 2 vec(r)/(h r₀), r = q_k* ⊗ q_{k+1} (the Cayley coordinates of the relative turn,
// the same vector in both bodies' frames, as in the Lie-group step): f_d^± = (h/2)(−c ω̄)
// at both ends, and ω̄ depends on δq, so its term is in Newton's matrix (by forward-mode
// AD with the rotational slot). Linear damping −c_x ẋ takes the same split with
// v̄ = (x_{k+1} − x_k)/h: f_d^± = −(c_x/2) Δx, which adds h c_x/(2m) to the translation
// rows' diagonal.
//
// Properties: variational, so symplectic on the constraint manifold and symmetric (order
// 2); |q| = 1 and the joints hold to Newton's tolerance at every step; rotating the
// whole mechanism about the gravity axis through a point the world holds it at is a
// linear symmetry of L_d (q ↦ r ⊗ q, x ↦ r x), so the angular momentum's component along
// g is conserved (discrete Noether); the energy oscillates without drift.
#include "vilab/integrators/mechanism_quaternion.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <limits>
#include <vector>

#include "common.hpp"
#include "vilab/ad.hpp"
#include "vilab/models/mechanism_dynamics.hpp"

namespace vilab {

namespace {

constexpr int kPerBody = 8;  // Newton's unknowns per body: Δx (3), δq (4), the unit multiplier (1)

// L(a): a ⊗ b = L(a) b.
Mat<double, 4, 4> leftProduct(const Vec4& a) {
  Mat<double, 4, 4> L;
  L << a[0], -a[1], -a[2], -a[3],  //
      a[1], a[0], -a[3], a[2],     //
      a[2], a[3], a[0], -a[1],     //
      a[3], -a[2], a[1], a[0];
  return L;
}

// The rotation by q/|q| (q need not be unit while Newton iterates).
Mat3 unitRotation(const Vec4& q) { return quat::matrix(Vec4(q / dm::sqrt(q.squaredNorm()))); }

// D₁L_d (sign −1) or D₂L_d (sign +1) of the rotational midpoint L_d at q_{k+1} = q_k + δ,
// over any scalar. It takes δ, not q_{k+1}: the velocity δ/h keeps δ's relative precision,
// which q_{k+1} − q_k, rounded to q's ulp, would lose by a factor 1/h.
template <class S>
Vec<S, 4> rotationalSlot(const Vec4& q0, const Vec<S, 4>& delta, double I0, const Mat3& J, double h, double sign) {
  const Vec<S, 4> a = constant<S, 4>(q0) + delta * 0.5;
  const Vec<S, 4> b = delta * (1.0 / h);
  const Vec<S, 4> W = quat::mul(quat::conj(a), b);
  Vec<S, 4> IW;
  IW[0] = I0 * W[0];
  for (int r = 0; r < 3; ++r) IW[r + 1] = J(r, 0) * W[1] + J(r, 1) * W[2] + J(r, 2) * W[3];
  return quat::mul(b, quat::conj(IW)) * (2.0 * h) + quat::mul(a, IW) * (4.0 * sign);
}

// The damping's part of the q_k equation, 2 q_k ⊗ (0, (h/2)(−c ω̄)) = −c h q_k ⊗ (0, ω̄),
// ω̄ = 2 vec(r)/(h r₀), r = q_k* ⊗ (q_k + δ), over any scalar (δ as in rotationalSlot).
template <class S>
Vec<S, 4> dampingSlot(const Vec4& q0, const Vec<S, 4>& delta, double c, double h) {
  const Vec<S, 4> r = quat::mul(constant<S, 4>(Vec4(quat::conj(q0))), delta);
  const S r0 = r[0] + q0.squaredNorm();
  Vec<S, 4> omega;
  omega[0] = S(0.0);
  for (int k = 1; k < 4; ++k) omega[k] = r[k] * (2.0 / h) / r0;
  return quat::mul(constant<S, 4>(q0), omega) * (-c * h);
}

// The bodies' positions in the canonical q (7 entries per body).
std::vector<Vec3> positionsOf(const VecX& q, int bodies) {
  std::vector<Vec3> x(static_cast<std::size_t>(bodies));
  for (int i = 0; i < bodies; ++i) x[static_cast<std::size_t>(i)] = q.segment<3>(7 * i);
  return x;
}

class MechanismQuaternionMidpoint {
 public:
  MechanismQuaternionMidpoint(const MechanismModel& model, double h) : dynamics_(model), h_(h) {
    const int B = model.bodyCount(), c = model.constraintCount();
    problem_.self = this;
    problem_.Gk.resize(c, 6 * B);
    problem_.G1.resize(c, 6 * B);
    problem_.g1.resize(c);
    problem_.jacobian.resize(kPerBody * B + c, kPerBody * B + c);
    for (const MechanismBody& b : model.bodies) {
      radialInertia_.push_back(b.inertia.trace() / 3.0);
      rowScale_.push_back(4.0 * b.inertia.diagonal().maxCoeff() / h);
      massScale_ = std::max(massScale_, b.mass);
    }
    lengthScale_ = model.lengthScale();
  }

  // The step's start t_k (Simulation sets it before every step; step() advances it).
  void setTime(double t) { t_ = t; }
  void dampAllAtStart(bool allAtStart) { dampAllAtStart_ = allAtStart; }

  // One step of the canonical state (per body x, q; p, Π); on refusal q, p are untouched.
  StepOutcome step(VecX& q, VecX& p) {
    const MechanismModel& model = dynamics_.model();
    const int B = model.bodyCount(), c = model.constraintCount();
    StepProblem& P = problem_;
    P.self = this;  // set here, not once: a moved integrator must not point at its old self
    P.q = &q;
    P.p = &p;
    std::vector<Mat3> R0(B);
    for (int i = 0; i < B; ++i) R0[i] = quat::matrix(Vec4(q.segment<4>(7 * i + 3)));
    model.constraintJacobian(positionsOf(q, B), R0, P.Gk);
    prepare(q, p, R0);
    // The start: free flight and free rotation at the present velocities.
    Eigen::VectorXd z = Eigen::VectorXd::Zero(kPerBody * B + c);
    double rotation = std::numeric_limits<double>::min(), travel = std::numeric_limits<double>::min(), speed2 = 0;
    for (int i = 0; i < B; ++i) {
      const MechanismBody& body = model.bodies[i];
      const Vec3 v = p.segment<3>(6 * i) / body.mass,
                 omega = dynamics_.inverseInertia(i) * Vec3(p.segment<3>(6 * i + 3));
      const Vec4 q0 = q.segment<4>(7 * i + 3);
      Vec4 q1 = quat::mul(q0, Vec4(1.0, 0.5 * h_ * omega[0], 0.5 * h_ * omega[1], 0.5 * h_ * omega[2]));
      q1 /= dm::sqrt(q1.squaredNorm());
      z.segment<3>(kPerBody * i) = h_ * v + (0.5 * h_ * h_) * model.gravity;
      z.segment<4>(kPerBody * i + 3) = q1 - q0;
      rotation = std::max(rotation, (q1 - q0).cwiseAbs().maxCoeff());
      travel = std::max(travel, z.segment<3>(kPerBody * i).cwiseAbs().maxCoeff());
      speed2 = std::max(speed2, v.squaredNorm() + omega.squaredNorm() * lengthScale_ * lengthScale_);
    }
    // Scales of the unknowns, as the Lie-group step's: with joints, positions and
    // rotations are resolved only to the joints' rounding (ε of the positions).
    P.rotationScale = c > 0 ? std::max(rotation, 1e-3) : rotation;
    P.travelScale = c > 0 ? std::max(travel, 1e-3 * lengthScale_) : travel;
    P.wScale = jointImpulseScale(model, h_, massScale_, lengthScale_, speed2);
    NewtonSettings settings;
    settings.what = "the mechanism's midpoint equations in quaternions";
    settings.globalize = true;
    const StepOutcome out = solveNewton(P, z, settings, workspace_);
    if (!out.ok) return out;
    // The discrete Legendre transform p_{k+1} = D₂L_d at the root.
    P.configure(z);
    VecX q1 = q, p1 = p;
    // The end's halves of the loads at (x_{k+1}, R_{k+1}, t_{k+1}) and of the damping.
    const bool loaded = model.appliedLoads(P.x1, P.R1, t_ + h_, force_, torque_);
    for (int i = 0; i < B; ++i) {
      const MechanismBody& body = model.bodies[i];
      const Vec4 q0 = q.segment<4>(7 * i + 3), qe = P.q1[i];
      const Vec4 delta = z.segment<4>(kPerBody * i + 3);
      const Vec4 pq = rotationalSlot<double>(q0, delta, radialInertia_[i], body.inertia, h_, +1.0);
      q1.segment<3>(7 * i) = P.x1[i];
      q1.segment<4>(7 * i + 3) = qe;
      p1.segment<3>(6 * i) = body.mass * z.segment<3>(kPerBody * i) / h_ + (0.5 * h_) * Vec3(body.mass * model.gravity);
      p1.segment<3>(6 * i + 3) = 0.5 * quat::mul(quat::conj(qe), pq).tail<3>();
      if (!dampAllAtStart_ && linearDampingOf(model, i) != 0)  // f_d^+ = (h/2)(−c_x Δx/h)
        p1.segment<3>(6 * i) -= (0.5 * linearDampingOf(model, i)) * z.segment<3>(kPerBody * i);
      if (loaded) {
        p1.segment<3>(6 * i) += (0.5 * h_) * force_[i];
        p1.segment<3>(6 * i + 3) += (0.5 * h_) * torque_[i];
      }
      // f_d^+ = (h/2)(−c ω̄) = ½ vec(q_k* ⊗ dampingSlot) (q_k unit; ω̄ is the same in
      // both ends' body frames).
      if (!dampAllAtStart_ && body.damping != 0)
        p1.segment<3>(6 * i + 3) +=
            0.5 * quat::mul(quat::conj(q0), dampingSlot<double>(q0, delta, body.damping, h_)).tail<3>();
    }
    if (c > 0 && !projectMomenta(P.x1, P.q1, p1))
      return StepOutcome::refuse(RefusalCode::SingularMatrix,
                                 "the joints' velocity constraints are singular at the new configuration",
                                 Suggestion::reduceH(), out.iterations);
    if (!q1.allFinite() || !p1.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                                 out.iterations);
    q = std::move(q1);
    p = std::move(p1);
    t_ += h_;
    return out;
  }

  // Tests: the residual and Newton's matrix of the step from (q, p) at z.
  void residual(const VecX& q, const VecX& p, const Eigen::VectorXd& z, Eigen::VectorXd& r, Eigen::MatrixXd& jacobian) {
    const MechanismModel& model = dynamics_.model();
    StepProblem& P = problem_;
    P.self = this;
    P.q = &q;
    P.p = &p;
    std::vector<Mat3> R0(model.bodyCount());
    for (int i = 0; i < model.bodyCount(); ++i) R0[i] = quat::matrix(Vec4(q.segment<4>(7 * i + 3)));
    model.constraintJacobian(positionsOf(q, model.bodyCount()), R0, P.Gk);
    prepare(q, p, R0);
    P.evaluate(z, r, true);
    jacobian = P.jacobian;
  }

 private:
  // The start's impulses without the joints' forces, p_k + (h/2)(m g + f_k) and
  // Π_k + (h/2) τ_k, and each body's damping coefficients at the start (2c when the test
  // hook puts all of it there).
  void prepare(const VecX& q, const VecX& p, const std::vector<Mat3>& R0) {
    const MechanismModel& model = dynamics_.model();
    const int B = model.bodyCount();
    StepProblem& P = problem_;
    std::vector<Vec3> x0(B);
    for (int i = 0; i < B; ++i) x0[i] = q.segment<3>(7 * i);
    const bool loaded = model.appliedLoads(x0, R0, t_, force_, torque_);
    P.start.resize(B);
    P.rotStart.resize(B);
    P.damping.resize(B);
    P.linearDamping.resize(B);
    for (int i = 0; i < B; ++i) {
      const MechanismBody& body = model.bodies[i];
      P.start[i] = p.segment<3>(6 * i) + (0.5 * h_) * Vec3(body.mass * model.gravity);
      P.rotStart[i] = p.segment<3>(6 * i + 3);
      if (loaded) {
        P.start[i] += (0.5 * h_) * force_[i];
        P.rotStart[i] += (0.5 * h_) * torque_[i];
      }
      P.damping[i] = (dampAllAtStart_ ? 2.0 : 1.0) * body.damping;
      P.linearDamping[i] = (dampAllAtStart_ ? 2.0 : 1.0) * linearDampingOf(model, i);
    }
  }

  // v ↦ v − M⁻¹Gᵀ (G M⁻¹ Gᵀ)⁻¹ G v at q_{k+1}, v = M⁻¹(p, Π): the momenta that keep the
  // joints closed, changed within the span of Gᵀ only. False when G M⁻¹ Gᵀ is singular.
  bool projectMomenta(const std::vector<Vec3>& x1, const std::vector<Vec4>& q1, VecX& p) const {
    const MechanismModel& model = dynamics_.model();
    const int B = model.bodyCount();
    std::vector<Mat3> R(B);
    for (int i = 0; i < B; ++i) R[i] = quat::matrix(q1[i]);
    if (!dynamics_.factorReactions(x1, R) || !(dynamics_.reactionFactor().vectorD().minCoeff() > 0)) return false;
    VecX v(6 * B);
    dynamics_.applyInverseMass(p, v);
    v -= dynamics_.inverseMassJacobianT() * dynamics_.reactionFactor().solve(dynamics_.jacobian() * v);
    for (int i = 0; i < B; ++i) {
      p.segment<3>(6 * i) = model.bodies[i].mass * v.segment<3>(6 * i);
      p.segment<3>(6 * i + 3) = model.bodies[i].inertia * v.segment<3>(6 * i + 3);
    }
    return true;
  }

  // The Newton problem in z = (Δx, δq, u per body; w), x_{k+1} = x_k + Δx,
  // q_{k+1} = q_k + δq, u = 2μ/s and w = hλ, with the rows scaled to dimensionless units
  // (translation by the mechanism's length, rotation by s = 4 J_max/h, Newton's matrix's
  // size in q) so that the pivots measure conditioning rather than units.
  struct StepProblem {
    using Vector = Eigen::VectorXd;
    MechanismQuaternionMidpoint* self = nullptr;
    const VecX* q = nullptr;
    const VecX* p = nullptr;
    Eigen::MatrixXd Gk, G1, jacobian;
    Eigen::VectorXd g1;
    Eigen::PartialPivLU<Eigen::MatrixXd> lu;
    double ratio = 1, rotationScale = 1, travelScale = 1, wScale = 1;
    // Set by prepare(): the start's impulses and damping coefficients.
    std::vector<Vec3> start, rotStart;
    std::vector<double> damping, linearDamping;
    // Filled by configure(z):
    std::vector<Vec3> x1;
    std::vector<Vec4> q1;
    std::vector<Mat3> R1;
    Eigen::VectorXd jointForce;  // Gₖᵀ w / h

    void configure(const Vector& z) {
      const MechanismModel& model = self->dynamics_.model();
      const int B = model.bodyCount(), c = static_cast<int>(Gk.rows());
      x1.resize(B);
      q1.resize(B);
      R1.resize(B);
      for (int i = 0; i < B; ++i) {
        const Vec3 x0 = q->segment<3>(7 * i);
        const Vec4 q0 = q->segment<4>(7 * i + 3);
        x1[i] = x0 + z.segment<3>(kPerBody * i);
        q1[i] = q0 + z.segment<4>(kPerBody * i + 3);
        R1[i] = unitRotation(q1[i]);
      }
      jointForce = Eigen::VectorXd::Zero(6 * B);
      if (c > 0) jointForce.noalias() = Gk.transpose() * z.tail(c) / self->h_;
    }

    NewtonEval evaluate(const Vector& z, Vector& r, bool linearize) {
      const MechanismModel& model = self->dynamics_.model();
      const int B = model.bodyCount(), c = static_cast<int>(Gk.rows());
      const double h = self->h_, L = self->lengthScale_;
      configure(z);
      r.resize(kPerBody * B + c);
      if (linearize) jacobian.setZero();
      for (int i = 0; i < B; ++i) {
        const MechanismBody& body = model.bodies[i];
        const int k = kPerBody * i;
        const Vec4 q0 = q->segment<4>(7 * i + 3);
        const double s = self->rowScale_[i];
        // f_d^- = −(c_x/2) Δx: the translation rows' diagonal 1 + h c_x/(2m)
        const double grow = 1.0 + 0.5 * h * linearDamping[i] / body.mass;
        const Vec3 dx = linearDamping[i] != 0 ? Vec3(grow * z.segment<3>(k)) : Vec3(z.segment<3>(k));
        r.segment<3>(k) = (dx - (h / body.mass) * start[i] - jointForce.segment<3>(6 * i) * (h / body.mass)) / L;
        const Vec3 Q = rotStart[i] + jointForce.segment<3>(6 * i + 3);
        const Vec4 external = 2.0 * quat::mul(q0, quat::pure(Q));
        const double damp = damping[i];
        Vec4 slot;
        if (linearize) {
          Mat<double, 4, 4> dSlot;
          slot = vilab::jacobian<4, 4>(
              [&](const auto& y) {
                using S = typename std::decay_t<decltype(y)>::Scalar;
                const Vec<S, 4> slot = rotationalSlot<S>(q0, y, self->radialInertia_[i], body.inertia, h, -1.0);
                return damp != 0 ? Vec<S, 4>(slot + dampingSlot<S>(q0, y, damp, h)) : slot;
              },
              Vec4(z.segment<4>(k + 3)), dSlot);
          jacobian.block<3, 3>(k, k) = Mat3::Identity() * (grow / L);
          jacobian.block<4, 4>(k + 3, k + 3) = dSlot / s;
          jacobian.block<4, 1>(k + 3, k + 7) = q0;
          jacobian.block<1, 4>(k + 7, k + 3) = q1[i].transpose();
          if (c > 0) {
            // ∂/∂w: the translation rows −G_xᵀ/(mL), the rotation rows 2 q_k ⊗ (0, G_ηᵀ)/(h s).
            jacobian.block(k, kPerBody * B, 3, c) = -Gk.middleCols<3>(6 * i).transpose() / (body.mass * L);
            jacobian.block(k + 3, kPerBody * B, 4, c) =
                leftProduct(q0).rightCols<3>() * Gk.middleCols<3>(6 * i + 3).transpose() * (2.0 / (h * s));
          }
        } else {
          const Vec4 delta = z.segment<4>(k + 3);
          slot = rotationalSlot<double>(q0, delta, self->radialInertia_[i], body.inertia, h, -1.0);
          if (damp != 0) slot += dampingSlot<double>(q0, delta, damp, h);
        }
        r.segment<4>(k + 3) = (external + slot) / s + z[k + 7] * q0;
        r[k + 7] = 0.5 * (q1[i].squaredNorm() - 1.0);
      }
      if (c > 0) {
        model.constraints(x1, R1, g1);
        r.tail(c) = g1 / L;
      }
      if (!r.allFinite()) return NewtonEval::NonFinite;
      if (!linearize) return NewtonEval::Ok;
      if (c > 0) {
        model.constraintJacobian(x1, R1, G1);
        for (int i = 0; i < B; ++i) {
          const int k = kPerBody * i;
          // δη = 2 vec(q* ⊗ δq)/|q|² for the rotation by q/|q|.
          const Mat<double, 3, 4> E = leftProduct(q1[i]).transpose().bottomRows<3>() * (2.0 / q1[i].squaredNorm());
          jacobian.block(kPerBody * B, k, c, 3) = G1.middleCols<3>(6 * i) / L;
          jacobian.block(kPerBody * B, k + 3, c, 4) = G1.middleCols<3>(6 * i + 3) * E / L;
        }
      }
      if (!jacobian.allFinite()) return NewtonEval::NonFinite;
      lu.compute(jacobian);
      const auto d = lu.matrixLU().diagonal().cwiseAbs();
      const double largest = d.maxCoeff(), smallest = d.minCoeff();
      ratio = smallest > 0 ? largest / smallest : std::numeric_limits<double>::infinity();
      return smallest > 0 ? NewtonEval::Ok : NewtonEval::Singular;
    }
    double conditionEstimate() const { return ratio; }
    void solve(Vector& b) const { b = lu.solve(b); }
    // Relative to each body's travel and rotation per step and the joints' impulse, so that
    // the discrete Noether momentum holds to rounding however small the step.
    double size(const Vector& dz) const {
      const int B = static_cast<int>(q->size() / 7), c = static_cast<int>(Gk.rows());
      double out = 0;
      for (int i = 0; i < B; ++i) {
        out = std::max(out, dz.segment<3>(kPerBody * i).cwiseAbs().maxCoeff() / travelScale);
        out = std::max(out, dz.segment<5>(kPerBody * i + 3).cwiseAbs().maxCoeff() / rotationScale);
      }
      if (c > 0) out = std::max(out, dz.tail(c).cwiseAbs().maxCoeff() / wScale);
      return out;
    }
  };

  MechanismDynamics dynamics_;
  double h_;
  double t_ = 0;
  bool dampAllAtStart_ = false;
  std::vector<Vec3> force_, torque_;  // appliedLoads' work space
  double lengthScale_ = 1;
  double massScale_ = 0;
  std::vector<double> radialInertia_, rowScale_;
  StepProblem problem_;
  NewtonWorkspace<Eigen::VectorXd> workspace_;
};

}  // namespace

std::unique_ptr<Integrator> quaternionOnMechanism(const MechanismModel& model, double h, bool dampAllAtStart) {
  MechanismQuaternionMidpoint step(model, h);
  step.dampAllAtStart(dampAllAtStart);
  return std::make_unique<CanonicalIntegrator<MechanismQuaternionMidpoint>>(std::move(step));
}

std::unique_ptr<Integrator> quaternionOnMechanism(const Model& model, const Options&, double h) {
  const MechanismModel& m = std::get<MechanismModel>(model);
  // Its unknowns per body are a quaternion's four entries with the unit multiplier, whose
  // equations are singular without inertia.
  for (const MechanismBody& b : m.bodies)
    if (b.point)
      throw InputError(InputErrorCode::NotApplicable, "integrator",
                       "quaternion needs every body's inertia positive: a point mass (inertia 0) has no "
                       "orientation to step; use lie-group, rk4 or dopri5");
  return quaternionOnMechanism(m, h, false);
}

void quaternionMechanismResidual(const MechanismModel& model, double h, const VecX& q, const VecX& p, double t,
                                 const Eigen::VectorXd& z, Eigen::VectorXd& r, Eigen::MatrixXd& jacobian) {
  MechanismQuaternionMidpoint step(model, h);
  step.setTime(t);
  step.residual(q, p, z, r, jacobian);
}

}  // namespace vilab
