// The variational integrators of a chain with multipliers, exploiting structure
// (W–M §4). With a constant mass matrix M and uniform gravity (∇V constant), the
// DEL with multipliers (W–M 4.4–4.5) for any member of the α-family reads
//     p_k − M v̄ − c1 ∇V + Dg(q_k)ᵀ λ_k = 0,   v̄ = (q_{k+1} − q_k)/h,
//     g(q_{k+1}) = 0,
//     p_{k+1} = M v̄ − c2 ∇V,
// with (c1, c2) = h(1−α, α); midpoint α = ½. Trapezoid (SHAKE) gives c1 = c2 = h/2,
// so for uniform gravity it coincides with the midpoint rule. The first equation is
// explicit in q_{k+1}:
//     q_{k+1}(λ) = q* + h M⁻¹ Dg(q_k)ᵀ λ,   q* = q_k + h M⁻¹ (p_k − c1 ∇V),
// so Newton runs on λ alone: n unknowns for n links, and its matrix
//     ∂g(q_{k+1})/∂λ = Dg(q_{k+1}) h M⁻¹ Dg(q_k)ᵀ
// is tridiagonal because link i only touches bobs i−1 and i. A step costs O(n).
// This is the same map as VariationalIntegrator<ChainCartesian<n>> (tested).
//
// Damping (discrete Lagrange–d'Alembert, M–W §3.2): the drag F_i = −c ẋ_i sampled at
// (q̄, v̄) with the symmetric split f_d^− = f_d^+ = (h/2) F(q̄, v̄) = −(c/2) δ is linear in
// δ = q_{k+1} − q_k, so the first equation,
//     p_k − M v̄ − c1 ∇V − (c/2) δ + Dg(q_k)ᵀ λ_k = 0,
// stays explicit in q_{k+1}(λ) with the mass m_i/h replaced by m_i/h + c/2:
//     δ(λ) = (M/h + c/2)⁻¹ (p_k − c1 ∇V + Dg(q_k)ᵀ λ),
// and the O(N) structure is unchanged. The momentum p_{k+1} = M v̄ − c2 ∇V − (c/2) δ
// in impulse form is p_{k+1} = p_k + Dg(q_k)ᵀλ − (c1 + c2) ∇V − c δ. An undamped chain
// takes the undamped arithmetic (h/m_i, no drag term).
//
// N ≥ 0 fixes the number of bobs at compile time: every vector and the tridiagonal
// matrix then live in fixed-size storage (no pointer chasing, loops unrolled), which is
// the short chains' hot path (the double spherical pendulum is N = 2). The arithmetic
// and its order are the same as for N = −1 (sized at run time), so both give the same
// bits (tests/native/test_chain_fixed.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "vilab/discrete_lagrangian.hpp"
#include "vilab/integrators/chain_projection.hpp"
#include "vilab/outcome.hpp"
#include "vilab/solver/newton.hpp"

namespace vilab {

template <int N = -1>
class ChainMultiplierIntegratorT {
  static_assert(N == -1 || N > 0, "a chain has at least one bob");
  static constexpr int kCoords = N < 0 ? Eigen::Dynamic : 3 * N;

 public:
  // The unknowns λ (one per link) and the bob coordinates, fixed-size when N ≥ 0.
  using Vector = Eigen::Matrix<double, N, 1>;
  using Coords = Eigen::Matrix<double, kCoords, 1>;

  ChainMultiplierIntegratorT(const ChainModel& model, DiscreteRule rule, double h)
      : model_(model),
        h_(h),
        c1_(h * rule.forceWeightStart()),
        c2_(h * rule.forceWeightEnd()),
        forced_(model.forced()) {
    if (N >= 0 && model_.bobs() != N) throw std::logic_error("vilab: a fixed-size chain integrator of another size");
    const int n = model_.bobs();
    resizeLinks<double, N>(invLength_, n);
    resizeLinks<double, N>(hOverMass_, n);
    resizeLinks<double, N>(invMass_, n);
    resizeLinks<Vec3, N>(normalStart_, n, Vec3::Zero());
    resizeLinks<Vec3, N>(normalEnd_, n, Vec3::Zero());
    lengthScale_ = 0;
    for (int i = 0; i < n; ++i) {
      lengthScale_ += model_.lengths[i];
      invLength_[i] = 1.0 / model_.lengths[i];
      invMass_[i] = 1.0 / model_.masses[i];
    }
    setStepMasses();
    lambda_.resize(n);
    freeFlight_.resize(3 * n);
    delta_.resize(3 * n);
    q1_.resize(3 * n);
    p1_.resize(3 * n);
    matrix_.resize(n);
  }

  const ChainModel& model() const { return model_; }
  double h() const { return h_; }

  // Tests only: the forced arithmetic even without damping (it must then give the
  // unforced bits), and the first-order one-sided split f_d^− = −c δ, f_d^+ = 0.
  void setForcedPath(bool forced) {
    forced_ = forced;
    setStepMasses();
  }
  void setOneSidedForcing(bool oneSided) {
    oneSided_ = oneSided;
    setStepMasses();
  }

  StepOutcome step(VecX& q, VecX& p) {
    const int n = bobs();
    const double g = model_.g;
    begin(q, p);

    // Stage 2: Newton on λ for g(q_{k+1}(λ)) = 0 (W–M 4.5), from λ = 0.
    std::fill(lambda_.begin(), lambda_.end(), 0.0);
    NewtonSettings settings;
    settings.what = "the link constraints of the step";
    StepOutcome out = solveNewton(*this, lambda_, settings, workspace_);
    if (!out.ok) return out;
    positionsFromMultipliers(lambda_);

    // Stage 3: discrete Legendre transform p_{k+1} = M v̄ − c2 ∇V, then tangent projection.
    // With M v̄ = p_k − c1 ∇V + Dg(q_k)ᵀλ from stage 2 this is the impulse form
    //     p_{k+1} = p_k + Dg(q_k)ᵀλ − (c1 + c2) ∇V,
    // which never forms m (h/m · p)/h: that product is not 1 in floating point, and
    // applied every step it made J_z drift linearly (5e-17 relative per step).
    for (int i = 0; i < n; ++i) {
      for (int c = 0; c < 3; ++c) {
        double impulse = lambda_[i] * normalStart_[i][c];
        if (i + 1 < n) impulse -= lambda_[i + 1] * normalStart_[i + 1][c];
        p1_[3 * i + c] = p[3 * i + c] + impulse;
      }
      p1_[3 * i + 2] -= (c1_ + c2_) * model_.masses[i] * g;
    }
    // Damped: the whole discrete virtual work f_d^− + f_d^+ = −c δ (either split).
    if (forced_)
      for (int j = 0; j < 3 * n; ++j) p1_[j] -= model_.damping * delta_[j];
    // The normal part of p_{k+1} is what the next multiplier would absorb; removing it
    // makes the stored momentum the physical (tangent) one without changing the motion.
    const auto invMass = [this](int i) { return invMass_[i]; };
    const auto invLength = [this](int i) { return invLength_[i]; };
    if (!projector_.normalMultipliers(model_, q1_, p1_, invMass, invLength)) return folded(out.iterations);
    projector_.subtractNormal(p1_);
    if (!q1_.allFinite() || !p1_.allFinite()) return notFinite(out.iterations);
    q = q1_;
    p = p1_;
    return out;
  }

  // Stage 1 of a step from (q_k, p_k): the free flight and the normals at q_k (public,
  // so that tests can check the Newton problem on its own).
  void begin(const VecX& q, const VecX& p) {
    const int n = bobs();
    const double g = model_.g;
    // Stage 1: free flight q* − q_k = h M⁻¹ (p_k − c1 ∇V), ∇V = (0, 0, m_i g) per bob.
    // Displacements are kept apart from positions, so that q_{k+1} = q_k + δ rounds once.
    for (int i = 0; i < n; ++i) {
      const double hm = hOverMass_[i];
      freeFlight_[3 * i] = hm * p[3 * i];
      freeFlight_[3 * i + 1] = hm * p[3 * i + 1];
      freeFlight_[3 * i + 2] = hm * (p[3 * i + 2] - c1_ * model_.masses[i] * g);
    }
    start_ = &q;
    // Constraint normals at q_k: a_i = ∇_d g_i = d_i / l_i.
    for (int i = 0; i < n; ++i) normalStart_[i] = chainLink(q.data(), i) * invLength_[i];
  }

  // ---- the Newton problem of stage 2 (solver/newton.hpp): unknowns λ ---------------
  NewtonEval evaluate(const Vector& lambda, Vector& r, bool linearize) {
    const int n = bobs();
    positionsFromMultipliers(lambda);
    // Residual g_i(q_{k+1}) and the tridiagonal Jacobian Dg(q_{k+1}) h M⁻¹ Dg(q_k)ᵀ:
    // row i couples link i to its neighbours through the bobs they share.
    for (int i = 0; i < n; ++i) {
      const Vec3 d = chainLink(q1_.data(), i);
      normalEnd_[i] = d * invLength_[i];  // ∇_d g_i at q_{k+1}
      r[i] = (d.squaredNorm() - model_.lengths[i] * model_.lengths[i]) * (0.5 * invLength_[i]);
    }
    if (!r.allFinite()) return NewtonEval::NonFinite;
    if (linearize) {
      linkCouplingMatrix(normalEnd_, normalStart_, hOverMass_, matrix_);
      if (!matrix_.factorize()) return NewtonEval::Singular;
    }
    return NewtonEval::Ok;
  }
  double conditionEstimate() const { return matrix_.pivotRatio; }
  void solve(Vector& b) const { matrix_.solveFactorized(b.data()); }
  // The position change h M⁻¹ Dg(q_k)ᵀ Δλ an update causes, relative to the chain's length.
  double size(const Vector& dlambda) const {
    const int n = bobs();
    double worst = 0;
    for (int i = 0; i < n; ++i)
      worst = std::max(worst,
                       std::abs(hOverMass_[i]) * (std::abs(dlambda[i]) + (i + 1 < n ? std::abs(dlambda[i + 1]) : 0.0)));
    return worst / lengthScale_;
  }

 private:
  int bobs() const { return N < 0 ? model_.bobs() : N; }

  // The refusals of stage 3, formed out of line (their strings stay out of the step).
  [[gnu::noinline, gnu::cold]] static StepOutcome folded(int iterations) {
    return StepOutcome::refuse(RefusalCode::SingularMatrix, "two links are folded onto each other",
                               Suggestion::reduceH(), iterations);
  }
  [[gnu::noinline, gnu::cold]] static StepOutcome notFinite(int iterations) {
    return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                               iterations);
  }

  // q_{k+1}(λ) = q* + h M⁻¹ Dg(q_k)ᵀ λ: link i pushes bob i along a_i and bob i−1 back.
  void positionsFromMultipliers(const Vector& lambda) {
    const int n = bobs();
    // Written per component (Eigen's Vec3 expression here was not always inlined): the
    // same products and differences, the same bits.
    for (int i = 0; i < n; ++i) {
      const double hm = hOverMass_[i];
      for (int c = 0; c < 3; ++c) {
        double push = lambda[i] * normalStart_[i][c];
        if (i + 1 < n) push -= lambda[i + 1] * normalStart_[i + 1][c];
        delta_[3 * i + c] = freeFlight_[3 * i + c] + hm * push;
        q1_[3 * i + c] = (*start_)[3 * i + c] + delta_[3 * i + c];
      }
    }
  }

  // The step's inverse masses h M⁻¹, or with damping (M + s c h)⁻¹ h = (M/h + s c)⁻¹
  // with s = ½ (symmetric split) or 1 (one-sided): written so that c = 0 gives h/m_i.
  void setStepMasses() {
    const double share = oneSided_ ? 1.0 : 0.5;
    for (int i = 0; i < bobs(); ++i) {
      const double m = model_.masses[i];
      hOverMass_[i] = forced_ ? h_ / (m + share * model_.damping * h_) : h_ / m;
    }
  }

  ChainModel model_;
  double h_, c1_, c2_;
  bool forced_;            // damped: the drag's f_d^± (M–W §3.2)
  bool oneSided_ = false;  // tests only: f_d^− = −c δ, f_d^+ = 0
  double lengthScale_;
  Vector lambda_;
  LinkArray<double, N> hOverMass_{}, invLength_{}, invMass_{};
  LinkArray<Vec3, N> normalStart_{}, normalEnd_{};  // ∇_d g_i at q_k and at the current q_{k+1}
  Coords freeFlight_, delta_, q1_, p1_;             // δ = q_{k+1} − q_k as formed, before rounding into q_{k+1}
  const VecX* start_ = nullptr;                     // q_k during a step
  TridiagonalT<N> matrix_;
  ChainMomentumProjectorT<N> projector_;
  NewtonWorkspace<Vector> workspace_;
};

using ChainMultiplierIntegrator = ChainMultiplierIntegratorT<>;

}  // namespace vilab
