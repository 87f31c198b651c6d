// The Euler–Lagrange equations of a system defined by data as a first-order ODE for
// the baselines (rk4, euler, dopri5), in y = [q; q̇], with the multipliers of the
// index-1 form and the projection after every step (as odes.hpp does for chains):
//     M(q, q̇, t) q̈ = f + F + Dg(q)ᵀλ,   Dg(q) q̈ + w = 0,
//     M = ∂²L/∂q̇²,  f = ∂L/∂q − ∂²L/∂q̇∂q q̇ − ∂²L/∂q̇∂t,  w_i = q̇ᵀ∇²g_i q̇,
// M, f and w from the compiled derivatives, F = Q − c q̇ the forces outside L (the
// Lagrange–d'Alembert equations, M–W §3.2). The canonical state is (q, p = ∂L/∂q̇):
// fromState recovers q̇ from p, toState forms p again.
//
// When L or F depends on t the ODE is made autonomous with the clock as one more
// unknown, y = [q; q̇; t], t' = 1 (Hairer–Nørsett–Wanner §II.1): for Runge–Kutta
// methods with c_i = Σ_j a_ij (RK4, Euler, DOPRI5) this evaluates every stage at
// t_k + c_i h, exactly the non-autonomous method. The clock starts at 0 on load (a
// run's start) and advances with the steps; setClock(y, t_k) puts it back on the
// simulation's time (for integrators that forward setTime).
#pragma once

#include <limits>
#include <memory>

#include "vilab/models/lagrangian.hpp"
#include "vilab/outcome.hpp"
#include "vilab/solver/newton.hpp"

namespace vilab {

class LagrangianOde {
 public:
  static constexpr bool kProjects = true;

  explicit LagrangianOde(const LagrangianModel& m) : eval_(m.problem), clocked_(m.problem->usesTime()) {}
  int positions() const { return eval_.n(); }
  int size() const { return 2 * eval_.n() + (clocked_ ? 1 : 0); }

  bool fromState(const State& s, VecX& y) {
    const int n = eval_.n();
    y.resize(size());
    y.head(n) = s.q;
    if (clocked_) y[2 * n] = 0;  // a loaded state starts a run
    if (!eval_.velocity(s.q.data(), s.p.data(), v_, 0)) return false;
    y.segment(n, n) = v_;
    return true;
  }
  void toState(const VecX& y, State& s) {
    const int n = eval_.n();
    s.q = y.head(n);
    eval_.energyTerms(y.data(), y.data() + n, Lv_, M_, timeOf(y));
    s.p = Lv_;
  }
  // Puts the clock of y on t_k; true when that changed y.
  bool setClock(VecX& y, double t) const {
    if (!clocked_ || y[2 * eval_.n()] == t) return false;
    y[2 * eval_.n()] = t;
    return true;
  }

  bool rhs(const VecX& y, VecX& dy) {
    const int n = eval_.n(), c = eval_.c();
    const double* q = y.data();
    const double* v = y.data() + n;
    const double t = timeOf(y);
    eval_.energyTerms(q, v, Lv_, M_, t);
    eval_.dynamics(q, v, f_, w_, t);
    K_ = SmallMat::Zero(n + c, n + c);
    K_.topLeftCorner(n, n) = M_;
    b_.resize(n + c);
    b_.head(n) = f_;
    if (eval_.problem().forced()) {
      eval_.forces(q, v, t, F_);
      b_.head(n) += F_;
    }
    if (c > 0) {
      eval_.constraints(q, g_, &G_);
      K_.topRightCorner(n, c) = -G_.transpose();
      K_.bottomLeftCorner(c, n) = G_;
      b_.tail(c) = -w_;
    }
    if (!K_.allFinite() || !b_.allFinite()) return false;
    if (!lu_.compute(K_) || !lu_.regular(limits::kSingularPivotRatio)) return false;
    a_ = lu_.solve(b_);
    dy.head(n) = Eigen::Map<const Eigen::VectorXd>(v, n);
    dy.segment(n, n) = a_.head(n);
    if (clocked_) dy[2 * n] = 1;  // t' = 1
    return dy.allFinite();
  }
  const char* undefined() const {
    return "the equations of motion are undefined (a singular mass matrix or dependent constraints, or a non-finite "
           "state)";
  }

  // Positions onto g = 0 along Dg(q̃)ᵀ (Newton to rounding), then velocities onto the
  // tangent space, M-orthogonally: q̇ ← q̇ − M⁻¹Dgᵀ(Dg M⁻¹ Dgᵀ)⁻¹ Dg q̇.
  StepOutcome project(VecX& y) {
    const int n = eval_.n(), c = eval_.c();
    if (c == 0) return {};
    StepOutcome positions = eval_.projectPositions(y.data());
    if (!positions.ok) {
      positions.refusal.reason = "the step carried the state too far off the constraints to project it back (" +
                                 positions.refusal.reason + ")";
      return positions;
    }
    const int iterations = positions.iterations;
    eval_.constraints(y.data(), g_, &G_);
    eval_.energyTerms(y.data(), y.data() + n, Lv_, M_, timeOf(y));
    SmallLU slu;
    if (!lu_.compute(M_) || !slu.compute(SmallMat(G_.lazyProduct(SmallMat(lu_.solve(SmallMat(G_.transpose())))))))
      return StepOutcome::refuse(RefusalCode::SingularMatrix, "the projection of the velocities is singular",
                                 Suggestion::reduceH(), iterations);
    const SmallMat MinvGt = lu_.solve(SmallMat(G_.transpose()));
    const SmallVec nu = slu.solve(SmallVec(G_.lazyProduct(y.segment(n, n))));
    y.segment(n, n) -= MinvGt.lazyProduct(nu);
    if (!y.allFinite())
      return StepOutcome::refuse(RefusalCode::SingularMatrix, "the projection of the velocities is singular",
                                 Suggestion::reduceH(), iterations);
    return StepOutcome::accepted(iterations);
  }

 private:
  double timeOf(const VecX& y) const { return clocked_ ? y[2 * eval_.n()] : 0.0; }

  LagrangianEval eval_;
  bool clocked_;  // y carries t
  SmallVec v_, Lv_, f_, w_, g_, b_, a_, F_;
  SmallMat M_, G_, K_;
  SmallLU lu_;
};

}  // namespace vilab
