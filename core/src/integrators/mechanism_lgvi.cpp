// MechanismLGVI's step (integrators/mechanism_lgvi.hpp), compiled once rather than in
// every file that includes the header.
#include "vilab/integrators/mechanism_lgvi.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "vilab/models/mechanism_dynamics.hpp"

namespace vilab {

MechanismLGVI::MechanismLGVI(const MechanismModel& model, double h) : model_(model), h_(h) {
  const int B = bodyCount(), c = model_.constraintCount();
  problem_.Gk.resize(c, 6 * B);
  problem_.G1.resize(c, 6 * B);
  problem_.jacobian.resize(3 * B + c, 3 * B + c);
  problem_.g1.resize(c);
  for (const MechanismBody& b : model_.bodies) {
    inertiaInverse_.push_back(b.inverseInertia());
    rotationScale_.push_back(b.point ? 1.0 : 2.0 * b.inertia.diagonal().maxCoeff());
  }
  lengthScale_ = model_.lengthScale();
  for (const MechanismBody& b : model_.bodies) massScale_ = std::max(massScale_, b.mass);
}

StepOutcome MechanismLGVI::step(MechanismState& s) {
  const int B = bodyCount(), c = model_.constraintCount();
  StepProblem& P = problem_;
  // Stage 1: the impulses without constraint forces, and the Jacobian at q_k.
  prepare(s);
  // Stage 2: solve (E1)–(E3) for z = (f, w/m̄) from the free rotation's f and w = 0.
  Eigen::VectorXd z = Eigen::VectorXd::Zero(3 * B + c);
  double fScale = std::numeric_limits<double>::min();
  double speed2 = 0;
  for (int i = 0; i < B; ++i) {
    const Vec3 f =
        model_.bodies[i].point ? Vec3::Zero() : Vec3(model_.bodies[i].inertia.ldlt().solve(h_ * s.Pi[i]) / 2.0);
    z.segment<3>(3 * i) = f;
    fScale = std::max(fScale, f.cwiseAbs().maxCoeff());
    speed2 = std::max(speed2, (s.p[i] / model_.bodies[i].mass).squaredNorm() +
                                  (inertiaInverse_[i] * s.Pi[i]).squaredNorm() * lengthScale_ * lengthScale_);
  }
  // With joints, a rotation is resolved only to what the joints' rounding (ε of the
  // positions) allows, about ε in f: below 1e-3 its own size would ask for more.
  P.fScale = c > 0 ? std::max(fScale, 1e-3) : fScale;
  P.wScale = jointImpulseScale(model_, h_, massScale_, lengthScale_, speed2);
  NewtonSettings settings;
  settings.what = "the mechanism's discrete equations";
  settings.globalize = true;
  const StepOutcome out = solveNewton(P, z, settings, workspace_);
  if (!out.ok) return out;
  // Stage 3: the configuration and the momenta before the joints' end impulse (E4).
  P.configure(z);
  std::vector<Vec3> p1(B), Pi1(B);
  for (int i = 0; i < B; ++i) {
    p1[i] = P.impulse[i] + (0.5 * h_ * model_.bodies[i].mass) * model_.gravity;
    Pi1[i] = P.F[i].transpose() * P.rotImpulse[i];
    // f_d^+ = (h/2)(−c_x v̄), v̄ = P/m
    if (!dampAllAtStart_ && linearDampingOf(model_, i) != 0)
      p1[i] -= (0.5 * h_ * linearDampingOf(model_, i) / model_.bodies[i].mass) * P.impulse[i];
  }
  // The end's halves of the loads at (x_{k+1}, R_{k+1}, t_{k+1}) and of the damping.
  if (model_.appliedLoads(P.x1, P.R1, s.t + h_, force_, torque_))
    for (int i = 0; i < B; ++i) {
      p1[i] += (0.5 * h_) * force_[i];
      Pi1[i] += (0.5 * h_) * torque_[i];
    }
  if (!dampAllAtStart_)
    for (int i = 0; i < B; ++i)
      if (model_.bodies[i].damping != 0) Pi1[i] -= model_.bodies[i].damping * Vec3(z.segment<3>(3 * i));
  // Stage 4: the end impulse ν: (G M⁻¹ Gᵀ) ν = −G M⁻¹ (p, Π), all at q_{k+1}.
  if (c > 0) {
    model_.constraintJacobian(P.x1, P.R1, P.G1);
    Eigen::VectorXd v(6 * B);
    Eigen::MatrixXd MinvGt(6 * B, c);
    for (int i = 0; i < B; ++i) {
      const double invMass = 1.0 / model_.bodies[i].mass;
      v.segment<3>(6 * i) = invMass * p1[i];
      v.segment<3>(6 * i + 3) = inertiaInverse_[i] * Pi1[i];
      MinvGt.middleRows<3>(6 * i) = invMass * P.G1.middleCols<3>(6 * i).transpose();
      MinvGt.middleRows<3>(6 * i + 3) = inertiaInverse_[i] * P.G1.middleCols<3>(6 * i + 3).transpose();
    }
    const Eigen::MatrixXd A = P.G1 * MinvGt;
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(A);
    if (ldlt.info() != Eigen::Success || !(ldlt.vectorD().minCoeff() > 0))
      return StepOutcome::refuse(RefusalCode::SingularMatrix,
                                 "the joints' velocity constraints are singular at the new configuration",
                                 Suggestion::reduceH(), out.iterations);
    const Eigen::VectorXd nu = ldlt.solve(-(P.G1 * v));
    const Eigen::VectorXd impulse = P.G1.transpose() * nu;
    for (int i = 0; i < B; ++i) {
      p1[i] += impulse.segment<3>(6 * i);
      Pi1[i] += impulse.segment<3>(6 * i + 3);
    }
  }
  for (int i = 0; i < B; ++i)
    if (!P.x1[i].allFinite() || !P.R1[i].allFinite() || !p1[i].allFinite() || !Pi1[i].allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                                 out.iterations);
  s.x = P.x1;
  s.R = P.R1;
  s.p = std::move(p1);
  s.Pi = std::move(Pi1);
  s.t += h_;
  return out;
}

void MechanismLGVI::residual(const MechanismState& s, const Eigen::VectorXd& z, Eigen::VectorXd& r,
                             Eigen::MatrixXd* jacobian) {
  prepare(s);
  problem_.evaluate(z, r, jacobian != nullptr);
  if (jacobian) *jacobian = problem_.jacobian;
}

void MechanismLGVI::prepare(const MechanismState& s) {
  StepProblem& P = problem_;
  P.self = this;  // set here, not once: a moved integrator must not point at its old self
  P.s = &s;
  const int B = bodyCount();
  P.P0.resize(B);
  for (int i = 0; i < B; ++i) P.P0[i] = s.p[i] + (0.5 * h_ * model_.bodies[i].mass) * model_.gravity;
  P.Pi0 = s.Pi;
  if (model_.appliedLoads(s.x, s.R, s.t, force_, torque_))
    for (int i = 0; i < B; ++i) {
      P.P0[i] += (0.5 * h_) * force_[i];
      P.Pi0[i] += (0.5 * h_) * torque_[i];
    }
  P.damping.resize(B);
  P.linearDamping.resize(B);
  for (int i = 0; i < B; ++i) {
    P.damping[i] = (dampAllAtStart_ ? 2.0 : 1.0) * model_.bodies[i].damping;
    P.linearDamping[i] = (dampAllAtStart_ ? 2.0 : 1.0) * linearDampingOf(model_, i);
  }
  model_.constraintJacobian(s.x, s.R, P.Gk);
}

void MechanismLGVI::StepProblem::configure(const Vector& z) {
  const MechanismModel& model = self->model_;
  const int B = static_cast<int>(model.bodies.size()), c = static_cast<int>(Gk.rows());
  const double h = self->h_;
  impulse.resize(B);
  rotImpulse.resize(B);
  x1.resize(B);
  F.resize(B);
  R1.resize(B);
  // (h/2) Gᵀλ = Gᵀw / h
  Eigen::VectorXd force = Eigen::VectorXd::Zero(6 * B);
  if (c > 0) force.noalias() = Gk.transpose() * z.tail(c) / h;
  for (int i = 0; i < B; ++i) {
    impulse[i] = P0[i] + force.segment<3>(6 * i);
    // f_d^- = (h/2)(−c_x P/m): P (1 + h c_x/(2m)) = P₀ + (G_xᵀw)/h
    if (linearDamping[i] != 0) impulse[i] /= 1.0 + 0.5 * h * linearDamping[i] / model.bodies[i].mass;
    rotImpulse[i] = Pi0[i] + force.segment<3>(6 * i + 3);
    if (damping[i] != 0) rotImpulse[i] -= damping[i] * Vec3(z.segment<3>(3 * i));  // f_d^- = (h/2)(−c 2f/h)
    x1[i] = s->x[i] + (h / model.bodies[i].mass) * impulse[i];
    F[i] = cayley(z.segment<3>(3 * i));
    R1[i] = s->R[i] * F[i];
  }
}

NewtonEval MechanismLGVI::StepProblem::evaluate(const Vector& z, Vector& r, bool linearize) {
  const MechanismModel& model = self->model_;
  const int B = static_cast<int>(model.bodies.size()), c = static_cast<int>(Gk.rows());
  const double h = self->h_, L = self->lengthScale_;
  configure(z);
  r.resize(3 * B + c);
  for (int i = 0; i < B; ++i) {
    const Vec3 f = z.segment<3>(3 * i), a = h * rotImpulse[i];
    if (model.bodies[i].point) {  // no rotation: f = 0, so F = I (the DEL of ½ m |ẋ|² alone)
      r.segment<3>(3 * i) = f;
      continue;
    }
    r.segment<3>(3 * i) =
        (a + a.cross(f) + a.dot(f) * f - 2.0 * (model.bodies[i].inertia * f)) / self->rotationScale_[i];
  }
  if (c > 0) {
    model.constraints(x1, R1, g1);
    r.tail(c) = g1 / L;
  }
  if (!r.allFinite()) return NewtonEval::NonFinite;
  if (!linearize) return NewtonEval::Ok;
  jacobian.setZero();
  if (c > 0) model.constraintJacobian(x1, R1, G1);
  for (int i = 0; i < B; ++i) {
    const Vec3 f = z.segment<3>(3 * i), a = h * rotImpulse[i];
    const double scale = self->rotationScale_[i];
    const double shrink = 1.0 + 0.5 * h * linearDamping[i] / model.bodies[i].mass;  // 1 undamped
    // ∂x_{k+1}/∂w = Gₖ,ₓᵀ / (m (1 + h c_x/(2m)))
    if (c > 0)
      jacobian.block(3 * B, 3 * B, c, c).noalias() +=
          G1.middleCols<3>(6 * i) * Gk.middleCols<3>(6 * i).transpose() / (model.bodies[i].mass * L * shrink);
    if (model.bodies[i].point) {  // the row f = 0; its rotation columns of G are zero
      jacobian.block<3, 3>(3 * i, 3 * i).setIdentity();
      continue;
    }
    Mat3 dCdf = hat(a) - 2.0 * model.bodies[i].inertia + f * a.transpose();
    dCdf.diagonal().array() += a.dot(f);
    const Mat3 dCda = Mat3::Identity() - hat(f) + f * f.transpose();
    if (damping[i] != 0) dCdf -= (h * damping[i]) * dCda;  // ∂a/∂f = −h c I
    jacobian.block<3, 3>(3 * i, 3 * i) = dCdf / scale;
    if (c == 0) continue;
    // ∂a/∂w = h · Gₖ,ηᵀ / h = G_ηᵀ
    jacobian.block(3 * i, 3 * B, 3, c) = dCda * Gk.middleCols<3>(6 * i + 3).transpose() / scale;
    const Mat3 dEta = (2.0 / (1.0 + f.squaredNorm())) * (Mat3::Identity() - hat(f));
    jacobian.block(3 * B, 3 * i, c, 3) = G1.middleCols<3>(6 * i + 3) * dEta / L;
  }
  if (!jacobian.allFinite()) return NewtonEval::NonFinite;
  lu.compute(jacobian);
  const auto d = lu.matrixLU().diagonal().cwiseAbs();
  const double largest = d.maxCoeff(), smallest = d.minCoeff();
  ratio = smallest > 0 ? largest / smallest : std::numeric_limits<double>::infinity();
  return smallest > 0 ? NewtonEval::Ok : NewtonEval::Singular;
}

double MechanismLGVI::StepProblem::size(const Vector& dz) const {
  const int n = static_cast<int>(dz.size()), c = static_cast<int>(Gk.rows());
  const double df = n > c ? dz.head(n - c).cwiseAbs().maxCoeff() / fScale : 0.0;
  const double dw = c > 0 ? dz.tail(c).cwiseAbs().maxCoeff() / wScale : 0.0;
  return std::max(df, dw);
}
}  // namespace vilab
