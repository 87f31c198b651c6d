// Shared by the O(N) chain integrators: the tridiagonal link-coupling matrices, the
// projection of momenta onto the tangent space of the links, and the projection of
// positions onto the links.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "vilab/models/chain.hpp"
#include "vilab/solver/newton.hpp"
#include "vilab/solver/tridiagonal.hpp"

namespace vilab {

// The tridiagonal matrix Dg(q_b) W Dg(q_a)ᵀ of a chain, W = diag(w_i I₃) per bob, from
// the link normals b_i at q_b and a_i at q_a: link i touches bobs i−1 and i only, so
// row i couples link i to links i ± 1. The Newton matrices of the multiplier solves.
template <int N, class Normals, class Weights>
[[gnu::always_inline]] inline void linkCouplingMatrix(const Normals& b, const Normals& a, const Weights& w,
                                                      TridiagonalT<N>& out) {
  const int n = out.size();
  for (int i = 0; i < n; ++i) {
    const double ba = b[i].dot(a[i]);
    out.diag[i] = w[i] * ba + (i > 0 ? w[i - 1] * ba : 0.0);
    if (i > 0) out.lower[i] = -w[i - 1] * b[i].dot(a[i - 1]);
    if (i + 1 < n) out.upper[i] = -w[i] * b[i].dot(a[i + 1]);
  }
}

// The normal part of a covector p at q: Dg(q)ᵀμ with Dg M⁻¹ (p − Dg(q)ᵀμ) = 0, i.e.
// what must be removed for the velocity M⁻¹p to be tangent to every link. The Gram
// matrix Dg M⁻¹ Dgᵀ is tridiagonal (link i shares a bob with links i ± 1), so this
// costs O(N). Normal components are central pairs of forces along the links: they
// carry no angular momentum about z. N ≥ 0: a chain of N bobs, fixed at compile time
// (the same arithmetic, the same bits).
template <int N = -1>
class ChainMomentumProjectorT {
 public:
  // μ for p at q (normals() then holds the unit normals d_i/l_i at q).
  template <class Vector>
  bool normalMultipliers(const ChainModel& m, const Vector& q, const Vector& p) {
    return normalMultipliers(
        m, q, p, [&](int i) { return 1.0 / m.masses[i]; }, [&](int i) { return 1.0 / m.lengths[i]; });
  }
  // The same with 1/m_i and 1/l_i given (a stepper that keeps them: the same bits).
  template <class Vector, class InvMass, class InvLength>
  bool normalMultipliers(const ChainModel& m, const Vector& q, const Vector& p, const InvMass& invMass,
                         const InvLength& invLength) {
    const int n = N < 0 ? m.bobs() : N;
    if constexpr (N < 0) {
      if (gram_.size() != n) {
        gram_.resize(n);
        mu_.resize(n);
        a_.resize(n);
      }
    }
    for (int i = 0; i < n; ++i) a_[i] = chainLink(q.data(), i) * invLength(i);
    for (int i = 0; i < n; ++i) {
      const double invM = invMass(i);
      Vec3 w = invM * Vec3(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
      double diag = invM * a_[i].squaredNorm();
      if (i > 0) {
        const double invPrev = invMass(i - 1);
        w -= invPrev * Vec3(p[3 * i - 3], p[3 * i - 2], p[3 * i - 1]);
        diag += invPrev * a_[i].squaredNorm();
        gram_.lower[i] = -invPrev * a_[i].dot(a_[i - 1]);
      }
      if (i + 1 < n) gram_.upper[i] = -invM * a_[i].dot(a_[i + 1]);
      gram_.diag[i] = diag;
      mu_[i] = a_[i].dot(w);
    }
    return gram_.solve(mu_.data());
  }

  // p ← p − scale·Dg(q)ᵀμ with the last μ and normals.
  template <class Vector>
  void subtractNormal(Vector& p, double scale = 1.0) const {
    const int n = gram_.size();
    for (int i = 0; i < n; ++i) {
      const double mu = scale * mu_[i];
      for (int c = 0; c < 3; ++c) {
        p[3 * i + c] -= mu * a_[i][c];
        if (i > 0) p[3 * (i - 1) + c] += mu * a_[i][c];
      }
    }
  }

  // Removes the normal part of p; J_z is unchanged.
  template <class Vector>
  bool project(const ChainModel& m, const Vector& q, Vector& p) {
    if (!normalMultipliers(m, q, p)) return false;
    subtractNormal(p);
    return true;
  }

  const LinkArray<double, N>& multipliers() const { return mu_; }
  const LinkArray<Vec3, N>& normals() const { return a_; }

 private:
  TridiagonalT<N> gram_;
  LinkArray<double, N> mu_{};
  LinkArray<Vec3, N> a_{};  // the unit normals ∇_d g_i = d_i / l_i at q
};

using ChainMomentumProjector = ChainMomentumProjectorT<>;

// The projection of positions onto the links in the mass metric (Hairer–Lubich–Wanner
// §IV.4, the standard projection method): from x̃ off the manifold,
//     x = x̃ + M⁻¹ Dg(x̃)ᵀ μ   with   g(x) = 0,   g_i = (|d_i|² − l_i²) / (2 l_i),
// i.e. move along the M-normal at x̃ until every link has its length. To first order
// in the distance this is the M-closest point of the manifold (the exact minimizer
// has Dg(x) in place of Dg(x̃), O(|x − x̃|²) apart). Newton on μ, n unknowns, with the
// matrix ∂g(x(μ))/∂μ = Dg(x) M⁻¹ Dg(x̃)ᵀ, tridiagonal because link i touches bobs
// i−1 and i only: O(N) per iteration, converged to rounding (the one Newton driver).
class ChainPositionProjector {
 public:
  // Projects x in place; on refusal x is unchanged.
  StepOutcome project(const ChainModel& m, VecX& x) {
    const int n = m.bobs();
    if (static_cast<int>(normalStart_.size()) != n) {
      invMass_.resize(n);
      invLength_.resize(n);
      normalStart_.resize(n);
      normalEnd_.resize(n);
      matrix_.resize(n);
      mu_.resize(n);
      x_.resize(3 * n);
    }
    model_ = &m;
    lengthScale_ = 0;
    for (int i = 0; i < n; ++i) {
      invMass_[i] = 1.0 / m.masses[i];
      invLength_[i] = 1.0 / m.lengths[i];
      lengthScale_ += m.lengths[i];
    }
    start_ = &x;
    // The normals ∇_d g_i = d_i / l_i at x̃, fixed during the iteration.
    for (int i = 0; i < n; ++i) normalStart_[i] = chainLink(x.data(), i) * invLength_[i];
    mu_.setZero();
    NewtonSettings settings;
    settings.what = "the projection onto the link lengths";
    const StepOutcome out = solveNewton(*this, mu_, settings, workspace_);
    if (!out.ok) return out;
    positionsFromMultipliers(mu_);
    if (!x_.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the projected positions are not finite",
                                 Suggestion::reduceH(), out.iterations);
    x = x_;
    return out;
  }

  // ---- the Newton problem (solver/newton.hpp): unknowns μ --------------------------
  using Vector = VecX;
  NewtonEval evaluate(const VecX& mu, VecX& r, bool linearize) {
    const int n = static_cast<int>(normalStart_.size());
    positionsFromMultipliers(mu);
    for (int i = 0; i < n; ++i) {
      const Vec3 d = chainLink(x_.data(), i);
      normalEnd_[i] = d * invLength_[i];  // ∇_d g_i at x(μ)
      r[i] = (d.squaredNorm() - model_->lengths[i] * model_->lengths[i]) * (0.5 * invLength_[i]);
    }
    if (!r.allFinite()) return NewtonEval::NonFinite;
    if (linearize) {
      linkCouplingMatrix(normalEnd_, normalStart_, invMass_, matrix_);
      if (!matrix_.factorize()) return NewtonEval::Singular;
    }
    return NewtonEval::Ok;
  }
  double conditionEstimate() const { return matrix_.pivotRatio; }
  void solve(VecX& b) const { matrix_.solveFactorized(b.data()); }
  // The position change M⁻¹ Dg(x̃)ᵀ Δμ of an update, relative to the chain's length.
  double size(const VecX& dmu) const {
    const int n = static_cast<int>(normalStart_.size());
    double worst = 0;
    for (int i = 0; i < n; ++i)
      worst = std::max(worst, invMass_[i] * (std::abs(dmu[i]) + (i + 1 < n ? std::abs(dmu[i + 1]) : 0.0)));
    return worst / lengthScale_;
  }

  const VecX& multipliers() const { return mu_; }

 private:
  // x(μ) = x̃ + M⁻¹ Dg(x̃)ᵀ μ: link i pushes bob i along its normal and bob i−1 back.
  void positionsFromMultipliers(const VecX& mu) {
    const int n = static_cast<int>(normalStart_.size());
    for (int i = 0; i < n; ++i) {
      Vec3 push = mu[i] * normalStart_[i];
      if (i + 1 < n) push -= mu[i + 1] * normalStart_[i + 1];
      for (int c = 0; c < 3; ++c) x_[3 * i + c] = (*start_)[3 * i + c] + invMass_[i] * push[c];
    }
  }

  const ChainModel* model_ = nullptr;
  const VecX* start_ = nullptr;  // x̃ during a projection
  double lengthScale_ = 1;
  std::vector<double> invMass_, invLength_;
  std::vector<Vec3> normalStart_, normalEnd_;  // ∇_d g_i at x̃ and at the current x(μ)
  Tridiagonal matrix_;
  VecX mu_, x_;
  NewtonWorkspace<VecX> workspace_;
};

}  // namespace vilab
