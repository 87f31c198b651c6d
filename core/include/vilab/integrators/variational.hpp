// The variational integrator of a generic constrained Lagrangian system: the
// discrete Euler–Lagrange equations with Lagrange multipliers (W–M §4), solved by
// Newton with the Jacobian from nested forward-mode AD.
//
// Position–momentum form (W–M eqs. 4.4–4.5): given (q_k, p_k) with g(q_k) = 0,
// solve for (q_{k+1}, λ_k)
//     p_k + D1 L_d(q_k, q_{k+1}) + Dg(q_k)ᵀ λ_k = 0        (4.4, with p_k = D2 L_d(q_{k-1}, q_k))
//     g(q_{k+1}) = 0                                       (4.5)
// then p_{k+1} = D2 L_d(q_k, q_{k+1}) (discrete Legendre transform), projected
// onto the cotangent space of the constraint manifold. The projection only removes
// a normal component Dg(q_{k+1})ᵀμ that the next step's multiplier absorbs, so the
// q-trajectory is unchanged; it makes the stored p the physical momentum.
#pragma once

#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "vilab/discrete_lagrangian.hpp"
#include "vilab/mechanics.hpp"

namespace vilab {

struct NewtonSettings {
  int maxIterations = 50;
};

// A system may offer `void canonicalize(Vec<double, N>& q) const`: a representative
// of q under a symmetry of L_d (e.g. angles modulo 2π), applied after each step.
template <class System, class = void>
struct HasCanonicalize : std::false_type {};
template <class System>
struct HasCanonicalize<System, std::void_t<decltype(std::declval<const System&>().canonicalize(
                                   std::declval<Vec<double, System::N>&>()))>> : std::true_type {};

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
      : system_(system), rule_(rule), h_(h) {}

  const System& system() const { return system_; }
  double h() const { return h_; }
  const DiscreteRule& rule() const { return rule_; }

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

  // One step (q, p) -> (q', p'). On failure q and p are left untouched.
  StepOutcome step(VecN& q, VecN& p) const {
    StepOutcome out;
    MatCN G0;
    Mech::constraints(system_, q, G0);

    // Newton on F(q_{k+1}, λ) = [p_k + D1 L_d(q_k, q_{k+1}) + Dg(q_k)ᵀλ ; g(q_{k+1})] = 0
    // in the unknowns (δ = q_{k+1} − q_k, λ), from δ = 0, λ = 0 (the first update is the
    // explicit predictor h v_k + O(h²)). Solving for δ rather than q_{k+1} keeps the
    // velocity δ/h free of the rounding of O(1) positions. The AD Jacobian is rebuilt while the updates are large and
    // then frozen: the last, rounding-level updates are chord iterations, which
    // converge as fast there and cost a first derivative instead of a second.
    VecN delta = VecN::Zero();
    VecC lambda = VecC::Zero();
    const double qScale = 1.0 + q.cwiseAbs().maxCoeff();
    double previousUpdate = std::numeric_limits<double>::infinity();
    double contraction = 1;  // ratio of the last two updates
    double predictorStep = 0;  // size of the first update: the explicit step h v_k
    bool converged = false;
    Eigen::PartialPivLU<MatNC> lu;
    for (int it = 1; it <= settings_.maxIterations && !converged; ++it) {
      out.iterations = it;
      const bool rebuild = it <= 2 || previousUpdate > 1e-6 || contraction > 0.01;
      MatN J11 = MatN::Zero();
      const VecN r1 = p + d1Step(q, delta, rebuild ? &J11 : nullptr) + G0.transpose() * lambda;
      MatCN G1;
      const VecC r2 = Mech::constraints(system_, VecN(q + delta), G1);
      VecNC r;
      r << r1, r2;
      if (!r.allFinite()) return out.refused("the DEL residual is not finite (h too large?)");
      if (rebuild) {
        MatNC J = MatNC::Zero();
        J.template topLeftCorner<N, N>() = J11;
        J.template topRightCorner<N, C>() = G0.transpose();
        J.template bottomLeftCorner<C, N>() = G1;
        lu.compute(J);
        const double rcond = lu.rcond();
        if (!(rcond > 1e-14)) return out.refused("singular Newton matrix (rcond " + scientific(rcond) + "); reduce h");
      }
      const VecNC dx = -lu.solve(r);
      if (!dx.allFinite()) return out.refused("the Newton update is not finite");
      if (it == 1) predictorStep = dx.template head<N>().cwiseAbs().maxCoeff();
      delta += dx.template head<N>();
      lambda += dx.template tail<C>();
      // Converged when the update is at rounding level, or has stopped shrinking
      // once it is within a few hundred ulps (the rounding floor of the residual).
      const double update = dx.template head<N>().cwiseAbs().maxCoeff() / qScale;
      converged = update <= 4 * kEps || (update <= 1e-13 && update >= previousUpdate);
      contraction = update / previousUpdate;
      previousUpdate = update;
    }
    if (!converged)
      return out.refused("Newton did not converge in " + std::to_string(settings_.maxIterations) +
                           " iterations (last update " + scientific(previousUpdate) + "); reduce h");

    // The DEL has other roots far from q_k; near a coordinate singularity Newton can
    // land on one. The true correction to the explicit first update is O(h) of it.
    const double correction = delta.cwiseAbs().maxCoeff() - predictorStep;
    if (correction > predictorStep + 1e-8 * qScale)
      return out.refused("Newton converged to a distant root (the step moved q by " + scientific(correction + predictorStep) +
                           ", the explicit predictor by " + scientific(predictorStep) +
                           "): a coordinate singularity or h too large; reduce h");

    // p_{k+1} = D2 L_d(q_k, q_{k+1}), projected onto T*Q at q_{k+1}. At the solution
    // D1 L_d = −p_k − Dg(q_k)ᵀλ, so this is the impulse form
    //     p_{k+1} = p_k + Dg(q_k)ᵀλ + (D1 + D2) L_d(q_k, q_{k+1}),
    // where (D1 + D2) L_d is the derivative along a common shift of both points (for
    // the midpoint rule h ∂L/∂q at the midpoint). Forming D2 L_d directly would pass
    // p through M (h M⁻¹ p)/h, a product that is not the identity in floating point
    // and, repeated every step, makes momenta drift linearly.
    VecN q1 = q + delta;
    VecN p1 = p + G0.transpose() * lambda + shiftDerivative(q, delta);
    if constexpr (C > 0) {
      VecN v1;
      if (!Mech::velocity(system_, q1, p1, v1)) return out.refused("the Legendre transform is singular at q_{k+1}");
      p1 = Mech::momentum(system_, q1, v1);
    }
    if (!q1.allFinite() || !p1.allFinite()) return out.refused("the new state is not finite");
    if constexpr (HasCanonicalize<System>::value) system_.canonicalize(q1);
    q = q1;
    p = p1;
    return out;
  }

 private:
  static constexpr double kEps = std::numeric_limits<double>::epsilon();


  System system_;
  DiscreteRule rule_;
  double h_;
  NewtonSettings settings_;
};

}  // namespace vilab
