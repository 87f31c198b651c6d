// The Euler–Lagrange equations of a system defined by data as a first-order ODE for
// the baselines (rk4, euler, dopri5), in y = [q; q̇], with the multipliers of the
// index-1 form and the projection after every step (as odes.hpp does for chains):
//     M(q, q̇) q̈ = f + Dg(q)ᵀλ,   Dg(q) q̈ + w = 0,
//     M = ∂²L/∂q̇²,  f = ∂L/∂q − ∂²L/∂q̇∂q q̇,  w_i = q̇ᵀ∇²g_i q̇,
// M, f and w from the compiled derivatives. The canonical state is (q, p = ∂L/∂q̇):
// fromState recovers q̇ from p, toState forms p again.
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

  explicit LagrangianOde(const LagrangianModel& m) : eval_(m.problem) {}
  int positions() const { return eval_.n(); }
  int size() const { return 2 * eval_.n(); }

  bool fromState(const State& s, VecX& y) {
    const int n = eval_.n();
    y.resize(2 * n);
    y.head(n) = s.q;
    if (!eval_.velocity(s.q.data(), s.p.data(), v_)) return false;
    y.tail(n) = v_;
    return true;
  }
  void toState(const VecX& y, State& s) {
    const int n = eval_.n();
    s.q = y.head(n);
    eval_.energyTerms(y.data(), y.data() + n, Lv_, M_);
    s.p = Lv_;
  }

  bool rhs(const VecX& y, VecX& dy) {
    const int n = eval_.n(), c = eval_.c();
    const double* q = y.data();
    const double* v = y.data() + n;
    eval_.energyTerms(q, v, Lv_, M_);
    eval_.dynamics(q, v, f_, w_);
    K_ = SmallMat::Zero(n + c, n + c);
    K_.topLeftCorner(n, n) = M_;
    b_.resize(n + c);
    b_.head(n) = f_;
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
    dy.tail(n) = a_.head(n);
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
    eval_.energyTerms(y.data(), y.data() + n, Lv_, M_);
    SmallLU slu;
    if (!lu_.compute(M_) ||
        !slu.compute(SmallMat(G_.lazyProduct(SmallMat(lu_.solve(SmallMat(G_.transpose())))))))
      return StepOutcome::refuse(RefusalCode::SingularMatrix, "the projection of the velocities is singular", "reduce h",
                                 iterations);
    const SmallMat MinvGt = lu_.solve(SmallMat(G_.transpose()));
    const SmallVec nu = slu.solve(SmallVec(G_.lazyProduct(y.tail(n))));
    y.tail(n) -= MinvGt.lazyProduct(nu);
    if (!y.allFinite())
      return StepOutcome::refuse(RefusalCode::SingularMatrix, "the projection of the velocities is singular", "reduce h",
                                 iterations);
    return StepOutcome{true, iterations, {}};
  }

 private:
  LagrangianEval eval_;
  SmallVec v_, Lv_, f_, w_, g_, b_, a_;
  SmallMat M_, G_, K_;
  SmallLU lu_;
};

}  // namespace vilab
