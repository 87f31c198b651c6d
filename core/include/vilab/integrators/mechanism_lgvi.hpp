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
  MechanismLGVI(const MechanismModel& model, double h) : model_(model), h_(h) {
    const int B = bodyCount(), c = model_.constraintCount();
    problem_.Gk.resize(c, 6 * B);
    problem_.G1.resize(c, 6 * B);
    problem_.jacobian.resize(3 * B + c, 3 * B + c);
    problem_.g1.resize(c);
    for (const MechanismBody& b : model_.bodies) {
      inertiaInverse_.push_back(b.inertia.inverse());
      rotationScale_.push_back(2.0 * b.inertia.diagonal().maxCoeff());
    }
    lengthScale_ = model_.lengthScale();
    for (const MechanismBody& b : model_.bodies) massScale_ = std::max(massScale_, b.mass);
  }

  double h() const { return h_; }
  const MechanismModel& model() const { return model_; }

  // One step s_k → s_{k+1}; on refusal s is untouched.
  StepOutcome step(MechanismState& s) {
    const int B = bodyCount(), c = model_.constraintCount();
    StepProblem& P = problem_;
    // Stage 1: the impulses without constraint forces, and the Jacobian at q_k.
    prepare(s);
    // Stage 2: solve (E1)–(E3) for z = (f, w/m̄) from the free rotation's f and w = 0.
    Eigen::VectorXd z = Eigen::VectorXd::Zero(3 * B + c);
    double fScale = std::numeric_limits<double>::min();
    double speed2 = 0;
    for (int i = 0; i < B; ++i) {
      const Vec3 f = model_.bodies[i].inertia.ldlt().solve(h_ * s.Pi[i]) / 2.0;
      z.segment<3>(3 * i) = f;
      fScale = std::max(fScale, f.cwiseAbs().maxCoeff());
      speed2 = std::max(speed2, (s.p[i] / model_.bodies[i].mass).squaredNorm() +
                                    (inertiaInverse_[i] * s.Pi[i]).squaredNorm() * lengthScale_ * lengthScale_);
    }
    // With joints, a rotation is resolved only to what the joints' rounding (ε of the
    // positions) allows, about ε in f: below 1e-3 its own size would ask for more.
    P.fScale = c > 0 ? std::max(fScale, 1e-3) : fScale;
    // w moves the bodies by Gᵀw/m: its update is measured by that displacement against the
    // mechanism's length (rounding of the positions is what it can be resolved to), or
    // against the joints' impulse per step, (h²/2)·m·(|g| + v²/L), where that is larger.
    P.wScale = std::max(0.5 * h_ * h_ * massScale_ * (dm::sqrt(model_.gravity.squaredNorm()) + speed2 / lengthScale_),
                        massScale_ * lengthScale_);
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
    }
    // Stage 4: the end impulse ν: (G M⁻¹ Gᵀ) ν = −G M⁻¹ (p, Π), all at q_{k+1}.
    if (c > 0) {
      model_.constraintJacobian(P.R1, P.G1);
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

  // Tests: the residual of (E1)–(E3) at z = (f, w) from the state s, and Newton's matrix.
  void residual(const MechanismState& s, const Eigen::VectorXd& z, Eigen::VectorXd& r, Eigen::MatrixXd* jacobian) {
    prepare(s);
    problem_.evaluate(z, r, jacobian != nullptr);
    if (jacobian) *jacobian = problem_.jacobian;
  }

 private:
  int bodyCount() const { return static_cast<int>(model_.bodies.size()); }

  void prepare(const MechanismState& s) {
    StepProblem& P = problem_;
    P.self = this;  // set here, not once: a moved integrator must not point at its old self
    P.s = &s;
    P.P0.resize(bodyCount());
    for (int i = 0; i < bodyCount(); ++i) P.P0[i] = s.p[i] + (0.5 * h_ * model_.bodies[i].mass) * model_.gravity;
    model_.constraintJacobian(s.R, P.Gk);
  }

  // The Newton problem of (E1)–(E3), rows scaled to f's units (rotation rows by 2 J_max,
  // joint rows by the mechanism's length) so that the pivots measure conditioning
  // rather than units.
  struct StepProblem {
    using Vector = Eigen::VectorXd;
    MechanismLGVI* self = nullptr;
    const MechanismState* s = nullptr;
    std::vector<Vec3> P0;              // p + (h/2) m g
    Eigen::MatrixXd Gk, G1, jacobian;  // the Jacobians at q_k and q_{k+1}; Newton's matrix
    Eigen::VectorXd g1;                // the joints at q_{k+1}
    Eigen::PartialPivLU<Eigen::MatrixXd> lu;
    double ratio = 1, fScale = 1, wScale = 1;
    // Filled by configure(z):
    std::vector<Vec3> impulse, rotImpulse, x1;
    std::vector<Mat3> F, R1;

    // x_{k+1}, R_{k+1} and the impulses P, Q from z = (f, w).
    void configure(const Vector& z) {
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
        rotImpulse[i] = s->Pi[i] + force.segment<3>(6 * i + 3);
        x1[i] = s->x[i] + (h / model.bodies[i].mass) * impulse[i];
        F[i] = cayley(z.segment<3>(3 * i));
        R1[i] = s->R[i] * F[i];
      }
    }

    NewtonEval evaluate(const Vector& z, Vector& r, bool linearize) {
      const MechanismModel& model = self->model_;
      const int B = static_cast<int>(model.bodies.size()), c = static_cast<int>(Gk.rows());
      const double h = self->h_, L = self->lengthScale_;
      configure(z);
      r.resize(3 * B + c);
      for (int i = 0; i < B; ++i) {
        const Vec3 f = z.segment<3>(3 * i), a = h * rotImpulse[i];
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
      if (c > 0) model.constraintJacobian(R1, G1);
      for (int i = 0; i < B; ++i) {
        const Vec3 f = z.segment<3>(3 * i), a = h * rotImpulse[i];
        const double scale = self->rotationScale_[i];
        Mat3 dCdf = hat(a) - 2.0 * model.bodies[i].inertia + f * a.transpose();
        dCdf.diagonal().array() += a.dot(f);
        jacobian.block<3, 3>(3 * i, 3 * i) = dCdf / scale;
        if (c == 0) continue;
        // ∂a/∂w = h · Gₖ,ηᵀ / h = G_ηᵀ
        const Mat3 dCda = Mat3::Identity() - hat(f) + f * f.transpose();
        jacobian.block(3 * i, 3 * B, 3, c) = dCda * Gk.middleCols<3>(6 * i + 3).transpose() / scale;
        const Mat3 dEta = (2.0 / (1.0 + f.squaredNorm())) * (Mat3::Identity() - hat(f));
        jacobian.block(3 * B, 3 * i, c, 3) = G1.middleCols<3>(6 * i + 3) * dEta / L;
        // ∂x_{k+1}/∂w = Gₖ,ₓᵀ / m
        jacobian.block(3 * B, 3 * B, c, c).noalias() +=
            G1.middleCols<3>(6 * i) * Gk.middleCols<3>(6 * i).transpose() / (model.bodies[i].mass * L);
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
    // Relative to the rotation per step and to the joints' impulse per step, so that the
    // discrete Noether momentum holds to rounding however small the step.
    double size(const Vector& dz) const {
      const int n = static_cast<int>(dz.size()), c = static_cast<int>(Gk.rows());
      const double df = n > c ? dz.head(n - c).cwiseAbs().maxCoeff() / fScale : 0.0;
      const double dw = c > 0 ? dz.tail(c).cwiseAbs().maxCoeff() / wScale : 0.0;
      return std::max(df, dw);
    }
  };

  MechanismModel model_;
  double h_;
  double lengthScale_ = 1;
  double massScale_ = 0;  // the largest mass
  std::vector<Mat3> inertiaInverse_;
  std::vector<double> rotationScale_;
  StepProblem problem_;
  NewtonWorkspace<Eigen::VectorXd> workspace_;
};

// The registry's integrator on a mechanism: the canonical state (x, quaternion; p, Π per
// body) in, (x, R; p, Π) stepped, the canonical state out.
class MechanismIntegrator final : public Integrator {
 public:
  MechanismIntegrator(const MechanismModel& model, double h) : lgvi_(model, h) {}
  void load(const State& s) override { s_ = lgvi_.model().toMechanism(s); }
  StepOutcome step() override { return lgvi_.step(s_); }
  void store(State& s) const override { lgvi_.model().store(s_, s); }

 private:
  MechanismLGVI lgvi_;
  MechanismState s_;
};

}  // namespace vilab
