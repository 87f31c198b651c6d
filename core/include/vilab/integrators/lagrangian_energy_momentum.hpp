// Gonzalez's energy–momentum scheme on a system defined by data whose L is quadratic in
// the velocities, so that H(q, p) = p·v − L(q, v) with v = v(q, p) is available. In
// z = (q, p), with Δz = z_{k+1} − z_k and z̄ the midpoint, the discrete gradient
//     ∇̄H = ∇H(z̄) + [H(z_{k+1}) − H(z_k) − ∇H(z̄)·Δz] Δz / |Δz|²
// (and ∇̄g_i(q_k, q_{k+1}) likewise for each constraint) gives the step
//     Δq = h ∇̄_p H,   Δp = −h ∇̄_q H + h ∇̄gᵀλ,   g(q_{k+1}) = 0,
// with ∇_p H = v(q̄, p̄) and ∇_q H = −∂L/∂q(q̄, v). Then H(z_{k+1}) − H(z_k) = ∇̄H·Δz =
// h ∇̄_pH·∇̄gᵀλ = λ·(g(q_{k+1}) − g(q_k)) = 0: the energy is conserved to the solver's
// tolerance, and the constraints hold; the map is not symplectic.
//
// With constraints, the step also imposes their rates π_i(q, p) = ∇g_i(q)·v(q, p) = 0 at
// the new node (Gonzalez 1999, the velocity-level constraint), with multipliers μ:
//     Δq = h (∇̄_p H + ∇̄_pπᵀμ),   Δp = −h ∇̄_q H + h ∇̄gᵀλ − h ∇̄_qπᵀμ,   π(z_{k+1}) = 0,
// where ∇̄π_i = b_i + [π_i(z_{k+1}) − π_i(z_k) − b_i·Δz] Δz/|Δz|² with the base b_i ≈
// ∇π_i(z̄): its p part M⁻¹∇g_i(q̄) exactly, its q part by central differences (the
// bracket makes any base a discrete gradient, so the energy argument holds with the
// multipliers' skew matrix; the base's accuracy only sets how close the multipliers
// stay to 0). The nodal momenta are then tangent and the energy kept is the physical one.
//
// Newton's matrix is the residual's Jacobian by central differences (2(2n + c)
// evaluations, built when the iteration asks for it): the scheme is the lesson, not
// the speed.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "vilab/integrators/integrator.hpp"
#include "vilab/models/lagrangian.hpp"
#include "vilab/outcome.hpp"
#include "vilab/solver/newton.hpp"

namespace vilab {

class LagrangianEnergyMomentum {
 public:
  // discreteGradient = false drops the correction terms (of ∇̄H and of each ∇̄g_i): the
  // implicit midpoint rule in z with the constraint gradients at q̄ (the tests' control).
  LagrangianEnergyMomentum(std::shared_ptr<const LagrangianProblem> problem, double h, bool discreteGradient = true)
      : eval_(std::move(problem)), h_(h), discreteGradient_(discreteGradient) {}

  StepOutcome step(VecX& q, VecX& p) {
    const int n = eval_.n(), c = eval_.c();
    q0_ = &q;
    p0_ = &p;
    H0_ = eval_.energy(q.data(), p.data());
    if (!std::isfinite(H0_))
      return StepOutcome::refuse(RefusalCode::NonFinite, "the energy is not finite", Suggestion::reduceH());
    qScale_ = 1.0 + q.cwiseAbs().maxCoeff();
    pScale_ = 1.0 + p.cwiseAbs().maxCoeff();
    eval_.constraints(q.data(), g0_, &G0_);
    if (c > 0) {
      if (!eval_.velocity(q.data(), p.data(), v0_))
        return StepOutcome::refuse(RefusalCode::NonFinite, "the velocity is not defined", Suggestion::reduceH());
      pi0_ = G0_.lazyProduct(v0_);
    }
    // From the previous step's (Δq, Δp, λ, μ): within O(h²) of the solution; after a load
    // from the explicit predictor (h q̇_k, h ∂L/∂q(q_k, q̇_k), 0, 0), within O(h²) too.
    const int m = 2 * n + 2 * c;
    if (previous_.size() == m) {
      x_ = previous_;
    } else {
      x_ = SmallVec::Zero(m);
      if (eval_.velocity(q.data(), p.data(), v_)) {
        eval_.gradient(q.data(), v_.data(), Lq_, Lv_);
        x_.head(n) = h_ * v_;
        x_.segment(n, n) = h_ * Lq_;
      }
    }
    NewtonSettings settings;
    settings.fullNewton = false;
    settings.globalize = true;
    settings.what = "the energy–momentum equations";
    const StepOutcome out = solveNewton(*this, x_, settings, workspace_);
    if (!out.ok) return out;
    q1_ = q + x_.head(n);
    p1_ = p + x_.segment(n, n);
    if (!q1_.allFinite() || !p1_.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                                 out.iterations);
    q.swap(q1_);
    p.swap(p1_);
    previous_ = x_;
    return out;
  }
  // A loaded state's momenta are projected onto the hidden constraints (the energy
  // argument needs π(z_k) = 0; the diagnostics report that projection's energy already).
  void prepare(State& s) {
    previous_.resize(0);
    if (eval_.c() == 0) return;
    VecX tangent = s.p;  // kept as given when it cannot be projected (the step then refuses)
    if (eval_.projectMomentum(s.q.data(), tangent.data())) s.p = tangent;
  }

  // ---- the Newton problem: x = (Δq, Δp, λ) -------------------------------------------
  using Vector = SmallVec;
  NewtonEval evaluate(const SmallVec& x, SmallVec& r, bool linearize) {
    if (!residual(x, r)) return NewtonEval::NonFinite;
    if (linearize) {
      const int m = static_cast<int>(x.size());
      J_.resize(m, m);
      SmallVec xp = x, xm = x, rp(m), rm(m);
      for (int j = 0; j < m; ++j) {
        const double scale = j < eval_.n() ? qScale_ : (j < 2 * eval_.n() ? pScale_ : 1.0 + std::abs(x[j]));
        const double e = 1e-7 * scale;
        xp[j] = x[j] + e;
        xm[j] = x[j] - e;
        if (!residual(xp, rp) || !residual(xm, rm)) return NewtonEval::NonFinite;
        J_.col(j) = (rp - rm) / (2 * e);
        xp[j] = xm[j] = x[j];
      }
      const bool regular = lu_.compute(J_);
      ratio_ = lu_.pivotRatio();
      if (!regular) return NewtonEval::Singular;
    }
    return NewtonEval::Ok;
  }
  double conditionEstimate() const { return ratio_; }
  void solve(SmallVec& b) const { lu_.solveInPlace(b); }
  double size(const SmallVec& dx) const {
    const int n = eval_.n();
    return std::max(dx.head(n).cwiseAbs().maxCoeff() / qScale_, dx.segment(n, n).cwiseAbs().maxCoeff() / pScale_);
  }

 private:
  // The residual of the scheme at x = (Δq, Δp, λ, μ) (formulas above).
  bool residual(const SmallVec& x, SmallVec& r) {
    const int n = eval_.n(), c = eval_.c();
    const VecX& q = *q0_;
    const VecX& p = *p0_;
    dq_ = x.head(n);
    dp_ = x.segment(n, n);
    qm_ = q + 0.5 * dq_;
    pm_ = p + 0.5 * dp_;
    q1_ = q + dq_;
    p1_ = p + dp_;
    if (!eval_.velocity(qm_.data(), pm_.data(), v_)) return false;
    eval_.gradient(qm_.data(), v_.data(), Lq_, Lv_);
    // ∇H(z̄) = (−L_q, v), and the correction along Δz.
    const double H1 = eval_.energy(q1_.data(), p1_.data());
    const double dz2 = dq_.squaredNorm() + dp_.squaredNorm();
    const double along = -Lq_.dot(dq_) + v_.dot(dp_);
    const double k = discreteGradient_ && dz2 > 0 ? (H1 - H0_ - along) / dz2 : 0.0;
    r.resize(2 * n + 2 * c);
    r.head(n) = dq_ - h_ * (v_ + k * dp_);
    r.segment(n, n) = dp_ + h_ * (-Lq_ + k * dq_);
    if (c > 0) {
      // ∇̄g_i = ∇g_i(q̄) + [g_i(q_{k+1}) − g_i(q_k) − ∇g_i(q̄)·Δq] Δq / |Δq|².
      eval_.constraints(qm_.data(), gm_, &Gm_);
      eval_.constraints(q1_.data(), g1_);
      const double dq2 = dq_.squaredNorm();
      Gbar_ = Gm_;
      if (discreteGradient_ && dq2 > 0)
        for (int i = 0; i < c; ++i) {
          const double ki = (g1_[i] - g0_[i] - Gm_.row(i).dot(dq_)) / dq2;
          Gbar_.row(i) += ki * dq_.transpose();
        }
      r.segment(n, n) -= h_ * Gbar_.transpose().lazyProduct(x.segment(2 * n, c));
      r.segment(2 * n, c) = g1_;
      if (!rateTerms(x.tail(c), r)) return false;
    }
    return r.allFinite();
  }

  // The velocity-level constraint's terms: adds h μ_i ∇̄π_i to the residual's (Δq, Δp)
  // rows (signs of the formulas above) and writes π(z_{k+1}) into its last c rows.
  bool rateTerms(const SmallVec& mu, SmallVec& r) {
    const int n = eval_.n(), c = eval_.c();
    if (!eval_.velocity(q1_.data(), p1_.data(), v1_)) return false;
    eval_.constraints(q1_.data(), g1_, &G1_);
    const SmallVec pi1 = G1_.lazyProduct(v1_);
    const double dz2 = dq_.squaredNorm() + dp_.squaredNorm();
    // ∂π/∂q at (q̄, p̄), column by column.
    rateGradient_.resize(c, n);
    for (int j = 0; j < n; ++j) {
      const double e = 1e-6 * qScale_;
      for (int side = 0; side < 2; ++side) {
        shifted_ = qm_;
        shifted_[j] += side == 0 ? e : -e;
        if (!eval_.velocity(shifted_.data(), pm_.data(), u_)) return false;
        eval_.constraints(shifted_.data(), gShifted_, &GShifted_);
        (side == 0 ? ratesPlus_ : ratesMinus_) = GShifted_.lazyProduct(u_);
      }
      for (int i = 0; i < c; ++i) rateGradient_(i, j) = (ratesPlus_[i] - ratesMinus_[i]) / (2 * e);
    }
    for (int i = 0; i < c; ++i) {
      // b_i's p part, M⁻¹∇g_i(q̄), as v(q̄, p̄ + ∇g_i) − v(q̄, p̄): v is affine in p here.
      shifted_ = pm_ + Gm_.row(i).transpose();
      if (!eval_.velocity(qm_.data(), shifted_.data(), u_)) return false;
      u_ -= v_;
      const double along = rateGradient_.row(i).dot(dq_) + u_.dot(dp_);
      const double k = discreteGradient_ && dz2 > 0 ? (pi1[i] - pi0_[i] - along) / dz2 : 0.0;
      r.head(n) -= h_ * mu[i] * (u_ + k * dp_);
      r.segment(n, n) += h_ * mu[i] * (rateGradient_.row(i).transpose() + k * dq_);
    }
    r.tail(c) = pi1;
    return true;
  }

  LagrangianEval eval_;
  double h_;
  bool discreteGradient_ = true;
  const VecX* q0_ = nullptr;
  const VecX* p0_ = nullptr;
  double H0_ = 0, qScale_ = 1, pScale_ = 1, ratio_ = 1;
  SmallVec x_, previous_, dq_, dp_, qm_, pm_, v_, Lq_, Lv_, g0_, gm_, g1_;
  SmallVec v0_, v1_, pi0_, u_, shifted_, gShifted_, ratesPlus_, ratesMinus_;
  SmallMat Gm_, Gbar_, J_, G0_, G1_, GShifted_, rateGradient_;
  SmallLU lu_;
  VecX q1_, p1_;
  NewtonWorkspace<SmallVec> workspace_;
};

}  // namespace vilab
