// Energy–momentum integrator of a chain whose links are stiff springs (Gonzalez 1996):
// no multipliers, q ∈ R^{3n} unconstrained, and the Hamiltonian
//     H_μ(q, p) = T(p) + V(q) + (μ/2) Σ_i g_i(q)²,   g_i = (|d_i|² − l_i²)/(2 l_i),
// d_i = x_i − x_{i−1} (the same g as `penalty`), which is not quadratic: the discrete
// gradient differs from the midpoint gradient. T is quadratic, so its discrete gradient
// is M⁻¹p̄; the potential's is ∇̄V_μ(q_k, q_{k+1}):
//     q_{k+1} − q_k = h M⁻¹ p̄,          p̄ = (p_k + p_{k+1})/2                   (1)
//     p_{k+1} − p_k = −h ∇̄V_μ(q_k, q_{k+1}).                                   (2)
// Any ∇̄V with V(y) − V(x) = ∇̄V(x, y)·(y − x) conserves H_μ exactly:
//     H₁ − H₀ = M⁻¹p̄·Δp + ∇̄V·Δq = ∇̄V·(Δq − hM⁻¹p̄) = 0.
//
// Three discrete gradients of the penalty, all symmetric in (x, y); with x̄ the midpoint
// and a_i = g_i(x), b_i = g_i(y), ∇g_i(x̄) = ±d̄_i/l_i on bobs i and i−1:
//  - Invariant (the default; Gonzalez 1996, §4: the discrete gradient through the
//    invariants of the symmetry). V_pen = Σ U_i(s_i) with s_i = |d_i|² quadratic and
//    invariant under rotations; the difference quotient of U_i along s_i gives
//        ∇̄V_pen = Σ_i μ (a_i + b_i)/2 ∇g_i(x̄):
//    exact because g_i is quadratic, b_i − a_i = ∇g_i(x̄)·Δq = d̄_i·δ_i/l_i (δ_i the
//    change of link i). Each link force is central at the midpoint, so gravity
//    (vertical) and the springs exert no torque about z at x̄, and the midpoint rule's
//    bilinear J_z = Σ (x_i × p_i)_z is kept exactly.
//  - Cartesian (Gonzalez's midpoint discrete gradient on q ∈ R^{3n}):
//        ∇̄V = ∇V(x̄) + [V(y) − V(x) − ∇V(x̄)·Δq] Δq/|Δq|²,
//    whose bracket is, per link, μ (b_i − a_i)[(a_i + b_i)/2 − g_i(x̄)] =
//    μ (b_i − a_i)|δ_i|²/(8 l_i) (g_i quadratic): computed without cancellation, and
//    O(|Δq|³), so the correction tends to 0 as y → x. It conserves H_μ too, but its
//    correction is along Δq_i = h p̄_i/m_i, which has a torque about z:
//    ΔJ_z = −h k Σ_i (x̄_i × Δq_i)_z ≠ 0. Kept for comparison.
//  - Midpoint: ∇V(x̄), no correction: the implicit midpoint rule (which for this
//    separable H with constant M is the variational midpoint rule, `penalty`).
//    Symplectic, energy not conserved: the tests' negative control.
//
// Newton on the displacement Δ = q_{k+1} − q_k alone (p_{k+1} eliminated by (2)):
//     F(Δ) = Δ − h M⁻¹ p_k + (h²/2) M⁻¹ ∇̄V_μ(q_k, q_k + Δ) = 0,
// a dense 3n × 3n Jacobian (n ≤ 10 bobs fit the small matrices).
#pragma once

#include <algorithm>
#include <cmath>

#include "vilab/models/chain.hpp"
#include "vilab/outcome.hpp"
#include "vilab/solver/newton.hpp"
#include "vilab/solver/small_lu.hpp"

namespace vilab {

class ChainPenaltyEnergyMomentum {
 public:
  enum class Gradient { Invariant, Cartesian, Midpoint };
  static constexpr int kMaxBobs = kMaxSmallSize / 3;

  ChainPenaltyEnergyMomentum(const ChainModel& model, double mu, double h, Gradient gradient = Gradient::Invariant)
      : model_(model), mu_(mu), h_(h), gradient_(gradient) {
    lengthScale_ = model_.restDepth(model_.bobs() - 1);
  }

  const ChainModel& model() const { return model_; }
  double stiffness() const { return mu_; }
  Gradient gradient() const { return gradient_; }

  // H_μ = T + V + (μ/2) Σ g_i²: the energy the scheme conserves.
  double energy(const VecX& q, const VecX& p) const {
    double springs = 0;
    for (int i = 0; i < model_.bobs(); ++i) {
      const double g = linkValue(chainLink(q.data(), i), i);
      springs += g * g;
    }
    return model_.kinetic(p.data()) + model_.potential(q.data()) + 0.5 * mu_ * springs;
  }

  StepOutcome step(VecX& q, VecX& p) {
    const int m = 3 * model_.bobs();
    q0_ = &q;
    p0_ = &p;
    for (int i = 0; i < model_.bobs(); ++i) start_[i] = chainLink(q.data(), i);

    // Stage 1: the predictor, the explicit step with the force at q_k:
    //     Δ⁰ = h M⁻¹ (p_k − (h/2) ∇V_μ(q_k)).
    x_ = SmallVec::Zero(m);
    force(x_, force_);
    for (int e = 0; e < m; ++e) x_[e] = h_ / mass(e) * (p[e] - 0.5 * h_ * force_[e]);

    // Stage 2: Newton on F(Δ) = 0. The Cartesian gradient's Jacobian leaves out the
    // derivative of its correction's coefficient (a simplified Newton).
    NewtonSettings settings;
    settings.fullNewton = gradient_ != Gradient::Cartesian;
    settings.what = "the discrete-gradient equations of the step";
    const StepOutcome out = solveNewton(*this, x_, settings, workspace_);
    if (!out.ok) return out;

    // Stage 3: q_{k+1} = q_k + Δ and (2) with ∇̄V_μ at the final Δ.
    force(x_, force_);
    q1_ = q + VecX(x_);
    p1_ = p - h_ * VecX(force_);
    if (!q1_.allFinite() || !p1_.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                                 out.iterations);
    q.swap(q1_);
    p.swap(p1_);
    return out;
  }

  // ---- the Newton problem: x = Δ ------------------------------------------------------
  using Vector = SmallVec;
  NewtonEval evaluate(const SmallVec& x, SmallVec& r, bool linearize) {
    const int m = 3 * model_.bobs();
    force(x, force_, linearize ? &jacobian_ : nullptr);
    r.resize(m);
    for (int e = 0; e < m; ++e) r[e] = x[e] - h_ / mass(e) * ((*p0_)[e] - 0.5 * h_ * force_[e]);
    if (!r.allFinite()) return NewtonEval::NonFinite;
    if (linearize) {
      // ∂F/∂Δ = I + (h²/2) M⁻¹ ∂∇̄V/∂Δ.
      for (int e = 0; e < m; ++e) jacobian_.row(e) *= 0.5 * h_ * h_ / mass(e);
      jacobian_.diagonal().array() += 1.0;
      const bool regular = lu_.compute(jacobian_);
      ratio_ = lu_.pivotRatio();
      if (!regular) return NewtonEval::Singular;
    }
    return NewtonEval::Ok;
  }
  double conditionEstimate() const { return ratio_; }
  void solve(SmallVec& b) const { lu_.solveInPlace(b); }
  double size(const SmallVec& dx) const { return dx.cwiseAbs().maxCoeff() / lengthScale_; }

 private:
  double mass(int e) const { return model_.masses[e / 3]; }
  double linkValue(const Vec3& d, int i) const {
    const double l = model_.lengths[i];
    return (d.squaredNorm() - l * l) / (2 * l);
  }

  // ∇̄V_μ(q_k, q_k + Δ) into G, and its Jacobian in Δ into J when asked. Per link, the
  // force c_i u_i with u_i = d̄_i/l_i acts on bob i and, reversed, on bob i−1; its
  // derivative in δ_i is K_i = u_i (∂c_i/∂δ_i)ᵀ + c_i I/(2 l_i).
  void force(const SmallVec& delta, SmallVec& G, SmallMat* J = nullptr) const {
    const int n = model_.bobs(), m = 3 * n;
    G = SmallVec::Zero(m);
    if (J) *J = SmallMat::Zero(m, m);
    double bracket = 0;  // V(y) − V(x) − ∇V(x̄)·Δ (the Cartesian correction)
    for (int i = 0; i < n; ++i) {
      const double l = model_.lengths[i];
      G[3 * i + 2] += model_.masses[i] * model_.g;
      Vec3 change = delta.segment<3>(3 * i);
      if (i > 0) change -= delta.segment<3>(3 * i - 3);
      const Vec3 mid = start_[i] + 0.5 * change, end = start_[i] + change;
      const Vec3 u = mid / l;
      double c;
      Vec3 dc;  // ∂c/∂δ_i
      if (gradient_ == Gradient::Invariant) {
        c = 0.5 * mu_ * (linkValue(start_[i], i) + linkValue(end, i));
        dc = 0.5 * mu_ * end / l;
      } else {
        c = mu_ * linkValue(mid, i);
        dc = 0.5 * mu_ * u;
        // μ (b_i − a_i)|δ_i|²/(8 l_i), with b_i − a_i = d̄_i·δ_i/l_i.
        bracket += mu_ * u.dot(change) * change.squaredNorm() / (8 * l);
      }
      const Vec3 f = c * u;
      G.segment<3>(3 * i) += f;
      if (i > 0) G.segment<3>(3 * i - 3) -= f;
      if (J) {
        Mat3 K = u * dc.transpose();
        K.diagonal().array() += c / (2 * l);
        J->block<3, 3>(3 * i, 3 * i) += K;
        if (i > 0) {
          J->block<3, 3>(3 * i, 3 * i - 3) -= K;
          J->block<3, 3>(3 * i - 3, 3 * i) -= K;
          J->block<3, 3>(3 * i - 3, 3 * i - 3) += K;
        }
      }
    }
    if (gradient_ == Gradient::Cartesian) {
      // The bracket is O(|Δ|³): k Δ → 0 as Δ → 0, and Δ = 0 exactly is the midpoint.
      const double d2 = delta.squaredNorm();
      const double k = d2 > 0 ? bracket / d2 : 0.0;
      G += k * delta;
      if (J) J->diagonal().array() += k;
    }
  }

  ChainModel model_;
  double mu_, h_;
  Gradient gradient_;
  double lengthScale_ = 1, ratio_ = 1;
  Vec3 start_[kMaxBobs];  // d_i(q_k)
  const VecX* q0_ = nullptr;
  const VecX* p0_ = nullptr;
  SmallVec x_, force_;
  SmallMat jacobian_;
  SmallLU lu_;
  VecX q1_, p1_;
  NewtonWorkspace<SmallVec> workspace_;
};

}  // namespace vilab
