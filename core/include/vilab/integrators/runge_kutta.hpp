// The baselines: explicit Runge–Kutta methods on y' = f(y) (vilab/integrators/odes.hpp),
// each followed by the projection onto the model's manifold (Hairer–Lubich–Wanner
// §IV.4). Set up to do their best, they are still neither symplectic nor symmetric:
// projection keeps the constraints, not the energy.
//  - ExplicitRungeKutta: explicit Euler and classical RK4, one step of size h;
//  - DormandPrince: adaptive DOPRI5 (ode45, RK45) taking as many substeps as it needs
//    to land exactly on t + h.
// Only +, −, ×, ÷, sqrt and vilab::dm functions: native and wasm give the same bits.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "vilab/detmath.hpp"
#include "vilab/integrators/integrator.hpp"
#include "vilab/integrators/odes.hpp"
#include "vilab/limits.hpp"
#include "vilab/models/model.hpp"

namespace vilab {

enum class RungeKuttaMethod { Euler, RK4 };

// y from the canonical state and back: y = [q; p] unless the ODE says otherwise
// (fromState/toState, e.g. [q; q̇] for systems defined by data).
template <class Ode, class = void>
struct HasStateMap : std::false_type {};
template <class Ode>
struct HasStateMap<
    Ode, std::void_t<decltype(std::declval<Ode&>().fromState(std::declval<const State&>(), std::declval<VecX&>()))>>
    : std::true_type {};

// An ODE may offer bool rhsJacobian(const VecX& y, Eigen::MatrixXd& A): A = ∂f/∂y.
template <class Ode, class = void>
struct HasRhsJacobian : std::false_type {};
template <class Ode>
struct HasRhsJacobian<Ode, std::void_t<decltype(std::declval<Ode&>().rhsJacobian(
                               std::declval<const VecX&>(), std::declval<Eigen::MatrixXd&>()))>> : std::true_type {};

template <class Ode>
void odeLoad(Ode& ode, const State& s, VecX& y) {
  if constexpr (HasStateMap<Ode>::value) {
    if (!ode.fromState(s, y)) y.setConstant(std::numeric_limits<double>::quiet_NaN());
  } else {
    y << s.q, s.p;
  }
}
template <class Ode>
void odeStore(Ode& ode, const VecX& y, State& s) {
  if constexpr (HasStateMap<Ode>::value) {
    ode.toState(y, s);
  } else {
    const int nq = ode.positions();
    s.q = y.head(nq);
    s.p = y.tail(y.size() - nq);
  }
}

// The clock of a non-autonomous ODE that keeps t in y (LagrangianOde when L or the
// forces depend on t): set to the simulation's t_k before every step. True when that
// changed y.
template <class Ode, class = void>
struct HasClock : std::false_type {};
template <class Ode>
struct HasClock<Ode, std::void_t<decltype(std::declval<const Ode&>().setClock(std::declval<VecX&>(), 0.0))>>
    : std::true_type {};
template <class Ode>
bool odeSetClock(const Ode& ode, VecX& y, double t) {
  if constexpr (HasClock<Ode>::value) {
    return ode.setClock(y, t);
  } else {
    (void)ode, (void)y, (void)t;
    return false;
  }
}

template <class Ode>
class ExplicitRungeKutta final : public Integrator {
 public:
  ExplicitRungeKutta(Ode ode, RungeKuttaMethod method, double h) : ode_(std::move(ode)), method_(method), h_(h) {
    const int n = ode_.size();
    y_.resize(n);
    y1_.resize(n);
    k1_.resize(n);
    k2_.resize(n);
    k3_.resize(n);
    k4_.resize(n);
  }

  void load(const State& s) override { odeLoad(ode_, s, y_); }
  void store(State& s) const override { odeStore(ode_, y_, s); }
  void setTime(double t) override { odeSetClock(ode_, y_, t); }

  // The stages differentiated (forward mode, one tangent per column): with A = ∂f/∂y,
  //     K1 = A(y_k),  K2 = A(y_k + h/2 k1)(I + h/2 K1),  K3 = A(y_k + h/2 k2)(I + h/2 K2),
  //     K4 = A(y_k + h k3)(I + h K3),  ∂y_{k+1}/∂y_k = I + h/6 (K1 + 2K2 + 2K3 + K4)
  // (Euler: I + h K1), for ODEs in the canonical state that offer A and need no projection.
  bool linearize(Eigen::MatrixXd& jacobian, std::string& why) override {
    if constexpr (HasRhsJacobian<Ode>::value && !Ode::kProjects && !HasStateMap<Ode>::value) {
      const double h = h_;
      const int n = ode_.size();
      const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(n, n);
      Eigen::MatrixXd K1, K2, K3, K4;
      VecX k(n), y(n);
      if (!ode_.rhsJacobian(y_, K1) || !ode_.rhs(y_, k)) return undefinedJacobian(why);
      if (method_ == RungeKuttaMethod::Euler) {
        jacobian = I + h * K1;
        return true;
      }
      y = y_ + (0.5 * h) * k;
      if (!ode_.rhsJacobian(y, K2) || !ode_.rhs(y, k)) return undefinedJacobian(why);
      K2 = K2 * (I + (0.5 * h) * K1);
      y = y_ + (0.5 * h) * k;
      if (!ode_.rhsJacobian(y, K3) || !ode_.rhs(y, k)) return undefinedJacobian(why);
      K3 = K3 * (I + (0.5 * h) * K2);
      y = y_ + h * k;
      if (!ode_.rhsJacobian(y, K4)) return undefinedJacobian(why);
      K4 = K4 * (I + h * K3);
      jacobian = I + (h / 6.0) * (K1 + 2.0 * K2 + 2.0 * K3 + K4);
      return jacobian.allFinite() || undefinedJacobian(why);
    } else {
      return Integrator::linearize(jacobian, why);
    }
  }

  StepOutcome step() override {
    const double h = h_;
    if (!ode_.rhs(y_, k1_)) return undefined(1);
    if (method_ == RungeKuttaMethod::Euler) {
      // y_{k+1} = y_k + h f(y_k)
      y1_ = y_ + h * k1_;
    } else {
      // k2 = f(y + h/2 k1), k3 = f(y + h/2 k2), k4 = f(y + h k3),
      // y_{k+1} = y_k + h/6 (k1 + 2 k2 + 2 k3 + k4)
      y1_ = y_ + (0.5 * h) * k1_;
      if (!ode_.rhs(y1_, k2_)) return undefined(2);
      y1_ = y_ + (0.5 * h) * k2_;
      if (!ode_.rhs(y1_, k3_)) return undefined(3);
      y1_ = y_ + h * k3_;
      if (!ode_.rhs(y1_, k4_)) return undefined(4);
      y1_ = y_ + (h / 6.0) * (k1_ + 2.0 * k2_ + 2.0 * k3_ + k4_);
    }
    // Back onto the manifold: positions, then momenta (or |q| = 1).
    const StepOutcome out = ode_.project(y1_);
    if (!out.ok) return out;
    if (!y1_.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH());
    y_.swap(y1_);
    return out;  // the projection's Newton iterations (0 without one)
  }

 private:
  static bool undefinedJacobian(std::string& why) {
    why = "the equations of motion or their derivatives are not finite here";
    return false;
  }
  StepOutcome undefined(int stage) const {
    return StepOutcome::refuse(RefusalCode::NonFinite,
                               std::string(ode_.undefined()) + " at stage " + std::to_string(stage) + " of the step",
                               Suggestion::reduceH());
  }

  mutable Ode ode_;  // toState evaluates (scratch space only)
  RungeKuttaMethod method_;
  double h_;
  VecX y_, y1_, k1_, k2_, k3_, k4_;
};

// Dormand–Prince 5(4) (Dormand & Prince 1980; Hairer–Nørsett–Wanner §II.5, Table 5.2):
// seven stages, the last one at the new point (FSAL: first same as last), a fifth-order
// solution and an embedded fourth-order one whose difference estimates the local error.
// Step-size control (Hairer–Nørsett–Wanner §II.4):
//     err = sqrt( (1/n) Σ_i (ê_i / sc_i)² ),   sc_i = atol + rtol · max(|y_i|, |y1_i|),
// accepted when err ≤ 1; the next substep is
//     h_new = h · min(facmax, max(facmin, 0.9 · err^(−1/5))),  facmin = 0.2, facmax = 10,
// with facmax = 1 right after a rejection. The simulation advances by a fixed h:
// inside one step the substeps end exactly at t + h (the last one shortened), and
// the proposed substep size carries over to the next step.
template <class Ode>
class DormandPrince final : public Integrator {
 public:
  DormandPrince(Ode ode, double h, double tol) : ode_(std::move(ode)), h_(h), atol_(tol), rtol_(tol) {
    const int n = ode_.size();
    y_.resize(n);
    y1_.resize(n);
    stage_.resize(n);
    err_.resize(n);
    for (auto& k : k_) k.resize(n);
  }

  void load(const State& s) override {
    odeLoad(ode_, s, y_);
    proposal_ = 0;  // choose a starting substep afresh
    firstStageValid_ = false;
  }
  void store(State& s) const override { odeStore(ode_, y_, s); }
  // The clock moved: the stored first stage f(y_) was at the old one.
  void setTime(double t) override {
    if (odeSetClock(ode_, y_, t)) firstStageValid_ = false;
  }

  // Substeps rejected since construction (accepted ones: StepOutcome::iterations).
  std::uint64_t rejectedSubsteps() const { return rejected_; }
  double proposedSubstep() const { return proposal_; }

  StepOutcome step() override {
    // Work on copies: a refused step leaves y_, k1 and the proposal as they were.
    y0_ = y_;
    k1Work_ = k_[0];
    bool firstStage = firstStageValid_;
    double proposal = proposal_;
    if (!firstStage) {
      if (!ode_.rhs(y0_, k1Work_)) return refuseUndefined();
      firstStage = true;
    }
    if (!(proposal > 0)) proposal = startingSubstep();
    if (!(proposal > 0)) return refuseUndefined();

    double tau = 0;  // time into the step
    int accepted = 0, attempts = 0;
    bool afterRejection = false;
    std::uint64_t rejected = 0;
    while (true) {
      const double remaining = h_ - tau;
      // Stretch by up to 1% rather than leave a sliver (as in Hairer's DOPRI5 code).
      const bool last = 1.01 * proposal >= remaining;
      const double hs = last ? remaining : proposal;
      if (!(hs > kMinSubstepFraction * h_))
        return StepOutcome::refuse(
            RefusalCode::NoConvergence,
            "the adaptive substep size fell to " + scientific(hs) + " s without meeting the tolerance",
            Suggestion::loosenTolerance("loosen the tolerance (options.tol) or reduce h"), accepted);
      if (++attempts > limits::kMaxSubstepsPerStep)
        return StepOutcome::refuse(
            RefusalCode::NoConvergence,
            "one step of " + formatNumber(h_) + " s needed more than " + std::to_string(limits::kMaxSubstepsPerStep) +
                " adaptive substeps (the last of " + scientific(hs) + " s)",
            Suggestion::loosenTolerance("loosen the tolerance (options.tol) or reduce h"), accepted);
      double err = std::numeric_limits<double>::infinity();
      bool fine = trySubstep(hs, err);
      if (fine && err <= 1.0) {
        // Accepted: onto the manifold, and the next substep's first stage.
        // FSAL: k7 = f(y1) is the next first stage, unless the projection moved y1;
        // then f is evaluated again at the projected point (into k7's slot, so that a
        // failure leaves f(y0) in place for the retry).
        fine = ode_.project(y1_).ok && (!Ode::kProjects || ode_.rhs(y1_, k_[6]));
        if (fine) {
          k1Work_.swap(k_[6]);
          ++accepted;
          const double grow = afterRejection ? 1.0 : kFacMax;
          const double next = hs * std::min(grow, std::max(kFacMin, kSafety * errorFactor(err)));
          // A shortened last substep says little about the proposal it was cut from
          // (its growth is capped at 10 hs): keep that proposal, unless the error
          // asks for less than the shortened substep itself.
          proposal = last && hs < proposal && next >= hs ? std::max(next, proposal) : next;
          afterRejection = false;
          y0_.swap(y1_);
          if (last) break;
          tau += hs;
          continue;
        }
        // A projection (or new first stage) that fails counts as a rejection below.
      }
      // Rejected (or a stage undefined): shrink and retry from the same point.
      ++rejected;
      afterRejection = true;
      proposal = hs * (fine ? std::min(1.0, std::max(kFacMin, kSafety * errorFactor(err))) : kFacMin);
    }
    if (!y0_.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                                 accepted);
    y_.swap(y0_);
    k_[0].swap(k1Work_);
    firstStageValid_ = firstStage;
    proposal_ = proposal;
    rejected_ += rejected;
    return StepOutcome::accepted(accepted);
  }

 private:
  // The controller's bounds (Hairer–Nørsett–Wanner §II.4; also scipy's RK45).
  static constexpr double kSafety = 0.9, kFacMin = 0.2, kFacMax = 10.0;
  // A substep shorter than this fraction of h cannot advance the local clock reliably.
  static constexpr double kMinSubstepFraction = 64 * std::numeric_limits<double>::epsilon();

  // x^(1/5) for x > 0 with +, −, ×, ÷ and exact scaling only, so the controller gives
  // the same bits natively and in wasm: x = m·2^(5a+r), m ∈ [0.5, 1), and Newton's
  // iteration y ← (4y + x'/y⁴)/5 on x' = m·2^r ∈ [1/32, 16) from y = 1, which converges
  // to full precision in a fixed number of iterations (the controller needs far less).
  static double fifthRoot(double x) {
    int e = 0;
    const double m = std::frexp(x, &e);
    int a = e / 5, r = e % 5;
    if (r < 0) {
      r += 5;
      a -= 1;
    }
    const double xr = std::ldexp(m, r);
    double y = 1.0;
    for (int i = 0; i < 12; ++i) {
      const double y2 = y * y;
      y = (4.0 * y + xr / (y2 * y2)) / 5.0;
    }
    return std::ldexp(y, a);
  }

  // err^(−1/5) (order of the embedded solution + 1 = 5).
  static double errorFactor(double err) {
    if (!(err > 0)) return std::numeric_limits<double>::infinity();
    return 1.0 / fifthRoot(err);
  }

  // The weighted RMS norm of v with scales atol + rtol·|y0_i|.
  double startNorm(const VecX& v) const {
    double sum = 0;
    for (Eigen::Index i = 0; i < v.size(); ++i) {
      const double r = v[i] / (atol_ + rtol_ * std::abs(y0_[i]));
      sum += r * r;
    }
    return dm::sqrt(sum / static_cast<double>(v.size()));
  }

  // Hairer–Nørsett–Wanner §II.4, "Starting step size": h0 from the sizes of y and f,
  // one explicit Euler step to estimate f', then h1 with err(h1) ≈ 0.01 for order 5.
  // Needs k1Work_ = f(y0_). Returns 0 when f is undefined at the trial point.
  double startingSubstep() {
    const double d0 = startNorm(y0_), d1 = startNorm(k1Work_);
    const double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * (d0 / d1);
    stage_ = y0_ + h0 * k1Work_;
    if (!ode_.rhs(stage_, k_[1])) return 0;
    err_ = k_[1] - k1Work_;
    const double d2 = startNorm(err_) / h0;
    const double d = std::max(d1, d2);
    const double h1 = d <= 1e-15 ? std::max(1e-6, h0 * 1e-3) : fifthRoot(0.01 / d);
    return std::min(100 * h0, h1);
  }

  // One DOPRI5 substep of size hs from y0_ (k1Work_ = f(y0_)): y1_ and err (≤ 1 to
  // accept). False when a stage is undefined.
  bool trySubstep(double hs, double& err) {
    // Butcher tableau (Dormand & Prince; Hairer–Nørsett–Wanner Table II.5.2):
    //   c = 0, 1/5, 3/10, 4/5, 8/9, 1, 1; the 7th row of A is b (FSAL).
    constexpr double a21 = 1.0 / 5;
    constexpr double a31 = 3.0 / 40, a32 = 9.0 / 40;
    constexpr double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
    constexpr double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561, a54 = -212.0 / 729;
    constexpr double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176,
                     a65 = -5103.0 / 18656;
    constexpr double b1 = 35.0 / 384, b3 = 500.0 / 1113, b4 = 125.0 / 192, b5 = -2187.0 / 6784, b6 = 11.0 / 84;
    // e = b − b̂ (b̂ the fourth-order weights 5179/57600, 0, 7571/16695, 393/640,
    // −92097/339200, 187/2100, 1/40).
    constexpr double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200, e6 = 22.0 / 525,
                     e7 = -1.0 / 40;
    const VecX& k1 = k1Work_;
    VecX &k2 = k_[1], &k3 = k_[2], &k4 = k_[3], &k5 = k_[4], &k6 = k_[5], &k7 = k_[6];
    stage_ = y0_ + hs * (a21 * k1);
    if (!ode_.rhs(stage_, k2)) return false;
    stage_ = y0_ + hs * (a31 * k1 + a32 * k2);
    if (!ode_.rhs(stage_, k3)) return false;
    stage_ = y0_ + hs * (a41 * k1 + a42 * k2 + a43 * k3);
    if (!ode_.rhs(stage_, k4)) return false;
    stage_ = y0_ + hs * (a51 * k1 + a52 * k2 + a53 * k3 + a54 * k4);
    if (!ode_.rhs(stage_, k5)) return false;
    stage_ = y0_ + hs * (a61 * k1 + a62 * k2 + a63 * k3 + a64 * k4 + a65 * k5);
    if (!ode_.rhs(stage_, k6)) return false;
    // The fifth-order solution, and k7 = f(y1) for the error estimate (and FSAL).
    y1_ = y0_ + hs * (b1 * k1 + b3 * k3 + b4 * k4 + b5 * k5 + b6 * k6);
    if (!ode_.rhs(y1_, k7)) return false;
    // ê = y1 − ŷ1 = h Σ e_j k_j, measured against the mixed tolerance.
    err_ = hs * (e1 * k1 + e3 * k3 + e4 * k4 + e5 * k5 + e6 * k6 + e7 * k7);
    double sum = 0;
    for (Eigen::Index i = 0; i < err_.size(); ++i) {
      const double sc = atol_ + rtol_ * std::max(std::abs(y0_[i]), std::abs(y1_[i]));
      const double r = err_[i] / sc;
      sum += r * r;
    }
    err = dm::sqrt(sum / static_cast<double>(err_.size()));
    return std::isfinite(err);
  }

  StepOutcome refuseUndefined() const {
    return StepOutcome::refuse(RefusalCode::NonFinite, std::string(ode_.undefined()) + " at the start of the step",
                               Suggestion::reduceH());
  }

  mutable Ode ode_;  // toState evaluates (scratch space only)
  double h_, atol_, rtol_;
  VecX y_;                      // the state at the last good step
  VecX y0_, y1_, stage_, err_;  // work: the substep's start and end, a stage point, ê
  VecX k_[7];                   // stages; k_[0] = f(y_) when firstStageValid_
  VecX k1Work_;                 // f(y0_)
  bool firstStageValid_ = false;
  double proposal_ = 0;  // the proposed substep size (0: choose afresh)
  std::uint64_t rejected_ = 0;
};

// The factory of a registry entry: the model's ODE, stepped by `method`.
template <class Ode, class ModelT>
std::unique_ptr<Integrator> makeExplicitRungeKutta(const Model& model, RungeKuttaMethod method, double h) {
  return std::make_unique<ExplicitRungeKutta<Ode>>(Ode(std::get<ModelT>(model)), method, h);
}

}  // namespace vilab
