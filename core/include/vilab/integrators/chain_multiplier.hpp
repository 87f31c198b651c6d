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
#pragma once

#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "vilab/discrete_lagrangian.hpp"
#include "vilab/integrators/chain_projection.hpp"
#include "vilab/systems/chain.hpp"

namespace vilab {

class ChainMultiplierIntegrator {
 public:
  // Every step ends with p projected tangent to the manifold (see projectMomentum).
  static constexpr bool kTangentMomentum = true;

  ChainMultiplierIntegrator(const ChainModel& model, DiscreteRule rule, double h)
      : model_(model), h_(h), c1_(h * rule.forceWeightStart()), c2_(h * rule.forceWeightEnd()) {
    const int n = model_.bobs();
    lengthScale_ = 0;
    for (int i = 0; i < n; ++i) {
      lengthScale_ += model_.lengths[i];
      hOverMass_.push_back(h / model_.masses[i]);
      invLength_.push_back(1.0 / model_.lengths[i]);
    }
    lambda_.resize(n);
    dlambda_.resize(n);
    normalStart_.resize(n);
    normalEnd_.resize(n);
    freeFlight_.resize(3 * n);
    displacement_.resize(3 * n);
    q1_.resize(3 * n);
    p1_.resize(3 * n);
    matrix_.resize(n);
  }

  const ChainModel& model() const { return model_; }
  double h() const { return h_; }

  StepOutcome step(VecX& q, VecX& p) {
    StepOutcome out;
    const int n = model_.bobs();
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

    // Stage 2: Newton on λ for g(q_{k+1}(λ)) = 0, starting from λ = 0.
    std::fill(lambda_.begin(), lambda_.end(), 0.0);
    double previousUpdate = std::numeric_limits<double>::infinity();
    bool converged = false;
    for (int it = 1; it <= kMaxIterations && !converged; ++it) {
      out.iterations = it;
      positionsFromMultipliers();
      // Residual g_i(q_{k+1}) and the tridiagonal Jacobian Dg(q_{k+1}) h M⁻¹ Dg(q_k)ᵀ:
      // row i couples link i to its neighbours through the bobs they share.
      for (int i = 0; i < n; ++i) {
        const Vec3 d = chainLink(q1_.data(), i);
        normalEnd_[i] = d * invLength_[i];  // ∇_d g_i at q_{k+1}
        dlambda_[i] = -(d.squaredNorm() - model_.lengths[i] * model_.lengths[i]) * (0.5 * invLength_[i]);
      }
      linkCouplingMatrix(normalEnd_, normalStart_, hOverMass_, matrix_);
      if (!matrix_.solve(dlambda_.data(), scratch_))
        return out.refused("singular multiplier matrix (a link folded onto its neighbour, or h too large)");
      // The position update this λ-update causes: h M⁻¹ Dg(q_k)ᵀ Δλ.
      double update = 0;
      for (int i = 0; i < n; ++i) {
        lambda_[i] += dlambda_[i];
        const double di = hOverMass_[i] * (std::abs(dlambda_[i]) + (i + 1 < n ? std::abs(dlambda_[i + 1]) : 0.0));
        update = std::max(update, di);
      }
      update /= lengthScale_;
      if (!std::isfinite(update)) return out.refused("the Newton update is not finite (h too large?)");
      // Converged when the update is at rounding level; or when quadratic convergence,
      // update_{k+1} ≈ C update_k² with C from the last two updates, predicts the next
      // update to be below rounding (this saves the confirming iteration); or when the
      // update stalls within a few hundred ulps (the rounding floor).
      const double predictedNext = update * update * (update / (previousUpdate * previousUpdate));
      converged = update <= 4 * kEps || (it >= 2 && update <= 1e-8 && predictedNext <= kEps) ||
                  (update <= 1e-13 && update >= previousUpdate);
      previousUpdate = update;
    }
    if (!converged)
      return out.refused("Newton did not converge in " + std::to_string(kMaxIterations) + " iterations (last update " +
                           scientific(previousUpdate) + "); reduce h");
    positionsFromMultipliers();

    // Stage 3: discrete Legendre transform p_{k+1} = M v̄ − c2 ∇V, then tangent projection.
    // With M v̄ = p_k − c1 ∇V + Dg(q_k)ᵀλ from stage 2 this is the impulse form
    //     p_{k+1} = p_k + Dg(q_k)ᵀλ − (c1 + c2) ∇V,
    // which never forms m (h/m · p)/h: that product is not 1 in floating point, and
    // applied every step it made J_z drift linearly (5e-17 relative per step).
    VecX& p1 = p1_;
    for (int i = 0; i < n; ++i) {
      Vec3 impulse = lambda_[i] * normalStart_[i];
      if (i + 1 < n) impulse -= lambda_[i + 1] * normalStart_[i + 1];
      for (int c = 0; c < 3; ++c) p1[3 * i + c] = p[3 * i + c] + impulse[c];
      p1[3 * i + 2] -= (c1_ + c2_) * model_.masses[i] * g;
    }
    if (!projectMomentum(q1_, p1)) return out.refused("singular constraint Gram matrix at q_{k+1}");
    if (!q1_.allFinite() || !p1.allFinite()) return out.refused("the new state is not finite");
    q = q1_;
    p = p1;
    return out;
  }

  // Makes M⁻¹p tangent to every link (chain_projection.hpp); J_z is unchanged.
  bool projectMomentum(const VecX& q, VecX& p) { return projector_.project(model_, q, p); }

 private:
  static constexpr int kMaxIterations = 50;
  static constexpr double kEps = std::numeric_limits<double>::epsilon();

  // q_{k+1}(λ) = q* + h M⁻¹ Dg(q_k)ᵀ λ: link i pushes bob i along a_i and bob i−1 back.
  void positionsFromMultipliers() {
    const int n = model_.bobs();
    for (int i = 0; i < n; ++i) {
      const double hm = hOverMass_[i];
      Vec3 push = lambda_[i] * normalStart_[i];
      if (i + 1 < n) push -= lambda_[i + 1] * normalStart_[i + 1];
      for (int c = 0; c < 3; ++c) {
        displacement_[3 * i + c] = freeFlight_[3 * i + c] + hm * push[c];
        q1_[3 * i + c] = (*start_)[3 * i + c] + displacement_[3 * i + c];
      }
    }
  }


  ChainModel model_;
  double h_, c1_, c2_;
  double lengthScale_;
  std::vector<double> lambda_, dlambda_, scratch_;
  std::vector<double> hOverMass_, invLength_;
  std::vector<Vec3> normalStart_, normalEnd_;  // ∇_d g_i at q_k and at the current q_{k+1}
  VecX freeFlight_, displacement_, q1_, p1_;
  const VecX* start_ = nullptr;  // q_k during a step
  Tridiagonal matrix_;
  ChainMomentumProjector projector_;
};

}  // namespace vilab
