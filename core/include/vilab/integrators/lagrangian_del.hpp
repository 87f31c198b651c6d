// The variational integrators of a system defined by data (models/lagrangian.hpp): the
// discrete Euler–Lagrange equations with Lagrange multipliers (W–M §4) for the
// α-family of discrete Lagrangians, with every derivative from the compiled programs.
//
// Given (q_k, p_k) with g(q_k) = 0, solve for δ = q_{k+1} − q_k and λ_k
//     p_k + D1 L_d(q_k, q_k + δ) + Dg(q_k)ᵀ λ_k = 0        (W–M 4.4)
//     g(q_k + δ) = 0                                       (W–M 4.5)
// then p_{k+1} = D2 L_d(q_k, q_{k+1}) (discrete Legendre transform), in impulse form.
//
// The discrete Lagrangians, in L's derivatives at one or two points (v = δ/h):
//  α-family (midpoint α = ½), x̄ = q_k + αδ:  L_d = h L(x̄, v)
//     D1 L_d = h(1−α) L_q − L_q̇,   D1 + D2 = h L_q,
//     ∂D1/∂q_{k+1} = hα(1−α) L_qq + (1−α) L_qq̇ − α L_q̇q − L_q̇q̇ / h;
//  trapezoid:  L_d = (h/2) [L(q_k, v) + L(q_{k+1}, v)]
//     D1 L_d = (h/2) L_q(q_k) − ½ [L_q̇(q_k) + L_q̇(q_{k+1})],   D1 + D2 = (h/2) [L_q(q_k) + L_q(q_{k+1})],
//     ∂D1/∂q_{k+1} = ½ L_qq̇(q_k) − ½ L_q̇q(q_{k+1}) − [L_q̇q̇(q_k) + L_q̇q̇(q_{k+1})] / (2h).
// With a configuration-dependent mass matrix or a non-uniform force the members differ
// at O(h²) per unit time: they are not conjugate to one another, as they are for the
// built-in systems with uniform gravity.
//
// A time-dependent L (M–W Part 4) is sampled where the quadrature samples q: the
// α-family at t_k + αh (midpoint t_k + h/2), the trapezoid at t_k and t_{k+1}; the
// Simulation sets t_k before every step (setTime).
//
// Forcing (discrete Lagrange–d'Alembert, M–W §3.2): the virtual work of F(q, q̇, t) over
// the step is split into f_d^−, f_d^+, and the equations become
//     p_k + D1 L_d + f_d^− + Dg(q_k)ᵀλ_k = 0,   p_{k+1} = D2 L_d + f_d^+.
// The symmetric split (the default) keeps the order 2 of the midpoint rule:
//     α-family:  f_d^± = (h/2) F(x̄, v, t_k + αh);
//     trapezoid: f_d^− = (h/2) F(q_k, v, t_k),  f_d^+ = (h/2) F(q_{k+1}, v, t_{k+1}).
// The one-sided split f_d^− = f_d^−+f_d^+ (h F at the α point), f_d^+ = 0, is first order.
// ∂f_d^−/∂q_{k+1} joins the Newton matrix (from F's compiled Jacobians):
//     α-family: s (hα F_q + F_q̇) with s = ½ (symmetric) or 1 (one-sided);
//     trapezoid: ½ F_q̇(q_k), plus ½ (h F_q + F_q̇)(q_{k+1}) one-sided.
//
// The penalty form adds −(μ/2) Σ g_i² to L and drops the multipliers (its factory
// compiles that Lagrangian, so this class sees a system without constraints).
#pragma once

#include <algorithm>
#include <limits>
#include <memory>
#include <string>

#include "vilab/discrete_lagrangian.hpp"
#include "vilab/integrators/integrator.hpp"
#include "vilab/models/lagrangian.hpp"
#include "vilab/outcome.hpp"
#include "vilab/solver/newton.hpp"

namespace vilab {

// How the discrete forcing is split between the two ends of the step (M–W §3.2).
enum class ForceSplit { Symmetric, OneSided };

class LagrangianDel {
 public:
  LagrangianDel(std::shared_ptr<const LagrangianProblem> problem, DiscreteRule rule, double h,
                ForceSplit split = ForceSplit::Symmetric)
      : eval_(std::move(problem)), rule_(rule), h_(h), split_(split), forced_(eval_.problem().forced()) {}

  // t_k, the time of the state the next step starts from.
  void setTime(double t) { t_ = t; }

  StepOutcome step(VecX& q, VecX& p) {
    const int n = eval_.n(), c = eval_.c();
    q0_ = &q;
    p0_ = &p;
    eval_.constraints(q.data(), g_, &G0_);
    qScale_ = 1.0 + q.cwiseAbs().maxCoeff();
    pScale_ = 1.0 + p.cwiseAbs().maxCoeff();

    // Stage 1: Newton on F(δ, λ) = [p_k + D1 L_d + Dg(q_k)ᵀλ ; g(q_k + δ)] = 0, simplified:
    // the Jacobian is rebuilt only when the iteration contracts slowly, and globalized
    // (solver/newton.hpp: where plain Newton is refused, damped steps that stay where L
    // is defined). It starts from the previous step's (δ, λ), which is within O(h²) of
    // the solution; after a load from the explicit predictor δ = h q̇_k, λ = 0 (q̇_k
    // recovered from p_k; δ = 0 if it cannot be), within O(h²) too. From δ = 0 the first
    // update of a non-quadratic L can leave its domain (|q̇| ≥ 1 for a relativistic one).
    if (previous_.size() == n + c) {
      x_ = previous_;
    } else {
      x_ = SmallVec::Zero(n + c);
      if (explicitPredictor(eval_, q, p, t_, v_)) x_.head(n) = h_ * v_;
    }
    const LagrangianProblem& P = eval_.problem();
    const bool affine = P.constantHessian && (!forced_ || P.constantForceJacobian);
    const StepOutcome out = affine ? solveReduced() : solveFull();
    if (!out.ok) return out;

    // Stage 2: p_{k+1} = D2 L_d + f_d^+ = p_k + Dg(q_k)ᵀλ + (D1 + D2) L_d + f_d^− + f_d^+
    // (at the solution D1 L_d = −p_k − f_d^− − Dg(q_k)ᵀλ); then the tangent part, as the
    // built-in chains store it.
    const SmallVec delta = x_.head(n);
    shift(q, delta, shift_);
    q1_ = q + delta;
    p1_ = p + shift_;
    if (c > 0) p1_.noalias() += G0_.transpose().lazyProduct(x_.tail(c));
    if (forced_) {
      discreteForces(q, delta, fMinus_, fPlus_);
      p1_ += fMinus_ + fPlus_;
    }
    v_ = delta / h_;  // the step's mean velocity: the recovery's starting guess
    if (c > 0 && !eval_.projectMomentum(q1_.data(), p1_.data(), t_ + h_, &v_))
      return StepOutcome::refuse(RefusalCode::SingularMatrix,
                                 "the constraints' gradients became linearly dependent at the new configuration",
                                 Suggestion::reduceH(), out.iterations);
    if (!q1_.allFinite() || !p1_.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                                 out.iterations);
    q.swap(q1_);
    p.swap(p1_);
    previous_ = x_;
    return out;
  }

  // The Jacobian ∂(q_{k+1}, p_{k+1})/∂(q_k, p_k) of the step from s (Integrator::linearize),
  // by the implicit function theorem on R(q_k, p_k, δ) = p_k + D1 L_d(q_k, q_k + δ) + f_d^− = 0
  // at the step's root δ (the α-family, x̄ = q_k + αδ, v = δ/h, s_F = ½ or 1 as split):
  //     dδ = −R_δ⁻¹ (dp_k + R_q dq_k),   R_δ = ∂D1/∂q_{k+1} + ∂f_d^−/∂q_{k+1} (the Newton matrix),
  //     R_q = h(1−α) L_qq − L_q̇q + s_F h F_q   (δ held),
  //     q_{k+1} = q_k + δ,   p_{k+1} = p_k + h L_q(x̄, v) + h F(x̄, v):
  //     dp_{k+1} = dp_k + h (L_qq + F_q) dq_k + (hα (L_qq + F_q) + L_qq̇ + F_q̇) dδ.
  // A copy solves the step, so this integrator's predictor, and every later bit, is unchanged.
  bool linearize(const State& s, Eigen::MatrixXd& jacobian, std::string& why) const {
    if (rule_.kind == Quadrature::Trapezoid) {
      why = "the trapezoid rule's step is not differentiated (the α-family's is)";
      return false;
    }
    if (eval_.c() > 0) {
      why = "the step with constraints is not differentiated (only systems without constraints)";
      return false;
    }
    LagrangianDel work = *this;
    VecX q = s.q, p = s.p;
    const StepOutcome out = work.step(q, p);
    if (!out.ok) {
      why = "the step from this state is refused: " + out.refusal.reason;
      return false;
    }
    const int n = eval_.n();
    const double h = h_, a = weight(), sF = split_ == ForceSplit::OneSided ? 1.0 : 0.5;
    const SmallVec delta = work.x_.head(n);
    SmallVec d1(n);
    SmallMat rDelta(n, n);
    work.discreteDerivative(s.q, delta, d1, &rDelta);  // also leaves L's and F's second derivatives at x̄
    Eigen::MatrixXd lqq = work.Lqq_, lqv = work.Lqv_;
    Eigen::MatrixXd rq = (h * (1 - a)) * lqq - lqv.transpose();
    if (forced_) {
      rq += (sF * h) * Eigen::MatrixXd(work.Fq_);
      lqq += Eigen::MatrixXd(work.Fq_);
      lqv += Eigen::MatrixXd(work.Fv_);
    }
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu{Eigen::MatrixXd(rDelta)};
    const Eigen::MatrixXd dDeltaDq = -lu.solve(rq);
    const Eigen::MatrixXd dDeltaDp = -lu.solve(Eigen::MatrixXd::Identity(n, n));
    const Eigen::MatrixXd momentumGain = (h * a) * lqq + lqv;
    jacobian.resize(2 * n, 2 * n);
    jacobian.topLeftCorner(n, n) = Eigen::MatrixXd::Identity(n, n) + dDeltaDq;
    jacobian.topRightCorner(n, n) = dDeltaDp;
    jacobian.bottomLeftCorner(n, n) = h * lqq + momentumGain * dDeltaDq;
    jacobian.bottomRightCorner(n, n) = Eigen::MatrixXd::Identity(n, n) + momentumGain * dDeltaDp;
    if (!jacobian.allFinite()) {
      why = "the Newton matrix of the step is singular here";
      return false;
    }
    return true;
  }

  // A new state (load, setState): no previous step to predict from.
  void prepare(State&) { previous_.resize(0); }

  // The Newton policy (solver/newton.hpp): globalized (the default) or the plain
  // iteration alone, here and in the velocity recoveries (tests' negative control).
  void setGlobalized(bool on) {
    globalized_ = on;
    eval_.setGlobalized(on);
  }

  StepOutcome solveFull() {
    NewtonSettings settings;
    settings.fullNewton = false;
    settings.globalize = globalized_;
    settings.what = "the discrete Euler–Lagrange equations";
    return solveNewton(*this, x_, settings, workspace_);
  }

  // Every second derivative of L is constant (constant mass matrix, forces affine in
  // q): D1 L_d is affine in δ with the constant matrix J11, so the first equation gives
  //     δ(λ) = δ0 − Bλ,   δ0 = −J11⁻¹ (p_k + D1 L_d(q_k, q_k)),   B = J11⁻¹ Dg(q_k)ᵀ,
  // and Newton runs on λ alone: g(q_k + δ(λ)) = 0 with the c×c matrix −Dg(q_k + δ) B
  // (as the built-in chains do for uniform gravity).
  StepOutcome solveReduced() {
    const int n = eval_.n(), c = eval_.c();
    const VecX& q = *q0_;
    if (!reducedReady_) {
      SmallVec d1(n);
      discreteDerivative(q, SmallVec::Zero(n), d1, &J11_);
      if (!j11Lu_.compute(J11_) || !j11Lu_.regular(limits::kSingularPivotRatio))
        return StepOutcome::refuse(RefusalCode::SingularMatrix,
                                   "the Newton matrix of the discrete Euler–Lagrange equations is singular",
                                   Suggestion::reduceH(), 1);
      j11Inverse_ = j11Lu_.inverse();
      reducedReady_ = true;
    }
    SmallVec d1(n);
    discreteDerivative(q, SmallVec::Zero(n), d1, nullptr);
    // Small matrices: coefficient-wise products (lazyProduct), not the blocked GEMM path.
    delta0_ = -j11Inverse_.lazyProduct(SmallVec(Eigen::Map<const Eigen::VectorXd>(p0_->data(), n) + d1));
    if (c == 0) {
      x_.head(n) = delta0_;
      return delta0_.allFinite()
                 ? StepOutcome{true, 1, {}}
                 : StepOutcome::refuse(RefusalCode::NonFinite, "the step is not finite", Suggestion::reduceH(), 1);
    }
    B_ = j11Inverse_.lazyProduct(G0_.transpose());
    lambda_ = x_.tail(c);
    Reduced reduced{*this};
    NewtonSettings settings;
    settings.globalize = globalized_;
    settings.what = "the constraints of the discrete Euler–Lagrange equations";
    const StepOutcome out = solveNewton(reduced, lambda_, settings, reducedWorkspace_);
    if (!out.ok) return out;
    x_.head(n) = delta0_ - B_.lazyProduct(lambda_);
    x_.tail(c) = lambda_;
    return out;
  }

  struct Reduced {
    using Vector = SmallVec;
    LagrangianDel& d;
    NewtonEval evaluate(const SmallVec& lambda, SmallVec& r, bool linearize) {
      d.q1_ = *d.q0_ + (d.delta0_ - d.B_.lazyProduct(lambda));
      d.eval_.constraints(d.q1_.data(), r, linearize ? &d.G1_ : nullptr);
      if (!r.allFinite()) return NewtonEval::NonFinite;
      if (linearize) {
        d.S_ = -d.G1_.lazyProduct(d.B_);
        const bool regular = d.slu_.compute(d.S_);
        d.ratio_ = d.slu_.pivotRatio();
        if (!regular) return NewtonEval::Singular;
      }
      return NewtonEval::Ok;
    }
    double conditionEstimate() const { return d.ratio_; }
    void solve(SmallVec& b) const { d.slu_.solveInPlace(b); }
    // The position change B Δλ and the momentum change Dg(q_k)ᵀΔλ, relative.
    double size(const SmallVec& dl) const {
      return std::max(SmallVec(d.B_.lazyProduct(dl)).cwiseAbs().maxCoeff() / d.qScale_,
                      SmallVec(d.G0_.transpose().lazyProduct(dl)).cwiseAbs().maxCoeff() / d.pScale_);
    }
  };

  // ---- the Newton problem (solver/newton.hpp): unknowns x = (δ, λ) ------------------
  using Vector = SmallVec;
  NewtonEval evaluate(const SmallVec& x, SmallVec& r, bool linearize) {
    const int n = eval_.n(), c = eval_.c();
    const VecX& q = *q0_;
    const SmallVec delta = x.head(n);
    r.resize(n + c);
    SmallVec d1(n);
    discreteDerivative(q, delta, d1, linearize ? &J11_ : nullptr);
    r.head(n) = Eigen::Map<const Eigen::VectorXd>(p0_->data(), n) + d1;
    if (c > 0) {
      r.head(n) += G0_.transpose().lazyProduct(x.tail(c));
      q1_ = q + delta;
      eval_.constraints(q1_.data(), g_, linearize ? &G1_ : nullptr);
      r.tail(c) = g_;
    }
    if (!r.allFinite()) return NewtonEval::NonFinite;
    if (linearize) {
      J_ = SmallMat::Zero(n + c, n + c);
      J_.topLeftCorner(n, n) = J11_;
      if (c > 0) {
        J_.topRightCorner(n, c) = G0_.transpose();
        J_.bottomLeftCorner(c, n) = G1_;
      }
      if (!J_.allFinite()) return NewtonEval::NonFinite;
      const bool regular = lu_.compute(J_);
      ratio_ = lu_.pivotRatio();
      if (!regular) return NewtonEval::Singular;
    }
    return NewtonEval::Ok;
  }
  double conditionEstimate() const { return ratio_; }
  void solve(SmallVec& b) const { lu_.solveInPlace(b); }
  // Positions relative to their size, and the momentum change Dg(q_k)ᵀΔλ relative to p.
  double size(const SmallVec& dx) const {
    const int n = eval_.n(), c = eval_.c();
    double s = dx.head(n).cwiseAbs().maxCoeff() / qScale_;
    if (c > 0) s = std::max(s, SmallVec(G0_.transpose().lazyProduct(dx.tail(c))).cwiseAbs().maxCoeff() / pScale_);
    return s;
  }

  // D1 L_d(q, q + δ) + f_d^− and, when asked, its Jacobian in q_{k+1} (formulas above).
  void discreteDerivative(const VecX& q, const SmallVec& delta, SmallVec& d1, SmallMat* jac) {
    const double h = h_;
    gradientsAt(q, delta);
    if (rule_.kind == Quadrature::Trapezoid) {
      d1 = (0.5 * h) * Lq_ - 0.5 * (Lv_ + Lv1_);
      if (jac) {
        eval_.hessian(xa_.data(), v_.data(), Lqq_, Lqv_, Lvv_, t_);
        eval_.hessian(xb_.data(), v_.data(), Lqq1_, Lqv1_, Lvv1_, t_ + h);
        *jac = 0.5 * Lqv_ - 0.5 * Lqv1_.transpose() - (Lvv_ + Lvv1_) / (2 * h);
      }
    } else {
      const double a = weight();
      d1 = (h * (1 - a)) * Lq_ - Lv_;
      if (jac) {
        eval_.hessian(xa_.data(), v_.data(), Lqq_, Lqv_, Lvv_, sampleTime());
        *jac = (h * a * (1 - a)) * Lqq_ + (1 - a) * Lqv_ - a * Lqv_.transpose() - Lvv_ / h;
      }
    }
    if (forced_) addForcing(q, delta, d1, jac);
  }

  // (D1 + D2) L_d(q, q + δ): the derivative along a common shift of both points.
  void shift(const VecX& q, const SmallVec& delta, SmallVec& out) {
    gradientsAt(q, delta);
    out = rule_.kind == Quadrature::Trapezoid ? SmallVec((0.5 * h_) * (Lq_ + Lq1_)) : SmallVec(h_ * Lq_);
  }

  // The discrete forces f_d^−, f_d^+ of the step from q to q + δ starting at t_k
  // (formulas above; zero when the system is not forced).
  void discreteForces(const VecX& q, const SmallVec& delta, SmallVec& fMinus, SmallVec& fPlus) {
    const int n = eval_.n();
    const SmallVec v = delta / h_;
    if (rule_.kind == Quadrature::Trapezoid) {
      const VecX q1 = q + delta;
      eval_.forces(q.data(), v.data(), t_, F_);
      eval_.forces(q1.data(), v.data(), t_ + h_, F1_);
      fMinus = (0.5 * h_) * F_;
      fPlus = (0.5 * h_) * F1_;
      if (split_ == ForceSplit::OneSided) {
        fMinus += fPlus;
        fPlus.setZero();
      }
      return;
    }
    const VecX x = q + weight() * delta;
    eval_.forces(x.data(), v.data(), sampleTime(), F_);
    if (split_ == ForceSplit::OneSided) {
      fMinus = h_ * F_;
      fPlus = SmallVec::Zero(n);
    } else {
      fMinus = (0.5 * h_) * F_;
      fPlus = fMinus;
    }
  }

 private:
  // The α-family's quadrature point weight (midpoint ½).
  double weight() const { return rule_.kind == Quadrature::Alpha ? rule_.alpha : 0.5; }
  // Where the α-family samples L and F in time: t_k + αh.
  double sampleTime() const { return t_ + weight() * h_; }
  // v = δ/h and L's gradient where the discrete Lagrangian samples it: at (q + αδ,
  // t_k + αh) (Lq_, Lv_), or for the trapezoid at (q, t_k) (Lq_, Lv_) and (q + δ,
  // t_{k+1}) (Lq1_, Lv1_).
  void gradientsAt(const VecX& q, const SmallVec& delta) {
    v_ = delta / h_;
    double t = sampleTime();
    if (rule_.kind == Quadrature::Trapezoid) {
      xa_ = q;
      xb_ = q + delta;
      eval_.gradient(xb_.data(), v_.data(), Lq1_, Lv1_, t_ + h_);
      t = t_;
    } else {
      xa_ = q + weight() * delta;
    }
    eval_.gradient(xa_.data(), v_.data(), Lq_, Lv_, t);
  }

  // d1 += f_d^−; jac += ∂f_d^−/∂q_{k+1} (after gradientsAt: xa_, xb_, v_ are set).
  void addForcing(const VecX& q, const SmallVec& delta, SmallVec& d1, SmallMat* jac) {
    const double h = h_;
    const bool oneSided = split_ == ForceSplit::OneSided;
    if (!jac) {
      discreteForces(q, delta, fMinus_, fPlus_);
      d1 += fMinus_;
      return;
    }
    if (rule_.kind == Quadrature::Trapezoid) {
      eval_.forceJacobian(xa_.data(), v_.data(), t_, F_, Fq_, Fv_);
      d1 += (0.5 * h) * F_;
      *jac += 0.5 * Fv_;
      if (oneSided) {
        eval_.forceJacobian(xb_.data(), v_.data(), t_ + h, F1_, Fq1_, Fv1_);
        d1 += (0.5 * h) * F1_;
        *jac += 0.5 * (h * Fq1_ + Fv1_);
      }
      return;
    }
    const double a = weight(), s = oneSided ? 1.0 : 0.5;
    eval_.forceJacobian(xa_.data(), v_.data(), sampleTime(), F_, Fq_, Fv_);
    d1 += (s * h) * F_;
    *jac += s * ((h * a) * Fq_ + Fv_);
  }

  LagrangianEval eval_;
  DiscreteRule rule_;
  double h_;
  ForceSplit split_;
  bool forced_;
  bool globalized_ = true;
  double t_ = 0;  // t_k
  SmallVec F_, F1_, fMinus_, fPlus_;
  SmallMat Fq_, Fv_, Fq1_, Fv1_;
  const VecX* q0_ = nullptr;
  const VecX* p0_ = nullptr;
  double qScale_ = 1, pScale_ = 1, ratio_ = 1;
  SmallVec x_, previous_, g_, v_, Lq_, Lv_, Lq1_, Lv1_, shift_;
  SmallMat G0_, G1_, J11_, J_, Lqq_, Lqv_, Lvv_, Lqq1_, Lqv1_, Lvv1_;
  SmallLU lu_;
  // The reduced Newton of solveReduced.
  bool reducedReady_ = false;
  SmallLU j11Lu_, slu_;
  SmallVec delta0_, lambda_;
  SmallMat j11Inverse_, B_, S_;
  NewtonWorkspace<SmallVec> reducedWorkspace_;
  SmallVec xa_, xb_;
  VecX q1_, p1_;
  NewtonWorkspace<SmallVec> workspace_;
};

}  // namespace vilab
