// The one Newton iteration of vilab. Every implicit step (discrete Euler–Lagrange
// equations, multiplier solves, Cayley equations, discrete gradients, projections)
// hands a Problem to solveNewton, so one convergence policy decides for all of them.
//
// A Problem provides
//   using Vector;                                        // the unknowns
//   NewtonEval evaluate(const Vector& x, Vector& r, bool linearize);
//       // the residual r(x); with linearize, also the Jacobian at x, factorized
//   double conditionEstimate() const;                    // of the last factorization
//   void solve(Vector& b) const;                         // b ← J⁻¹ b
//   double size(const Vector& dx) const;                 // dx in the problem's units:
//                                                        // max |dx_i| / scale_i
//
// Policy (Deuflhard's contraction monitoring, as in Hairer & Wanner's RADAU5): with
// e_k the size of the k-th update and θ_k = e_k / e_{k−1} its contraction,
//  - converged when e_k ≤ tol (the update is at rounding level of the unknowns), or
//    when the distance to the root that the contraction predicts (θ_k²·e_k for
//    Newton, θ_k/(1 − θ_k)·e_k for simplified Newton) is far below rounding: this
//    saves the confirming iteration without leaving a one-signed stopping error;
//  - converged when the updates stop shrinking (θ_k ≥ ½) with a fresh Jacobian inside
//    the rounding floor c·ε·κ that the conditioning κ of the Jacobian allows: the root
//    is not defined more precisely than that, so further iterations only move within
//    the noise (with a stale Jacobian, slow contraction means: rebuild it);
//  - a Jacobian that is not contracting (θ_k ≥ 1 above the floor) is rebuilt if it
//    was stale; with a fresh one, the step is refused as diverging when it happens
//    twice in a row (once is allowed: the first update from a crude starting point,
//    e.g. zero multipliers, can be smaller than the correction after it);
//  - a matrix whose pivots span more than kSingularPivotRatio is singular.
// tol and the floor are relative to the scales the problem chose, never absolute.
//
// Globalization (settings.globalize): where that iteration is refused (an iterate where
// the problem reports non-finite values or leaves its domain, divergence, no
// convergence), the solve starts again from the same starting point with Deuflhard's
// affine-covariant damped Newton (NLEQ-ERR: Deuflhard, "Newton Methods for Nonlinear
// Problems", §3.3: the restricted monotonicity test θ = ‖Δx̄_{k+1}‖/‖Δx_k‖ ≤ 1 − λ/4 with
// its damping predictor and corrector). A trial point outside the domain is
// halved back (λ ← λ/2) instead of refused. Where plain Newton converges nothing changes,
// bit for bit: the damped iteration only runs where plain Newton was refused.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "vilab/limits.hpp"
#include "vilab/outcome.hpp"
#include "vilab/types.hpp"

namespace vilab {

// OutsideDomain: the iterate is where the problem is not defined although its numbers
// may be finite (e.g. a velocity where ∂²L/∂q̇² is no longer definite).
enum class NewtonEval { Ok, NonFinite, Singular, OutsideDomain };

struct NewtonSettings {
  int maxIterations = limits::kMaxNewtonIterations;
  // Full Newton rebuilds the Jacobian every iteration. Otherwise it is built at the
  // start and kept while the iteration contracts by at least `slowContraction`
  // (simplified Newton: cheaper iterations when the Jacobian is costly to form).
  bool fullNewton = true;
  double slowContraction = 0.125;
  // Convergence tolerance on the scaled update size, in units of ε.
  double toleranceUlps = 4;
  // The remaining error the contraction may predict at acceptance, in units of ε.
  double predictedUlps = 0.125;
  // The rounding floor is floorUlps · ε · max(1, κ).
  double floorUlps = 64;
  // What the refusal says the unknowns are (for messages).
  const char* what = "the implicit equations of the step";
  // Where plain Newton is refused, solve again with the damped, domain-keeping
  // iteration (above). Off: the plain policy alone.
  bool globalize = false;
  // The smallest damping factor λ the damped iteration tries before it refuses.
  double minDamping = 1e-8;
};

struct NewtonReport {
  int iterations = 0;
  double lastUpdate = 0;   // scaled size of the last update
  double contraction = 0;  // θ of the last iteration
  double condition = 1;    // κ estimate of the last factorization
  // Scaled sizes of the first updates, in order (tests read the convergence order).
  static constexpr int kLoggedUpdates = 8;
  double updates[kLoggedUpdates] = {};
  // Iterations of the damped iteration (0 when plain Newton converged) and its
  // smallest damping factor λ.
  int dampedIterations = 0;
  double smallestDamping = 1;
};

// Residual and update storage; dynamic-size problems keep one across steps so that
// a step allocates nothing.
template <class Vector>
struct NewtonWorkspace {
  Vector r, dx;
};

// The refusals, formed out of line: their strings stay out of the iteration's code.
namespace newton_detail {
[[gnu::noinline, gnu::cold]] inline StepOutcome residualNotFinite(const char* what, int k) {
  return StepOutcome::refuse(RefusalCode::NonFinite, std::string(what) + " are not finite at the current iterate",
                             Suggestion::reduceH(), k);
}
[[gnu::noinline, gnu::cold]] inline StepOutcome singular(const char* what, double condition, int k) {
  return StepOutcome::refuse(
      RefusalCode::SingularMatrix,
      std::string("the Newton matrix of ") + what + " is singular (pivot ratio " + scientific(condition) + ")",
      Suggestion::reduceH(), k);
}
[[gnu::noinline, gnu::cold]] inline StepOutcome outsideDomain(const char* what, int k) {
  return StepOutcome::refuse(RefusalCode::NonFinite,
                             std::string("the iterate of ") + what + " leaves the domain where they are defined",
                             Suggestion::reduceH(), k);
}
[[gnu::noinline, gnu::cold]] inline StepOutcome dampingExhausted(const char* what, bool domain, double lambda, int k) {
  return StepOutcome::refuse(
      domain ? RefusalCode::NonFinite : RefusalCode::Diverged,
      std::string("damped Newton on ") + what +
          (domain ? " cannot stay inside the domain where they are defined" : " makes no progress") +
          " (the step was halved to λ = " + scientific(lambda) + ")",
      Suggestion::reduceH(), k);
}
[[gnu::noinline, gnu::cold]] inline StepOutcome updateNotFinite(int k) {
  return StepOutcome::refuse(RefusalCode::NonFinite, "the Newton update is not finite", Suggestion::reduceH(), k);
}
[[gnu::noinline, gnu::cold]] inline StepOutcome diverged(const char* what, double size, int k) {
  return StepOutcome::refuse(RefusalCode::Diverged,
                             std::string("Newton's method diverges on ") + what + " (update " + scientific(size) +
                                 " after " + std::to_string(k) + " iterations)",
                             Suggestion::reduceH(), k);
}
[[gnu::noinline, gnu::cold]] inline StepOutcome noConvergence(const char* what, int maxIterations, double lastUpdate) {
  return StepOutcome::refuse(RefusalCode::NoConvergence,
                             std::string("Newton's method did not converge on ") + what + " in " +
                                 std::to_string(maxIterations) + " iterations (last update " + scientific(lastUpdate) +
                                 ")",
                             Suggestion::reduceH(), maxIterations);
}
}  // namespace newton_detail

// Whether a Vector is an Eigen vector of a size fixed at compile time.
template <class Vector, class = void>
struct NewtonFixedSize : std::false_type {};
template <class Vector>
struct NewtonFixedSize<Vector, std::void_t<decltype(Vector::SizeAtCompileTime)>>
    : std::bool_constant<Vector::SizeAtCompileTime != Eigen::Dynamic> {};

// The iteration on x with residual and update storage r, dx.
template <class Problem>
StepOutcome newtonIterate(Problem& problem, typename Problem::Vector& x, typename Problem::Vector& r,
                          typename Problem::Vector& dx, const NewtonSettings& settings, NewtonReport* report) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const double tol = settings.toleranceUlps * eps;
  r = x;
  dx = x;
  double previous = std::numeric_limits<double>::infinity();
  double theta = 1;
  double condition = 1;
  bool stale = true;  // no factorization yet
  int growing = 0;    // consecutive non-contracting iterations with a fresh Jacobian
  // The report is written only when asked for: zeroing one per solve is measurable
  // on the short chains (a step there is ~100 ns).
  if (report) *report = NewtonReport{};
  double lastUpdate = 0;
  for (int k = 1; k <= settings.maxIterations; ++k) {
    if (report) report->iterations = k;
    const bool linearize = stale || settings.fullNewton;
    const NewtonEval e = problem.evaluate(x, r, linearize);
    if (e == NewtonEval::NonFinite) return newton_detail::residualNotFinite(settings.what, k);
    if (e == NewtonEval::OutsideDomain) return newton_detail::outsideDomain(settings.what, k);
    if (linearize) {
      condition = e == NewtonEval::Singular ? std::numeric_limits<double>::infinity() : problem.conditionEstimate();
      if (report) report->condition = condition;
      if (!(condition <= limits::kSingularPivotRatio)) return newton_detail::singular(settings.what, condition, k);
      stale = false;
    }
    dx = r;
    problem.solve(dx);
    dx = -dx;
    const double size = problem.size(dx);
    if (!std::isfinite(size)) return newton_detail::updateNotFinite(k);
    x += dx;
    lastUpdate = size;
    if (report) {
      report->lastUpdate = size;
      if (k <= NewtonReport::kLoggedUpdates) report->updates[k - 1] = size;
    }
    const double floor = settings.floorUlps * eps * (condition > 1 ? condition : 1.0);
    if (k > 1) theta = size / previous;
    if (report) report->contraction = theta;
    if (size <= tol) return StepOutcome::accepted(k);
    // What the contraction predicts for the rest: θ²·e for Newton's quadratic
    // convergence (e_{k+1} ≈ e_k³/e_{k−1}²), θ/(1 − θ)·e for a simplified Newton's
    // linear one. Accepted only when far below rounding: a stopping error near
    // rounding keeps one sign from step to step, and conserved quantities would drift.
    const double predicted = settings.fullNewton ? theta * theta * size : theta / (1 - theta) * size;
    if (k > 1 && theta < 1 && predicted <= settings.predictedUlps * eps) return StepOutcome::accepted(k);
    const bool fresh = settings.fullNewton || linearize;
    if (k > 1 && fresh && theta >= 0.5 && size <= floor) return StepOutcome::accepted(k);
    if (k > 1 && theta >= 1) {
      growing = fresh ? growing + 1 : 0;
      if (growing >= 2) return newton_detail::diverged(settings.what, size, k);
      if (!fresh) stale = true;  // a simplified-Newton Jacobian that no longer contracts: rebuild it
    } else {
      growing = 0;
      if (!settings.fullNewton && k > 1 && theta > settings.slowContraction) stale = true;
    }
    previous = size;
  }
  return newton_detail::noConvergence(settings.what, settings.maxIterations, lastUpdate);
}

// The damped iteration's vectors (it runs only where plain Newton was refused: they
// are allocated then, never on the path of a converging step).
template <class Vector>
struct NewtonDampedVectors {
  Vector r, dx, trial, bar, scratch;
};

// The damped iteration (Deuflhard's NLEQ-ERR, see the head) from x, with a fresh
// Jacobian every iteration. Norms are the problem's scaled sizes.
template <class Problem>
StepOutcome newtonDamped(Problem& problem, typename Problem::Vector& x, const NewtonSettings& settings,
                         NewtonReport* report, int spent) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const double tol = settings.toleranceUlps * eps;
  NewtonDampedVectors<typename Problem::Vector> w{x, x, x, x, x};
  double lambda = 1, previousSize = 0, barSize = 0, smallest = 1;
  for (int k = 1; k <= settings.maxIterations; ++k) {
    const int total = spent + k;
    if (report) report->dampedIterations = k;
    const NewtonEval e = problem.evaluate(x, w.r, true);
    if (e == NewtonEval::NonFinite) return newton_detail::residualNotFinite(settings.what, total);
    if (e == NewtonEval::OutsideDomain) return newton_detail::outsideDomain(settings.what, total);
    const double condition =
        e == NewtonEval::Singular ? std::numeric_limits<double>::infinity() : problem.conditionEstimate();
    if (!(condition <= limits::kSingularPivotRatio)) return newton_detail::singular(settings.what, condition, total);
    w.dx = w.r;
    problem.solve(w.dx);
    w.dx = -w.dx;
    const double size = problem.size(w.dx);
    if (!std::isfinite(size)) return newton_detail::updateNotFinite(total);
    const double floor = settings.floorUlps * eps * (condition > 1 ? condition : 1.0);
    // An update at rounding level (or within the floor the conditioning allows) ends it.
    if (size <= tol || size <= floor) {
      x += w.dx;
      if (report) report->smallestDamping = smallest;
      return StepOutcome::accepted(total);
    }
    // The damping predictor: μ = ‖Δx_{k−1}‖‖Δx̄_k‖ / (‖Δx̄_k − Δx_k‖‖Δx_k‖) · λ_{k−1}.
    if (k > 1) {
      w.scratch = w.bar - w.dx;
      const double mu = previousSize * barSize / (problem.size(w.scratch) * size) * lambda;
      lambda = mu < 1 ? mu : 1.0;
      if (!(lambda >= settings.minDamping)) lambda = settings.minDamping;
    }
    for (;;) {
      w.trial = x + lambda * w.dx;
      double next = lambda / 2;  // a trial outside the domain: halved back
      bool domain = true;
      if (problem.evaluate(w.trial, w.r, false) == NewtonEval::Ok) {
        domain = false;
        w.bar = w.r;
        problem.solve(w.bar);
        w.bar = -w.bar;
        barSize = problem.size(w.bar);
        if (barSize <= (1 - lambda / 4) * size) break;  // the restricted monotonicity test
        // The corrector: μ' = ½‖Δx_k‖λ² / ‖Δx̄_{k+1} − (1 − λ)Δx_k‖.
        w.scratch = w.bar - (1 - lambda) * w.dx;
        const double mu = 0.5 * size * lambda * lambda / problem.size(w.scratch);
        if (mu < next) next = mu;
      }
      if (!(next >= settings.minDamping)) {
        if (report) report->smallestDamping = next;
        return newton_detail::dampingExhausted(settings.what, domain, next, total);
      }
      lambda = next;
      if (lambda < smallest) smallest = lambda;
    }
    x = w.trial;
    previousSize = size;
    if (report) {
      report->iterations = total;
      report->lastUpdate = size;
    }
    // A full step whose simplified correction is at rounding level: converged.
    if (lambda == 1 && barSize <= tol) {
      x += w.bar;
      if (report) report->smallestDamping = smallest;
      return StepOutcome::accepted(total);
    }
  }
  return newton_detail::noConvergence(settings.what, spent + settings.maxIterations, 0);
}

// Whether a refusal of plain Newton is worth the damped iteration: not a Jacobian
// singular at the starting point (the damped iteration would form the same one).
inline bool newtonRetryDamped(const StepOutcome& out) {
  return !(out.refusal.code == RefusalCode::SingularMatrix && out.iterations <= 1);
}

template <class Problem>
StepOutcome solveNewton(Problem& problem, typename Problem::Vector& x, const NewtonSettings& settings,
                        NewtonWorkspace<typename Problem::Vector>& workspace, NewtonReport* report = nullptr) {
  using Vector = typename Problem::Vector;
  if constexpr (NewtonFixedSize<Vector>::value) {
    // Fixed-size unknowns, residual and update live in locals: no other reference can
    // alias them, so the compiler keeps them in registers across the iterations instead
    // of storing and reloading them (the same arithmetic, the same bits).
    Vector xl = x, r, dx;
    StepOutcome out = newtonIterate(problem, xl, r, dx, settings, report);  // not const: returned without a copy
    if (out.ok || !settings.globalize) {
      x = xl;
      return out;
    }
    if (!newtonRetryDamped(out)) return out;
    return newtonDamped(problem, x, settings, report, out.iterations);  // x: the starting point
  } else {
    if (!settings.globalize) return newtonIterate(problem, x, workspace.r, workspace.dx, settings, report);
    const Vector start = x;
    StepOutcome out = newtonIterate(problem, x, workspace.r, workspace.dx, settings, report);
    if (out.ok) return out;
    x = start;
    if (!newtonRetryDamped(out)) return out;
    return newtonDamped(problem, x, settings, report, out.iterations);
  }
}

template <class Problem>
StepOutcome solveNewton(Problem& problem, typename Problem::Vector& x, const NewtonSettings& settings = {},
                        NewtonReport* report = nullptr) {
  NewtonWorkspace<typename Problem::Vector> workspace;
  return solveNewton(problem, x, settings, workspace, report);
}

}  // namespace vilab
