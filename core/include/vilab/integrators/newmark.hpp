// The Newmark family (Newmark 1959; Marsden–West §1.1 and §2.7; Kane, Marsden, Ortiz &
// West 2000) for M q̈ = f(q, q̇) with a constant mass matrix M:
//     q_{k+1} = q_k + h v_k + (h²/2) [(1 − 2β) a_k + 2β a_{k+1}]
//     v_{k+1} = v_k + h [(1 − γ) a_k + γ a_{k+1}]
//     M a_{k+1} = f(q_{k+1}, v_{k+1})
// γ = ½, β = 0 is the discrete Euler–Lagrange map of L_d = ½ h v̄ᵀMv̄ − (h/2)[V(q_k) +
// V(q_{k+1})] (M–W §1.1): Störmer–Verlet, explicit when f depends on q only, and
// symplectic in the canonical form. Every γ = ½ is symplectic for a (β-dependent)
// non-canonical form and second order (M–W §2.7); γ > ½ damps (first order, not
// symplectic); γ < ½ amplifies.
//
// Private coordinates (q, v, a): a_k = M⁻¹ f(q_k, v_k) holds at every step, so the
// canonical state (q, p = ∂L/∂q̇) determines them.
#pragma once

#include <algorithm>
#include <memory>

#include "vilab/integrators/integrator.hpp"
#include "vilab/models/lagrangian.hpp"
#include "vilab/models/oscillator.hpp"
#include "vilab/solver/newton.hpp"
#include "vilab/solver/small_lu.hpp"

namespace vilab {

// M q̈ = f(q, q̇) for the oscillator: f = −k x.
struct OscillatorForces {
  OscillatorModel model;
  int n() const { return 1; }
  double massOf() const { return model.mass; }
  void mass(SmallMat& M) const { M = SmallMat::Constant(1, 1, model.mass); }
  void force(const SmallVec& q, const SmallVec&, SmallVec& f) { f = SmallVec::Constant(1, -model.stiffness * q[0]); }
  // K = −∂f/∂q and C = −∂f/∂q̇.
  void tangents(const SmallVec&, const SmallVec&, SmallMat& K, SmallMat& C) {
    K = SmallMat::Constant(1, 1, model.stiffness);
    C = SmallMat::Zero(1, 1);
  }
  bool velocity(const SmallVec&, const SmallVec& p, SmallVec& v) {
    v = p / model.mass;
    return true;
  }
  void momentum(const SmallVec&, const SmallVec& v, SmallVec& p) { p = model.mass * v; }
};

// M q̈ = f(q, q̇) for a system defined by data with a constant mass matrix and no
// constraints: f = L_q − L_q̇q q̇ (the Euler–Lagrange equations).
struct LagrangianForces {
  LagrangianEval eval;
  explicit LagrangianForces(std::shared_ptr<const LagrangianProblem> problem) : eval(std::move(problem)) {}
  int n() const { return eval.n(); }
  void mass(SmallMat& M) {
    const SmallVec zero = SmallVec::Zero(n());
    eval.hessian(zero.data(), zero.data(), Lqq_, Lqv_, M);
  }
  void force(const SmallVec& q, const SmallVec& v, SmallVec& f) { eval.dynamics(q.data(), v.data(), f, w_); }
  // K ≈ −L_qq, C = L_q̇q − L_qq̇ (exact for L = ½q̇ᵀMq̇ + b(q)·q̇ − V(q) up to the second
  // derivatives of b, which the simplified Newton iteration may leave out).
  void tangents(const SmallVec& q, const SmallVec& v, SmallMat& K, SmallMat& C) {
    eval.hessian(q.data(), v.data(), Lqq_, Lqv_, Lvv_);
    K = -Lqq_;
    C = Lqv_.transpose() - Lqv_;
  }
  bool velocity(const SmallVec& q, const SmallVec& p, SmallVec& v) { return eval.velocity(q.data(), p.data(), v); }
  void momentum(const SmallVec& q, const SmallVec& v, SmallVec& p) {
    SmallVec Lq;
    eval.gradient(q.data(), v.data(), Lq, p);
  }

 private:
  SmallMat Lqq_, Lqv_, Lvv_;
  SmallVec w_;
};

template <class Forces>
class NewmarkIntegrator final : public Integrator {
 public:
  NewmarkIntegrator(Forces forces, double gamma, double beta, double h)
      : forces_(std::move(forces)), gamma_(gamma), beta_(beta), h_(h) {
    forces_.mass(M_);
    massLu_.compute(M_);
  }

  void load(const State& s) override {
    q_ = s.q;
    p_ = s.p;
    if (!forces_.velocity(q_, p_, v_)) v_ = SmallVec::Zero(forces_.n());
    acceleration(q_, v_, a_);
  }

  StepOutcome step() override {
    const double h = h_;
    // Stage 1: the predictors, everything of the step that the new acceleration does not change.
    qPredicted_ = q_ + h * v_ + (0.5 * h * h * (1 - 2 * beta_)) * a_;
    vPredicted_ = v_ + (h * (1 - gamma_)) * a_;
    // Stage 2: M a_{k+1} = f(q_{k+1}(a_{k+1}), v_{k+1}(a_{k+1})), by Newton from a_k; its
    // matrix M + βh² K + γh C. With β = 0 and f depending on q only it is one solve.
    x_ = a_;
    scale_ = 1.0 + a_.cwiseAbs().maxCoeff();
    NewtonSettings settings;
    settings.fullNewton = false;
    settings.what = "the Newmark acceleration equation";
    const StepOutcome out = solveNewton(*this, x_, settings, workspace_);
    if (!out.ok) return out;
    // Stage 3: the new state, and the canonical momentum p = ∂L/∂q̇.
    SmallVec q1 = qPredicted_ + (h * h * beta_) * x_;
    SmallVec v1 = vPredicted_ + (h * gamma_) * x_;
    SmallVec p1;
    forces_.momentum(q1, v1, p1);
    if (!q1.allFinite() || !v1.allFinite() || !p1.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                                 out.iterations);
    q_ = q1;
    v_ = v1;
    a_ = x_;
    p_ = p1;
    return out;
  }

  void store(State& s) const override {
    s.q = q_;
    s.p = p_;
  }

  // ---- the Newton problem of stage 2 (solver/newton.hpp): unknowns a_{k+1} ----------
  using Vector = SmallVec;
  NewtonEval evaluate(const SmallVec& a, SmallVec& r, bool linearize) {
    q1_ = qPredicted_ + (h_ * h_ * beta_) * a;
    v1_ = vPredicted_ + (h_ * gamma_) * a;
    forces_.force(q1_, v1_, f_);
    r = M_.lazyProduct(a) - f_;
    if (!r.allFinite()) return NewtonEval::NonFinite;
    if (linearize) {
      forces_.tangents(q1_, v1_, K_, C_);
      J_ = M_ + (beta_ * h_ * h_) * K_ + (gamma_ * h_) * C_;
      const bool regular = lu_.compute(J_);
      ratio_ = lu_.pivotRatio();
      if (!regular) return NewtonEval::Singular;
    }
    return NewtonEval::Ok;
  }
  double conditionEstimate() const { return ratio_; }
  void solve(SmallVec& b) const { lu_.solveInPlace(b); }
  double size(const SmallVec& da) const { return da.cwiseAbs().maxCoeff() / scale_; }

 private:
  void acceleration(const SmallVec& q, const SmallVec& v, SmallVec& a) {
    forces_.force(q, v, f_);
    a = f_;
    massLu_.solveInPlace(a);
  }

  Forces forces_;
  double gamma_, beta_, h_;
  double scale_ = 1, ratio_ = 1;
  SmallMat M_, K_, C_, J_;
  SmallLU massLu_, lu_;
  SmallVec q_, v_, a_, p_, qPredicted_, vPredicted_, q1_, v1_, f_, x_;
  NewtonWorkspace<SmallVec> workspace_;
};

}  // namespace vilab
