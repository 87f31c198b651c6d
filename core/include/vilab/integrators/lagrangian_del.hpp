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
#include <cstdint>
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
  // On the model's system: its evaluator shared when L is quadratic in q̇ (SharedEval).
  LagrangianDel(const LagrangianModel& model, DiscreteRule rule, double h, ForceSplit split = ForceSplit::Symmetric)
      : eval_(model), rule_(rule), h_(h), split_(split), forced_(eval_->problem().forced()) {}
  // On another problem (the penalty form's): an evaluator of its own.
  LagrangianDel(std::shared_ptr<const LagrangianProblem> problem, DiscreteRule rule, double h,
                ForceSplit split = ForceSplit::Symmetric)
      : eval_(std::move(problem)), rule_(rule), h_(h), split_(split), forced_(eval_->problem().forced()) {}

  // t_k, the time of the state the next step starts from.
  void setTime(double t) { t_ = t; }

  // The step in place first where it applies (stepReducedInPlace: it reads Dg(q_k) and
  // the sizes itself, so a step it takes needs none of stepGeneral's set-up), inline:
  // Simulation's loop calls it at every step.
  [[gnu::always_inline]] StepOutcome step(VecX& q, VecX& p) {
    const int n = eval_->n(), c = eval_->c();
    const LagrangianProblem& P = eval_->problem();
    if (inPlace_ && P.constantHessian && c > 0 && !forced_ && rule_.kind != Quadrature::Trapezoid && reducedReady_ &&
        P.constantMass && P.quadratic && previous_.size() == n + c) {
      if (!stepInPlace_) stepInPlace_ = stepInPlaceFor(n, c, j11ZerosSign_ != 0);
      int iterations = 0;
      if ((this->*stepInPlace_)(q, p, iterations)) return StepOutcome::accepted(iterations);
    }
    return stepGeneral(q, p);
  }

  // The Jacobian ∂(q_{k+1}, p_{k+1})/∂(q_k, p_k) of the step from s (Integrator::linearize),
  // by the implicit function theorem on R(q_k, p_k, δ) = p_k + D1 L_d(q_k, q_k + δ) + f_d^− = 0
  // at the step's root δ (the α-family, x̄ = q_k + αδ, v = δ/h, s_F = ½ or 1 as split):
  //     dδ = −R_δ⁻¹ (dp_k + R_q dq_k),   R_δ = ∂D1/∂q_{k+1} + ∂f_d^−/∂q_{k+1} (the Newton matrix),
  //     R_q = h(1−α) L_qq − L_q̇q + s_F h F_q   (δ held),
  //     q_{k+1} = q_k + δ,   p_{k+1} = p_k + h L_q(x̄, v) + h F(x̄, v):
  //     dp_{k+1} = dp_k + h (L_qq + F_q) dq_k + (hα (L_qq + F_q) + L_qq̇ + F_q̇) dδ.
  // A copy solves the step, so this integrator's predictor, and every later bit, is unchanged.
  bool linearize(const State& s, Eigen::MatrixXd& jacobian, std::string& why) const;

  // A new state (load, setState): no previous step to predict from.
  void prepare(State&) { previous_.resize(0); }

  // From here on the step of a new stepper of step h on the same problem, with its bits:
  // no previous step, no J11 of another h, the evaluator renewed where its answers
  // depend on who asked first. SEM's trial steps, each at its own h, build none per trial.
  void restart(double h) {
    h_ = h;
    previous_.resize(0);
    reducedReady_ = false;
    eval_.renew();
  }

  // The Newton policy (solver/newton.hpp): globalized (the default) or the plain
  // iteration alone, here and in the velocity recoveries (tests' negative control).
  void setGlobalized(bool on);

  StepOutcome solveFull();

  // Every second derivative of L is constant (constant mass matrix, forces affine in
  // q): D1 L_d is affine in δ with the constant matrix J11, so the first equation gives
  //     δ(λ) = δ0 − Bλ,   δ0 = −J11⁻¹ (p_k + D1 L_d(q_k, q_k)),   B = J11⁻¹ Dg(q_k)ᵀ,
  // and Newton runs on λ alone: g(q_k + δ(λ)) = 0 with the c×c matrix −Dg(q_k + δ) B
  // (as the built-in chains do for uniform gravity).
  StepOutcome solveReduced();

  // Off: every step takes the general path (tests compare the two paths' bits).
  void setStepInPlace(bool on) { inPlace_ = on; }
  // The steps stepReducedInPlace took.
  std::uint64_t stepsInPlace() const { return stepsInPlace_; }
  // Whether J11⁻¹ is diagonal, so that the step in place takes its products without
  // their zero terms (diagonalTimes).
  bool diagonalNewtonMatrix() const { return j11ZerosSign_ != 0; }

  struct Reduced {
    using Vector = SmallVec;
    LagrangianDel& d;
    NewtonEval evaluate(const SmallVec& lambda, SmallVec& r, bool linearize);
    double conditionEstimate() const { return d.ratio_; }
    void solve(SmallVec& b) const { d.slu_.solveInPlace(b); }
    // The position change B Δλ and the momentum change Dg(q_k)ᵀΔλ, relative.
    double size(const SmallVec& dl) const;
  };

  // ---- the Newton problem (solver/newton.hpp): unknowns x = (δ, λ) ------------------
  using Vector = SmallVec;
  NewtonEval evaluate(const SmallVec& x, SmallVec& r, bool linearize);
  double conditionEstimate() const { return ratio_; }
  void solve(SmallVec& b) const { lu_.solveInPlace(b); }
  // Positions relative to their size, and the momentum change Dg(q_k)ᵀΔλ relative to p.
  double size(const SmallVec& dx) const;

  // D1 L_d(q, q + δ) + f_d^− and, when asked, its Jacobian in q_{k+1} (formulas above).
  void discreteDerivative(const VecX& q, const SmallVec& delta, SmallVec& d1, SmallMat* jac);

  // (D1 + D2) L_d(q, q + δ): the derivative along a common shift of both points.
  void shift(const VecX& q, const SmallVec& delta, SmallVec& out);

  // The discrete forces f_d^−, f_d^+ of the step from q to q + δ starting at t_k
  // (formulas above; zero when the system is not forced).
  void discreteForces(const VecX& q, const SmallVec& delta, SmallVec& fMinus, SmallVec& fPlus);

 private:
  // The α-family's quadrature point weight (midpoint ½).
  double weight() const { return rule_.kind == Quadrature::Alpha ? rule_.alpha : 0.5; }
  // Where the α-family samples L and F in time: t_k + αh.
  double sampleTime() const { return t_ + weight() * h_; }
  // v = δ/h and L's gradient where the discrete Lagrangian samples it: at (q + αδ,
  // t_k + αh) (Lq_, Lv_), or for the trapezoid at (q, t_k) (Lq_, Lv_) and (q + δ,
  // t_{k+1}) (Lq1_, Lv1_).
  void gradientsAt(const VecX& q, const SmallVec& delta);

  // The step of solveReduced and stage 2 for a conservative α-family step with
  // constraints, warm-started, written out in one function on locals with the counts as
  // constants (NK, CK: withCoordinateAndConstraintCounts): the same operations in the
  // same order as the general path, so the same bits, without its vectors, memoized
  // evaluations and calls. False, with q, p and the previous step untouched (scratch
  // members may change), where the general path would do anything but plain Newton's
  // accepted step (its damped iteration, a refusal): the caller then takes the general
  // path from the start.
  template <class NK, class CK, bool kDiagonal>
  bool stepReducedInPlace(VecX& q, VecX& p, int& iterations);
  // Every other step: the Newton of solveReduced or solveFull, then the momentum.
  StepOutcome stepGeneral(VecX& q, VecX& p);

  // d1 += f_d^−; jac += ∂f_d^−/∂q_{k+1} (after gradientsAt: xa_, xb_, v_ are set).
  void addForcing(const VecX& q, const SmallVec& delta, SmallVec& d1, SmallMat* jac);

  SharedEval eval_;
  DiscreteRule rule_;
  double h_;
  ForceSplit split_;
  bool forced_;
  bool globalized_ = true;
  bool inPlace_ = true;
  // stepReducedInPlace for this system's counts, chosen at its first use: called through
  // the pointer, each copy stays a function of its own (called from one place, the wasm
  // optimizer would inline all 13 into step(), one function too large for V8 to keep
  // its values in registers).
  using StepInPlace = bool (LagrangianDel::*)(VecX&, VecX&, int&);
  static StepInPlace stepInPlaceFor(int n, int c, bool diagonal);
  StepInPlace stepInPlace_ = nullptr;
  std::uint64_t stepsInPlace_ = 0;
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
  SmallLU j11Lu_;
  ConstraintLU slu_;
  SmallVec delta0_, lambda_;
  SmallMat j11Inverse_, B_, S_;
  // J11⁻¹ diagonal: the sign of its zeros, else 0 (diagonalZerosSign). The step in place
  // then takes δ0 and B by diagonalTimes (its kDiagonal copy, chosen again when J11 is).
  int j11ZerosSign_ = 0;
  NewtonWorkspace<SmallVec> reducedWorkspace_;
  SmallVec xa_, xb_;
  VecX q1_, p1_;
  NewtonWorkspace<SmallVec> workspace_;
};

}  // namespace vilab
