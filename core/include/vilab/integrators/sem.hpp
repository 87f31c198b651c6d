// The symplectic–energy–momentum integrator with variable time steps (Kane, Marsden &
// Ortiz 1999; M–W §4.9, time-dependent discrete mechanics). The step size h_k is an
// unknown of every step, chosen so that the discrete energy is conserved exactly.
//
// With the midpoint discrete Lagrangian L_d(q_k, q_{k+1}, h) = h L(q̄, v̄),
// q̄ = (q_k + q_{k+1})/2, v̄ = (q_{k+1} − q_k)/h, the discrete energy is
//     E_d(q_k, q_{k+1}, h) = −∂L_d/∂h = v̄·∂L/∂q̇(q̄, v̄) − L(q̄, v̄)        (M–W eq. 4.9.4)
// (for L = ½ q̇ᵀMq̇ − V: ½ v̄ᵀMv̄ + V(q̄)). Stationarity of the action in the extended
// space (q, t) gives the DEL with multipliers and the discrete energy equation: a step
// solves for (q_{k+1}, λ_k, h_k)
//     p_k + D1 L_d(q_k, q_{k+1}, h_k) + Dg(q_k)ᵀ λ_k = 0,   g(q_{k+1}) = 0,
//     E_d(q_k, q_{k+1}, h_k) = E,
// then p_{k+1} = D2 L_d (impulse form, projected onto tangent momenta, as the fixed-step
// midpoint stores it). The solve is nested: for a trial h the midpoint DEL at fixed h
// (the existing steppers) gives q_{k+1}(h), and an outer secant iteration on the scalar
// f(h) = E_d(q_k, q_{k+1}(h), h) − E converges h_k to rounding.
//
// The energy level E is fixed at load: E = E_d of the midpoint step of the nominal h
// from the loaded state (so the first step is exactly the fixed-step midpoint step).
// The loaded state's own energy H(q_0, p_0) would not do: for the oscillator
// E_d = H(z̄) = H(z_k) − H((z_{k+1} − z_k)/2) < H(z_k) for every h > 0, so the energy
// equation E_d = H(z_0) has no root but h = 0; generally H − E_d = O(h²) > 0.
//
// Steps are positive and bounded: a root is accepted only in (0, kMaxStepRatio·h]; when
// there is none (the energy equation has no root there, or the DEL no solution) the
// step is refused with the state unchanged rather than taking a wild step.
//
// Symplectic in the KMO sense: the map (q_k, t_k, p_k, −E) is symplectic for the
// extended form dq∧dp + dt∧d(−E); at a fixed level E the map (q, p) ↦ (q', p') has the
// generating function L_d(q, q', h) + E h with h(q, q') from E_d = E, so it preserves
// dq∧dp. The Simulation's map z ↦ f_{E(z)}(z), whose level is set from the loaded
// state, is not canonically symplectic: its defect is dτ∧dE (τ the elapsed time).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "vilab/discrete_lagrangian.hpp"
#include "vilab/integrators/chain_multiplier.hpp"
#include "vilab/integrators/integrator.hpp"
#include "vilab/integrators/lagrangian_del.hpp"
#include "vilab/models/chain.hpp"
#include "vilab/models/lagrangian.hpp"
#include "vilab/models/oscillator.hpp"
#include "vilab/outcome.hpp"

namespace vilab {

namespace sem {
// The largest step, relative to the nominal h: roots beyond it are not taken.
constexpr double kMaxStepRatio = 4;
// A step is accepted when |E_d − E| is at most this, relative to the energy's size.
constexpr double kEnergyTolerance = 1e-13;
// Secant iterations before the bracketing search, and iterations of the latter.
constexpr int kSecantIterations = 12;
constexpr int kBracketIterations = 200;
// The bracketing search samples kMaxStepRatio·h·2^{−j}, j = 0 … kLadderDepth.
constexpr int kLadderDepth = 12;
// A scenario's first steps, run at load: a level they cannot hold is refused there
// (Kane, Marsden & Ortiz's solvability limit; measured in tests/native/test_sem.cpp).
constexpr int kProbeSteps = 2000;
}  // namespace sem

// ---- the midpoint DEL at a given h and its discrete energy, per model -------------

// The oscillator, L = ½ m v² − ½ k x²: the DEL is linear in δ,
//     p_k = m δ/h + (h k/2)(q_k + δ/2),   p_{k+1} = p_k − h k q̄.
struct OscillatorMidpointStep {
  OscillatorModel model;
  StepOutcome solve(const VecX& q, const VecX& p, double h, VecX& q1, VecX& p1) {
    const double m = model.mass, k = model.stiffness;
    const double delta = (p[0] - 0.5 * h * k * q[0]) / (m / h + 0.25 * h * k);
    q1 = q;
    p1 = p;
    q1[0] = q[0] + delta;
    p1[0] = p[0] - h * k * (q[0] + 0.5 * delta);
    return {};
  }
  // E_d = ½ m v̄² + ½ k q̄² and its kinetic part.
  double energy(const VecX& q, const VecX& q1, double h, double* kinetic = nullptr) {
    const double v = (q1[0] - q[0]) / h, x = 0.5 * (q[0] + q1[0]);
    const double T = 0.5 * model.mass * v * v;
    if (kinetic) *kinetic = T;
    return T + 0.5 * model.stiffness * x * x;
  }
};

// A chain: the O(N) multiplier DEL (ChainMultiplierIntegrator) at each trial h.
struct ChainMidpointStep {
  explicit ChainMidpointStep(ChainModel m) : model(std::move(m)) {}
  ChainModel model;
  StepOutcome solve(const VecX& q, const VecX& p, double h, VecX& q1, VecX& p1) {
    ChainMultiplierIntegrator stepper(model, DiscreteRule::midpoint(), h);
    q1 = q;
    p1 = p;
    return stepper.step(q1, p1);
  }
  // E_d = ½ Σ m_i |v̄_i|² + V(q̄) (uniform gravity: V is linear).
  double energy(const VecX& q, const VecX& q1, double h, double* kinetic = nullptr) {
    const int n = model.bobs();
    double T = 0;
    mid_.resize(q.size());
    for (int i = 0; i < n; ++i) {
      double v2 = 0;
      for (int c = 0; c < 3; ++c) {
        const double d = q1[3 * i + c] - q[3 * i + c];
        v2 += (d / h) * (d / h);
        mid_[3 * i + c] = q[3 * i + c] + 0.5 * d;
      }
      T += 0.5 * model.masses[i] * v2;
    }
    if (kinetic) *kinetic = T;
    return T + model.potential(mid_.data());
  }

 private:
  VecX mid_;
};

// A system defined by data: the DEL with multipliers on the compiled derivatives
// (LagrangianDel) at each trial h; E_d = v̄·L_q̇ − L at (q̄, v̄).
struct LagrangianMidpointStep {
  explicit LagrangianMidpointStep(std::shared_ptr<const LagrangianProblem> p)
      : eval(p), stepper(std::move(p), DiscreteRule::midpoint(), 0) {}
  LagrangianEval eval;
  // One stepper restarted at each trial's h: the bits of a new one, without building an
  // evaluator (several KB of workspace) per trial.
  LagrangianDel stepper;
  StepOutcome solve(const VecX& q, const VecX& p, double h, VecX& q1, VecX& p1) {
    stepper.restart(h);
    q1 = q;
    p1 = p;
    return stepper.step(q1, p1);
  }
  double energy(const VecX& q, const VecX& q1, double h, double* kinetic = nullptr) {
    const int n = eval.n();
    mid_.resize(n);
    v_.resize(n);
    for (int i = 0; i < n; ++i) {
      const double d = q1[i] - q[i];
      mid_[i] = q[i] + 0.5 * d;
      v_[i] = d / h;
    }
    const double L = eval.energyTerms(mid_.data(), v_.data(), Lv_, Lvv_);
    if (kinetic) *kinetic = eval.kinetic(mid_.data(), v_.data());
    return v_.dot(Lv_) - L;
  }

 private:
  SmallVec mid_, v_, Lv_;
  SmallMat Lvv_;
};

// ---- the integrator -----------------------------------------------------------------

template <class FixedStep>
class SymplecticEnergyMomentum final : public Integrator {
 public:
  SymplecticEnergyMomentum(FixedStep fixed, double h)
      : fixed_(std::move(fixed)), nominal_(h), maxStep_(sem::kMaxStepRatio * h) {}

  // The level is E_d of the nominal midpoint step from s (see the header comment).
  void load(const State& s) override {
    s_ = s;
    guess_ = nominal_;
    slope_ = 0;
    lastStep_ = 0;
    levelRefusal_ = Refusal{};
    level_ = 0;
    const Trial t = evaluate(nominal_);
    if (!t.ok) {
      level_ = std::numeric_limits<double>::quiet_NaN();
      levelRefusal_ = t.refusal;
      levelRefusal_.reason =
          "the midpoint step of the nominal h, which sets the energy level, has no solution (" + t.refusal.reason + ")";
      return;
    }
    level_ = t.residual;
    scale_ = std::abs(level_) + std::abs(t.kinetic);
    if (!(scale_ > 0)) scale_ = 1;
  }

  // KMO's solvability limit: a step size that keeps E_d = E need not exist, and along
  // many motions (Kepler's perihelion, a charged particle on a sphere) it ceases to
  // within a few hundred steps. A copy runs the first kProbeSteps; a refusal there
  // refuses the scenario, naming the step, instead of a run that stops moments later.
  void checkStart(const State& s) override {
    SymplecticEnergyMomentum probe(*this);
    probe.load(s);
    double t = 0;
    for (int k = 1; k <= sem::kProbeSteps; ++k) {
      const StepOutcome out = probe.step();
      if (!out.ok)
        throw InputError(InputErrorCode::NotApplicable, "integrator",
                         "sem cannot hold this motion's energy level: at step " + std::to_string(k) +
                             " (t = " + formatNumber(t) + " s) " + out.refusal.reason +
                             " (Kane, Marsden & Ortiz's solvability limit; use energy-momentum, which keeps the "
                             "energy at a fixed h, or midpoint)");
      t += probe.lastStep();
    }
  }

  // Starts from s on a given energy level (tests: reversibility and symplecticity of
  // the map at a fixed level).
  void loadOnLevel(const State& s, double level) {
    load(s);
    level_ = level;
    levelRefusal_ = Refusal{};
  }

  StepOutcome step() override {
    if (!std::isfinite(level_))
      return StepOutcome::refuse(levelRefusal_.code, levelRefusal_.reason,
                                 {levelRefusal_.action, levelRefusal_.suggestion});
    best_ = Trial{};
    iterations_ = 0;
    trials_ = 0;

    // Stage 1: secant on f(h) = E_d(q_k, q_{k+1}(h), h) − E from the previous step
    // size (the nominal one after a load), the second point by the previous slope.
    Trial a = evaluate(guess_);
    bool converged = a.ok && std::abs(a.residual) <= kRoundingUlps * kEps * scale_;
    if (a.ok && !converged) {
      double h1 = slope_ != 0 ? a.h - a.residual / slope_ : a.h * (1 + 1e-3);
      if (!(h1 > 0 && h1 <= maxStep_)) h1 = a.h * (1 - 1e-3);
      Trial b = evaluate(h1);
      for (int k = 0; b.ok && k < sem::kSecantIterations; ++k) {
        if (std::abs(b.residual) <= kRoundingUlps * kEps * scale_) {
          converged = true;
          break;
        }
        if (b.residual == a.residual) {
          converged = withinTolerance();
          break;
        }
        const double hn = b.h - b.residual * (b.h - a.h) / (b.residual - a.residual);
        if (!(hn > 0 && hn <= maxStep_)) break;
        slope_ = (b.residual - a.residual) / (b.h - a.h);
        if (std::abs(hn - b.h) <= 4 * kEps * b.h) {
          converged = withinTolerance();
          break;
        }
        a = b;
        b = evaluate(hn);
      }
    }
    // Stage 2: when the secant leaves (0, h_max] or fails, a bracketing search.
    if (!converged && !withinTolerance() && !bracketedRoot())
      return StepOutcome::refuse(
          RefusalCode::NoConvergence, "no step size conserves the energy here",
          Suggestion::reduceH("reduce h (a smaller nominal step sets a level the steps can keep)"), iterations_);
    if (!withinTolerance())
      return StepOutcome::refuse(RefusalCode::NoConvergence,
                                 "the energy equation of the step size did not converge to rounding",
                                 Suggestion::reduceH(), iterations_);
    // Stage 3: the new state of the best trial, h_k the next guess.
    s_.q.swap(bestQ_);
    s_.p.swap(bestP_);
    lastStep_ = best_.h;
    guess_ = best_.h;
    StepOutcome out;
    out.iterations = iterations_;
    return out;
  }

  void store(State& s) const override { s = s_; }
  double lastStep() const override { return lastStep_; }

  double energyLevel() const { return level_; }
  double nominalStep() const { return nominal_; }
  double maxStep() const { return maxStep_; }
  // Trial step sizes (inner DEL solves) of the last step.
  int lastTrials() const { return trials_; }
  // E_d(q_k, q_{k+1}, h) of this model.
  double discreteEnergy(const VecX& q0, const VecX& q1, double h) { return fixed_.energy(q0, q1, h); }

 private:
  static constexpr double kEps = std::numeric_limits<double>::epsilon();
  // The secant stops at |E_d − E| ≤ kRoundingUlps·ε·(|E| + T): the rounding of E_d,
  // whose v̄ = (q_{k+1} − q_k)/h carries the ε|q| of the positions magnified by |q|/|δ|.
  static constexpr double kRoundingUlps = 64;

  struct Trial {
    bool ok = false;
    double h = 0, residual = std::numeric_limits<double>::infinity(), kinetic = 0;
    Refusal refusal;
  };

  // The midpoint DEL at h from s_, and f(h) = E_d − E; the best trial's state is kept.
  Trial evaluate(double h) {
    Trial t;
    t.h = h;
    ++trials_;
    const StepOutcome o = fixed_.solve(s_.q, s_.p, h, trialQ_, trialP_);
    iterations_ += o.iterations;
    if (!o.ok) {
      t.refusal = o.refusal;
      return t;
    }
    t.residual = fixed_.energy(s_.q, trialQ_, h, &t.kinetic) - level_;
    t.ok = std::isfinite(t.residual) && trialQ_.allFinite() && trialP_.allFinite();
    if (t.ok && std::abs(t.residual) < std::abs(best_.residual)) {
      best_ = t;
      bestQ_ = trialQ_;
      bestP_ = trialP_;
    }
    return t;
  }

  bool withinTolerance() const { return best_.ok && std::abs(best_.residual) <= sem::kEnergyTolerance * scale_; }

  // Samples f on h_max·2^{−j} and the guess, takes the sign change nearest the guess
  // and closes it by the Illinois variant of regula falsi. False: no sign change.
  bool bracketedRoot() {
    std::vector<Trial> ladder;
    for (int j = sem::kLadderDepth; j >= 0; --j) {
      const double h = maxStep_ * std::ldexp(1.0, -j);
      if (guess_ < h && (ladder.empty() || ladder.back().h < guess_)) ladder.push_back(evaluate(guess_));
      ladder.push_back(evaluate(h));
    }
    int chosen = -1;
    double distance = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i + 1 < ladder.size(); ++i) {
      const Trial &l = ladder[i], &r = ladder[i + 1];
      if (!l.ok || !r.ok || (l.residual > 0) == (r.residual > 0)) continue;
      const double mid = 0.5 * (l.h + r.h), d = std::max(mid / guess_, guess_ / mid);
      if (d < distance) {
        distance = d;
        chosen = static_cast<int>(i);
      }
    }
    if (chosen < 0) return false;
    Trial l = ladder[static_cast<std::size_t>(chosen)], r = ladder[static_cast<std::size_t>(chosen) + 1];
    if (l.residual == 0 || r.residual == 0) return true;
    int side = 0;  // which end was kept last (Illinois: halve its residual when kept twice)
    for (int k = 0; k < sem::kBracketIterations && !withinTolerance(); ++k) {
      double h = r.h - r.residual * (r.h - l.h) / (r.residual - l.residual);
      if (!(h > l.h && h < r.h)) h = 0.5 * (l.h + r.h);
      if (r.h - l.h <= 4 * kEps * r.h) break;
      const Trial t = evaluate(h);
      if (!t.ok) return false;
      if ((t.residual > 0) == (l.residual > 0)) {
        l = t;
        if (side == -1) r.residual *= 0.5;
        side = -1;
      } else {
        r = t;
        if (side == 1) l.residual *= 0.5;
        side = 1;
      }
    }
    slope_ = (r.residual - l.residual) / (r.h - l.h);
    return true;
  }

  FixedStep fixed_;
  double nominal_, maxStep_;
  State s_;
  double level_ = 0, scale_ = 1;
  Refusal levelRefusal_;
  double guess_ = 0, slope_ = 0, lastStep_ = 0;
  int iterations_ = 0, trials_ = 0;
  Trial best_;
  VecX trialQ_, trialP_, bestQ_, bestP_;
};

}  // namespace vilab
