// The variational integrator of a generic constrained Lagrangian system: the
// discrete Euler–Lagrange equations with Lagrange multipliers (W–M §4), solved by
// Newton with the Jacobian from nested forward-mode AD.
//
// Position–momentum form (W–M eqs. 4.4–4.5): given (q_k, p_k) with g(q_k) = 0,
// solve for (q_{k+1}, λ_k)
//     p_k + D1 L_d(q_k, q_{k+1}) + Dg(q_k)ᵀ λ_k = 0        (4.4, with p_k = D2 L_d(q_{k-1}, q_k))
//     g(q_{k+1}) = 0                                       (4.5)
// then p_{k+1} = D2 L_d(q_k, q_{k+1}) (discrete Legendre transform).
//
// Forcing (discrete Lagrange–d'Alembert, M–W §3.2), for a system that offers a force
// F(q, q̇) outside L: the virtual work of F over the step is split into f_d^−, f_d^+,
//     p_k + D1 L_d(q_k, q_{k+1}) + f_d^− + Dg(q_k)ᵀλ_k = 0,   p_{k+1} = D2 L_d + f_d^+,
// with F sampled where L_d samples L (v̄ = (q_{k+1} − q_k)/h):
//     midpoint, α-family:  f_d^− = f_d^+ = (h/2) F(q_k + α(q_{k+1} − q_k), v̄)   (α = ½: q̄);
//     trapezoid:           f_d^− = (h/2) F(q_k, v̄),  f_d^+ = (h/2) F(q_{k+1}, v̄).
// This symmetric split keeps the midpoint rule symmetric and of order 2. The one-sided
// split f_d^− = f_d^− + f_d^+, f_d^+ = 0 (tests only) is of order 1: eliminating p, its
// position equations D2 L_d(q_{k−1}, q_k) + D1 L_d(q_k, q_{k+1}) + h F̄_k = 0 differ from
// the symmetric ones (… + (h/2)(F̄_{k−1} + F̄_k) = 0) by (h/2)(F̄_k − F̄_{k−1}) ≈ (h²/2) dF/dt,
// i.e. the force is off by (h/2) dF/dt: an O(h) error.
// ∂f_d^−/∂q_{k+1} joins the Newton matrix (forward-mode AD). Unforced systems, and
// forced ones with F ≡ 0 (forced() false), take the unforced arithmetic unchanged.
#pragma once

#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "vilab/discrete_lagrangian.hpp"
#include "vilab/integrators/integrator.hpp"
#include "vilab/mechanics.hpp"
#include "vilab/outcome.hpp"
#include "vilab/solver/dense_lu.hpp"
#include "vilab/solver/newton.hpp"

namespace vilab {

// A system may offer `void canonicalize(Vec<double, N>& q) const`: a representative
// of q under a symmetry of L_d (e.g. angles modulo 2π), applied after each step.
template <class System, class = void>
struct HasCanonicalize : std::false_type {};
template <class System>
struct HasCanonicalize<
    System, std::void_t<decltype(std::declval<const System&>().canonicalize(std::declval<Vec<double, System::N>&>()))>>
    : std::true_type {};

// A system may offer forces outside L: `bool forced() const` (F ≢ 0) and
// `template <class S> Vec<S, N> force(const Vec<S, N>& q, const Vec<S, N>& v) const`,
// itself or through the model it wraps as `model` (the thin systems of lagrangians/,
// e.g. OscillatorSystem, whose OscillatorModel holds the damping).
template <class T, int N, class = void>
struct OffersForce : std::false_type {};
template <class T, int N>
struct OffersForce<T, N,
                   std::void_t<decltype(std::declval<const T&>().force(std::declval<const Vec<double, N>&>(),
                                                                       std::declval<const Vec<double, N>&>())),
                               decltype(std::declval<const T&>().forced())>> : std::true_type {};
template <class System, class = void>
struct ModelOffersForce : std::false_type {};
template <class System>
struct ModelOffersForce<System, std::void_t<decltype(std::declval<const System&>().model)>>
    : OffersForce<std::decay_t<decltype(std::declval<const System&>().model)>, System::N> {};

template <class System>
struct SystemForces {
  static constexpr int N = System::N;
  static constexpr bool ownForce = OffersForce<System, N>::value;
  static constexpr bool modelForce = !ownForce && ModelOffersForce<System>::value;
  static constexpr bool value = ownForce || modelForce;

  static bool forced(const System& s) {
    if constexpr (ownForce)
      return s.forced();
    else if constexpr (modelForce)
      return s.model.forced();
    else
      return false;
  }
  template <class S>
  static Vec<S, N> force(const System& s, const Vec<S, N>& q, const Vec<S, N>& v) {
    if constexpr (ownForce)
      return s.force(q, v);
    else
      return s.model.force(q, v);
  }
};

template <class System>
class VariationalIntegrator {
 public:
  static constexpr int N = System::N;
  static constexpr int C = System::C;
  using Mech = Mechanics<System>;
  using VecN = Vec<double, N>;
  using MatN = Mat<double, N, N>;
  using VecC = Vec<double, C>;
  using MatCN = Mat<double, C, N>;
  using VecNC = Vec<double, N + C>;
  using MatNC = Mat<double, N + C, N + C>;

  VariationalIntegrator(const System& system, DiscreteRule rule, double h)
      : system_(system), rule_(rule), h_(h), forced_(SystemForces<System>::forced(system)) {}

  const System& system() const { return system_; }
  double h() const { return h_; }
  const DiscreteRule& rule() const { return rule_; }

  // Tests only: the first-order one-sided split (f_d^− the whole virtual work), and the
  // forced arithmetic even when F ≡ 0 (it must then give the unforced bits).
  void setOneSidedForcing(bool oneSided) { oneSided_ = oneSided; }
  void setForcedPath(bool forced) {
    if constexpr (SystemForces<System>::value) forced_ = forced;
  }
  bool forced() const { return forced_; }

  // The discrete forces f_d^−, f_d^+ of the step from q_k to q_k + δ (formulas above),
  // over any scalar type (the Newton matrix differentiates f_d^− in δ).
  template <class S>
  void discreteForces(const Vec<S, N>& q0, const Vec<S, N>& delta, Vec<S, N>& fMinus, Vec<S, N>& fPlus) const {
    if constexpr (SystemForces<System>::value) {
      using Forces = SystemForces<System>;
      const Vec<S, N> v = delta / h_;
      if (rule_.kind == Quadrature::Trapezoid) {
        fMinus = (0.5 * h_) * Forces::force(system_, q0, v);
        fPlus = (0.5 * h_) * Forces::force(system_, Vec<S, N>(q0 + delta), v);
      } else {
        const double a = rule_.kind == Quadrature::Alpha ? rule_.alpha : 0.5;
        fMinus = (0.5 * h_) * Forces::force(system_, Vec<S, N>(q0 + delta * a), v);
        fPlus = fMinus;
      }
      if (oneSided_) {
        fMinus += fPlus;
        fPlus.setZero();
      }
    } else {
      (void)q0;
      (void)delta;
      fMinus.setZero();
      fPlus.setZero();
    }
  }

  // D1 L_d(q_k, q_{k+1}), plus f_d^− when forced, at q_{k+1} = q_k + δ, and when asked
  // its Jacobian in q_{k+1} (the Newton matrix block, with ∂f_d^−/∂q_{k+1} by AD).
  VecN d1Forced(const VecN& q0, const VecN& delta, MatN* jacInQ1 = nullptr) const {
    VecN d1 = d1Step(q0, delta, jacInQ1);
    if (!forced_) return d1;
    VecN fMinus, fPlus;
    if (!jacInQ1) {
      discreteForces(q0, delta, fMinus, fPlus);
    } else {
      MatN dfMinus;
      fMinus = jacobian<N, N>(
          [&](const auto& y) {
            using S = typename std::decay_t<decltype(y)>::Scalar;
            Vec<S, N> minus, plus;
            discreteForces(constant<S, N>(q0), y, minus, plus);
            return minus;
          },
          delta, dfMinus);
      *jacInQ1 += dfMinus;
    }
    return d1 + fMinus;
  }

  // D1 L_d(q_k, q_{k+1}) at q_{k+1} = q_k + δ, and when asked its Jacobian in q_{k+1}
  // (the Newton matrix block): moving q_k by x with q_{k+1} fixed is (q_k + x, δ − x),
  // moving q_{k+1} by y is (q_k, δ + y); mixed second derivatives by nested jets.
  VecN d1Step(const VecN& q0, const VecN& delta, MatN* jacInQ1 = nullptr) const {
    const VecN zero = VecN::Zero();
    if (!jacInQ1) {
      VecN grad;
      gradient<N>(
          [&](const auto& x) {
            using S = typename std::decay_t<decltype(x)>::Scalar;
            return discreteLagrangianStep(system_, rule_, h_, Vec<S, N>(constant<S, N>(q0) + x),
                                          Vec<S, N>(constant<S, N>(delta) - x));
          },
          zero, grad);
      return grad;
    }
    const auto d = crossDerivatives<N>(
        [&](const auto& x, const auto& y) {
          using S = typename std::decay_t<decltype(x)>::Scalar;
          return discreteLagrangianStep(system_, rule_, h_, Vec<S, N>(constant<S, N>(q0) + x),
                                        Vec<S, N>(constant<S, N>(delta) - x + y));
        },
        zero, zero);
    *jacInQ1 = d.jacGradXY;
    return d.gradX;
  }

  // D2 L_d(q_k, q_k + δ): the discrete Legendre transform p_{k+1} = D2 L_d (W–M §2).
  VecN d2Step(const VecN& q0, const VecN& delta) const {
    VecN grad;
    gradient<N>(
        [&](const auto& y) {
          using S = typename std::decay_t<decltype(y)>::Scalar;
          return discreteLagrangianStep(system_, rule_, h_, constant<S, N>(q0), Vec<S, N>(constant<S, N>(delta) + y));
        },
        VecN::Zero().eval(), grad);
    return grad;
  }

  // (D1 + D2) L_d(q_k, q_k + δ): the derivative when both points move together.
  VecN shiftDerivative(const VecN& q0, const VecN& delta) const {
    VecN grad;
    gradient<N>(
        [&](const auto& x) {
          using S = typename std::decay_t<decltype(x)>::Scalar;
          return discreteLagrangianStep(system_, rule_, h_, Vec<S, N>(constant<S, N>(q0) + x), constant<S, N>(delta));
        },
        VecN::Zero().eval(), grad);
    return grad;
  }

  // The same in (q0, q1), for tests.
  VecN d1(const VecN& q0, const VecN& q1, MatN* jacInQ1 = nullptr) const { return d1Step(q0, q1 - q0, jacInQ1); }
  VecN d2(const VecN& q0, const VecN& q1) const { return d2Step(q0, q1 - q0); }

  // One step (q_k, p_k) -> (q_{k+1}, p_{k+1}). On refusal q and p are untouched.
  StepOutcome step(VecN& q, VecN& p) const {
    // Stage 1: Newton on F(δ, λ) = [p_k + D1 L_d(q_k, q_k + δ) + Dg(q_k)ᵀλ ; g(q_k + δ)] = 0
    // (W–M eqs. 4.4–4.5) in the unknowns δ = q_{k+1} − q_k and λ, from δ = 0, λ = 0: the
    // first update is the explicit predictor h v_k + O(h²). Solving for δ rather than
    // q_{k+1} keeps the velocity δ/h free of the rounding of O(1) positions. The
    // Jacobian (second derivatives by nested jets) is the costly part, so it is built
    // once and kept while Newton contracts fast (simplified Newton, one policy in
    // solver/newton.hpp).
    DelProblem problem(*this, q, p);
    VecNC x = VecNC::Zero();
    NewtonSettings settings;
    settings.fullNewton = false;
    settings.what = "the discrete Euler–Lagrange equations";
    StepOutcome out = solveNewton(problem, x, settings);
    if (!out.ok) return out;
    const VecN delta = x.template head<N>();
    const VecC lambda = x.template tail<C>();

    // Stage 2: the discrete Legendre transform p_{k+1} = D2 L_d(q_k, q_{k+1}) in impulse
    // form: at the solution D1 L_d = −p_k − Dg(q_k)ᵀλ, so
    //     p_{k+1} = p_k + Dg(q_k)ᵀλ + (D1 + D2) L_d(q_k, q_{k+1}),
    // where (D1 + D2) L_d is the derivative along a common shift of both points (for the
    // midpoint rule h ∂L/∂q at the midpoint). Forming D2 L_d directly would pass p through
    // M (h M⁻¹ p)/h, a product that is not the identity in floating point and, repeated
    // every step, makes momenta drift linearly. p_{k+1} keeps its component normal to
    // the constraint manifold (W–M): the next step's multiplier absorbs it, and the
    // models' canonical momenta never carry it.
    // Forced (M–W §3.2): D1 L_d = −p_k − f_d^− − Dg(q_k)ᵀλ and p_{k+1} = D2 L_d + f_d^+, so
    // the impulse gains the whole discrete virtual work, f_d^− + f_d^+.
    VecN q1 = q + delta;
    VecN p1 = p + problem.G0.transpose() * lambda + shiftDerivative(q, delta);
    if (forced_) {
      VecN fMinus, fPlus;
      discreteForces(q, delta, fMinus, fPlus);
      p1 += fMinus + fPlus;
    }
    if (!q1.allFinite() || !p1.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                                 out.iterations);
    if constexpr (HasCanonicalize<System>::value) system_.canonicalize(q1);
    q = q1;
    p = p1;
    return out;
  }

  // The Newton problem of stage 1: unknowns x = (δ, λ).
  struct DelProblem {
    using Vector = VecNC;
    const VariationalIntegrator& vi;
    const VecN& q;
    const VecN& p;
    MatCN G0;
    double qScale, pScale;
    MatN J11;  // ∂D1 L_d/∂q_{k+1}, written by every linearization
    DenseLU<N + C> lu;

    DelProblem(const VariationalIntegrator& integrator, const VecN& q0, const VecN& p0) : vi(integrator), q(q0), p(p0) {
      Mech::constraints(vi.system_, q, G0);
      qScale = 1.0 + q.cwiseAbs().maxCoeff();
      pScale = 1.0 + p.cwiseAbs().maxCoeff();
    }
    NewtonEval evaluate(const VecNC& x, VecNC& r, bool linearize) {
      const VecN delta = x.template head<N>();
      MatNC J;
      const VecN d1 = linearize ? vi.d1Forced(q, delta, &J11) : vi.d1Forced(q, delta);
      r.template head<N>() = p + d1 + G0.transpose() * x.template tail<C>();
      MatCN G1;
      r.template tail<C>() = Mech::constraints(vi.system_, VecN(q + delta), G1);
      if (!r.allFinite()) return NewtonEval::NonFinite;
      if (linearize) {
        J.setZero();
        J.template topLeftCorner<N, N>() = J11;
        J.template topRightCorner<N, C>() = G0.transpose();
        J.template bottomLeftCorner<C, N>() = G1;
        if (!lu.factorize(J)) return NewtonEval::Singular;
      }
      return NewtonEval::Ok;
    }
    double conditionEstimate() const { return lu.pivotRatio(); }
    void solve(VecNC& b) const { lu.solveInPlace(b); }
    // Positions relative to their size, and the momentum change Dg(q_k)ᵀΔλ relative to p.
    double size(const VecNC& dx) const {
      const double dq = dx.template head<N>().cwiseAbs().maxCoeff() / qScale;
      if constexpr (C == 0) {
        return dq;
      } else {
        const VecN dp = G0.transpose() * dx.template tail<C>();
        return std::max(dq, dp.cwiseAbs().maxCoeff() / pScale);
      }
    }
  };

 private:
  System system_;
  DiscreteRule rule_;
  double h_;
  bool forced_ = false;    // F ≢ 0: add f_d^± (M–W §3.2)
  bool oneSided_ = false;  // tests only: f_d^− = h F, f_d^+ = 0
};

}  // namespace vilab

namespace vilab {

// The generic engine behind the Integrator interface. Coordinates says how the
// system's (q, p) relate to the model's canonical state:
//   static void load(const System&, const State&, VecN& q, VecN& p);
//   static void store(const System&, const VecN& q, const VecN& p, State&);
template <class System, class Coordinates>
class DelIntegrator final : public Integrator {
 public:
  using VecN = Vec<double, System::N>;
  DelIntegrator(const System& system, DiscreteRule rule, double h) : vi_(system, rule, h) {}
  void load(const State& s) override { Coordinates::load(vi_.system(), s, q_, p_); }
  StepOutcome step() override { return vi_.step(q_, p_); }
  void store(State& s) const override { Coordinates::store(vi_.system(), q_, p_, s); }
  const VariationalIntegrator<System>& integrator() const { return vi_; }
  VariationalIntegrator<System>& integrator() { return vi_; }

 private:
  VariationalIntegrator<System> vi_;
  VecN q_, p_;
};

// The system's coordinates are the canonical ones (oscillator, penalty chains).
struct CanonicalCoordinates {
  template <class System, class V>
  static void load(const System&, const State& s, V& q, V& p) {
    q = s.q;
    p = s.p;
  }
  template <class System, class V>
  static void store(const System&, const V& q, const V& p, State& s) {
    s.q = q;
    s.p = p;
  }
};

}  // namespace vilab
