// Variational Gauss–Legendre Runge–Kutta methods, s = 1…4 stages, order 2s: the discrete
// Euler–Lagrange equations of the Galerkin discrete Lagrangian (Marsden & West §2.6;
// Hairer–Lubich–Wanner VI.6.3)
//     L_d(q_k, q_{k+1}) = ext h Σ_i b_i L(q(c_i h), q̇(c_i h))
// over the polynomials q of degree s with q(0) = q_k, q(h) = q_{k+1}, with the s-point
// Gauss quadrature (c_i, b_i). Unconstrained, the step is the symplectic partitioned RK
// with Gauss coefficients (HLW Thm VI.6.4), and s = 1 is the implicit midpoint rule.
//
// The polynomial is written through its values X_0 = q_k, X_1, …, X_s = q_{k+1} at the
// s + 1 Gauss–Lobatto points d_0 = 0 < … < d_s = 1 (ℓ_a their Lagrange basis), so that
//     Q_i = Σ_a φ_ia X_a,   Q̇_i = (1/h) Σ_a ψ_ia X_a,   φ_ia = ℓ_a(c_i), ψ_ia = ℓ'_a(c_i),
//     ∂L_d/∂X_a = h Σ_i b_i φ_ia L_q(Q_i, Q̇_i) + Σ_i b_i ψ_ia L_q̇(Q_i, Q̇_i).
// Holonomic constraints g(q) = 0 are imposed at every control point X_a (the Lobatto
// points of the step): L_d restricted to pairs on the constraint manifold C is a
// discrete Lagrangian on C, so its constrained DEL is symplectic on T*C (Marsden & West
// §3.5), as Jay's Gauss–Lobatto SPARK methods (Jay 2007, SIAM J. Numer. Anal. 45) do
// with Lobatto constraint stages around Gauss ones. Its equations, with multipliers λ_a:
//     p_k + ∂L_d/∂X_0 + Dg(q_k)ᵀλ_0 = 0,   ∂L_d/∂X_a + Dg(X_a)ᵀλ_a = 0,   g(X_a) = 0 (a = 1…s),
//     p_{k+1} = ∂L_d/∂X_s = p_k + Σ_{a<s} Dg(X_a)ᵀλ_a + h Σ_i b_i L_q(Q_i, Q̇_i),
// then p_{k+1} projected onto the momenta tangent to C (RATTLE's second multiplier).
// Why the order stays 2s on C: the interpolant of the exact motion at the Lobatto points
// is admissible, the action with the exact multiplier is stationary there, and g along
// the polynomial vanishes at s + 1 Lobatto points, so ∫λ·g is O(h^{2s+1}) (the Lobatto
// node polynomial is orthogonal to degree s − 2): L_d errs by O(h^{2s+1}).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "vilab/integrators/chain_stages.hpp"
#include "vilab/models/chain.hpp"
#include "vilab/models/lagrangian.hpp"
#include "vilab/outcome.hpp"
#include "vilab/solver/block_tridiagonal.hpp"
#include "vilab/solver/newton.hpp"
#include "vilab/solver/small_lu.hpp"

namespace vilab {

// The quadrature (c_i, b_i), the control points d_a and the basis at the nodes.
// Injectable, so that tests can check that a wrong node set is caught.
struct GaussTableau {
  static constexpr int kMaxStages = 4;
  int s = 1;
  double c[kMaxStages] = {}, b[kMaxStages] = {};
  double d[kMaxStages + 1] = {};
  double phi[kMaxStages][kMaxStages + 1] = {}, psi[kMaxStages][kMaxStages + 1] = {};

  // Gauss–Legendre nodes and weights on [0, 1] (Abramowitz & Stegun Table 25.4).
  static GaussTableau legendre(int s) {
    static const double x2 = 0.28867513459481288225, x3 = 0.38729833462074168852;
    static const double x4a = 0.33998104358485626480, x4b = 0.86113631159405257522;
    static const double w4a = 0.65214515486254614263, w4b = 0.34785484513745385737;
    switch (s) {
      case 1: return withNodes(1, {0.5}, {1.0});
      case 2: return withNodes(2, {0.5 - x2, 0.5 + x2}, {0.5, 0.5});
      case 3: return withNodes(3, {0.5 - x3, 0.5, 0.5 + x3}, {5.0 / 18, 4.0 / 9, 5.0 / 18});
      default:
        return withNodes(4, {0.5 * (1 - x4b), 0.5 * (1 - x4a), 0.5 * (1 + x4a), 0.5 * (1 + x4b)},
                         {0.5 * w4b, 0.5 * w4a, 0.5 * w4a, 0.5 * w4b});
    }
  }
  // Any nodes and weights, with the Gauss–Lobatto control points of degree s.
  static GaussTableau withNodes(int s, std::initializer_list<double> nodes, std::initializer_list<double> weights) {
    GaussTableau t;
    t.s = s;
    std::copy(nodes.begin(), nodes.end(), t.c);
    std::copy(weights.begin(), weights.end(), t.b);
    static const double l4 = 0.44721359549995793928, l5 = 0.65465367070797714380;  // 1/√5, √(3/7)
    const double lobatto[4][5] = {
        {0, 1}, {0, 0.5, 1}, {0, 0.5 * (1 - l4), 0.5 * (1 + l4), 1}, {0, 0.5 * (1 - l5), 0.5, 0.5 * (1 + l5), 1}};
    for (int a = 0; a <= s; ++a) t.d[a] = lobatto[s - 1][a];
    for (int i = 0; i < s; ++i)
      for (int a = 0; a <= s; ++a) {
        t.phi[i][a] = t.basis(a, t.c[i], -1);
        double slope = 0;
        for (int m = 0; m <= s; ++m)
          if (m != a) slope += t.basis(a, t.c[i], m) / (t.d[a] - t.d[m]);
        t.psi[i][a] = slope;
      }
    return t;
  }
  // Π_{m ≠ a, skip} (τ − d_m)/(d_a − d_m).
  double basis(int a, double tau, int skip) const {
    double v = 1;
    for (int m = 0; m <= s; ++m)
      if (m != a && m != skip) v *= (tau - d[m]) / (d[a] - d[m]);
    return v;
  }
  double weightSum() const {
    double w = 0;
    for (int i = 0; i < s; ++i) w += b[i];
    return w;
  }
  // Σ_i b_i φ_ia: the weight of L_q's constant part in ∂L_d/∂X_a.
  double loadWeight(int a) const {
    double w = 0;
    for (int i = 0; i < s; ++i) w += b[i] * phi[i][a];
    return w;
  }
  // Σ_i b_i ψ_ia ψ_ij: the kinetic coupling of X_a and X_j for L = ½ q̇ᵀMq̇.
  double stiffness(int a, int j) const {
    double w = 0;
    for (int i = 0; i < s; ++i) w += b[i] * psi[i][a] * psi[i][j];
    return w;
  }
};

// ---- Systems defined by data -------------------------------------------------------
// Unknowns x = (δ_1, …, δ_s | λ_0, …, λ_{s−1}), δ_a = X_a − q_k; residuals
// (R_0, …, R_{s−1} | g(X_1), …, g(X_s)). The Newton matrix is dense, s(n + c) square:
//     ∂R_a/∂δ_j = K_aj (+ Σ λ_a ∇²g(X_a) when a = j ≥ 1),   ∂R_a/∂λ_a = Dg(X_a)ᵀ,   ∂g(X_j)/∂δ_j = Dg(X_j),
//     K_aj = Σ_i b_i (h φ_ia φ_ij L_qq + φ_ia ψ_ij L_qq̇ + ψ_ia φ_ij L_q̇q + ψ_ia ψ_ij L_q̇q̇ / h).
// The curvature term is a central difference of Dg(X_a)ᵀλ_a (the compiled programs give
// Dg, not ∇²g): it only shapes the Newton matrix, never the root. Time-dependent L is
// sampled at the quadrature times t_k + c_i h.
class GaussLagrangian {
 public:
  GaussLagrangian(std::shared_ptr<const LagrangianProblem> problem, double h, GaussTableau t)
      : eval_(std::move(problem)), t_(t), h_(h) {
    const int n = eval_.n(), c = eval_.c(), s = t_.s;
    size_ = s * (n + c);
    jacobian_ = Eigen::MatrixXd::Zero(size_, size_);
    workspace_ = {VecX::Zero(size_), VecX::Zero(size_)};
    for (VecX& x : node_) x = VecX::Zero(n);
  }

  // A new state (load, setState): no previous step to predict from.
  void prepare(State&) { previous_.resize(0); }
  // t_k of the step (the Simulation's clock).
  void setTime(double t) { time_ = t; }

  StepOutcome step(VecX& q, VecX& p) {
    const int n = eval_.n(), c = eval_.c(), s = t_.s;
    q0_ = &q;
    p0_ = &p;
    if (c > 0) eval_.constraints(q.data(), g0_, &G_[0]);
    qScale_ = 1.0 + q.cwiseAbs().maxCoeff();
    pScale_ = 1.0 + p.cwiseAbs().maxCoeff();
    // Predictor: the previous step's stages (δ, λ), within O(h²); after a load the
    // straight line through the current velocity, δ_a = d_a h v, λ = 0.
    if (previous_.size() == size_) {
      x_ = previous_;
    } else {
      x_ = VecX::Zero(size_);
      SmallVec v;
      if (explicitPredictor(eval_, q, p, time_, v))
        for (int a = 1; a <= s; ++a) x_.segment((a - 1) * n, n) = (t_.d[a] * h_) * v;
    }
    NewtonSettings settings;
    settings.fullNewton = c == 0;  // with constraints the Jacobian's curvature is approximate
    settings.what = "the Gauss–Legendre discrete Euler–Lagrange equations";
    const StepOutcome out = solveNewton(*this, x_, settings, workspace_);
    if (!out.ok) return out;

    stages(x_, c > 0);
    q1_ = q + x_.segment((s - 1) * n, n);
    p1_ = p;
    for (int i = 0; i < s; ++i) p1_ += (h_ * t_.b[i]) * Lq_[i];
    for (int a = 0; a < s && c > 0; ++a) p1_.noalias() += G_[a].transpose() * x_.segment(s * n + a * c, c);
    if (c > 0 && !eval_.projectMomentum(q1_.data(), p1_.data(), time_ + h_))
      return StepOutcome::refuse(RefusalCode::SingularMatrix,
                                 "the constraints' gradients became linearly dependent at the new configuration",
                                 Suggestion::reduceH(), out.iterations);
    if (!q1_.allFinite() || !p1_.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                                 out.iterations);
    q.swap(q1_);
    p.swap(p1_);
    previous_ = x_;
    return out;
  }

  // ---- the Newton problem ------------------------------------------------------------
  using Vector = VecX;
  NewtonEval evaluate(const VecX& x, VecX& r, bool linearize) {
    const int n = eval_.n(), c = eval_.c(), s = t_.s;
    stages(x, true);
    r.resize(size_);
    for (int a = 0; a < s; ++a) {
      SmallVec R = SmallVec::Zero(n);
      for (int i = 0; i < s; ++i) R += (h_ * t_.b[i] * t_.phi[i][a]) * Lq_[i] + (t_.b[i] * t_.psi[i][a]) * Lv_[i];
      if (a == 0) R += Eigen::Map<const Eigen::VectorXd>(p0_->data(), n);
      if (c > 0) R.noalias() += G_[a].transpose() * x.segment(s * n + a * c, c);
      r.segment(a * n, n) = R;
    }
    for (int a = 1; a <= s && c > 0; ++a) r.segment(s * n + (a - 1) * c, c) = gNode_[a];
    if (!r.allFinite()) return NewtonEval::NonFinite;
    if (linearize) return factorize(x);
    return NewtonEval::Ok;
  }
  double conditionEstimate() const { return lu_.pivotRatio(); }
  void solve(VecX& rhs) const { lu_.solveInPlace(rhs); }
  // Positions relative to their size; multipliers by the momentum change they cause.
  double size(const VecX& dx) const {
    const int n = eval_.n(), c = eval_.c(), s = t_.s;
    double worst = dx.head(s * n).cwiseAbs().maxCoeff() / qScale_;
    for (int a = 0; a < s && c > 0; ++a)
      worst = std::max(worst, (G_[a].transpose() * dx.segment(s * n + a * c, c)).cwiseAbs().maxCoeff() / pScale_);
    return worst;
  }

 private:
  // Control points, the stages (Q_i, Q̇_i), L's gradient there, and the constraints at
  // the control points X_1, …, X_s.
  void stages(const VecX& x, bool constraints) {
    const int n = eval_.n(), c = eval_.c(), s = t_.s;
    const VecX& q = *q0_;
    node_[0] = q;
    for (int a = 1; a <= s; ++a) node_[a] = q + x.segment((a - 1) * n, n);
    for (int i = 0; i < s; ++i) {
      // Σ_a ψ_ia = 0: the velocity from the displacements.
      pos_[i] = q;
      vel_[i] = SmallVec::Zero(n);
      for (int a = 1; a <= s; ++a) {
        pos_[i] += t_.phi[i][a] * x.segment((a - 1) * n, n);
        vel_[i] += (t_.psi[i][a] / h_) * x.segment((a - 1) * n, n);
      }
      eval_.gradient(pos_[i].data(), vel_[i].data(), Lq_[i], Lv_[i], time_ + t_.c[i] * h_);
    }
    if (constraints && c > 0)
      for (int a = 1; a <= s; ++a) eval_.constraints(node_[a].data(), gNode_[a], &G_[a]);
  }

  NewtonEval factorize(const VecX& x) {
    const int n = eval_.n(), c = eval_.c(), s = t_.s;
    for (int i = 0; i < s; ++i)
      eval_.hessian(pos_[i].data(), vel_[i].data(), Lqq_[i], Lqv_[i], Lvv_[i], time_ + t_.c[i] * h_);
    jacobian_.setZero();
    for (int a = 0; a < s; ++a)
      for (int j = 1; j <= s; ++j) {
        SmallMat K = SmallMat::Zero(n, n);
        for (int i = 0; i < s; ++i) {
          const double fa = t_.phi[i][a], fj = t_.phi[i][j], da = t_.psi[i][a], dj = t_.psi[i][j], b = t_.b[i];
          K += (b * h_ * fa * fj) * Lqq_[i] + (b * fa * dj) * Lqv_[i] + (b * da * fj) * Lqv_[i].transpose() +
               (b * da * dj / h_) * Lvv_[i];
        }
        if (c > 0 && a == j) K += curvature(a, x.segment(s * n + a * c, c));
        jacobian_.block(a * n, (j - 1) * n, n, n) = K;
      }
    for (int a = 0; a < s && c > 0; ++a) jacobian_.block(a * n, s * n + a * c, n, c) = G_[a].transpose();
    for (int a = 1; a <= s && c > 0; ++a) jacobian_.block(s * n + (a - 1) * c, (a - 1) * n, c, n) = G_[a];
    if (!jacobian_.allFinite()) return NewtonEval::NonFinite;
    return lu_.compute(jacobian_) ? NewtonEval::Ok : NewtonEval::Singular;
  }

  // Σ_k λ_k ∇²g_k(X_a) by central differences of Dg(X_a)ᵀλ, column by column.
  SmallMat curvature(int a, const SmallVec& lambda) {
    const int n = eval_.n();
    SmallMat H(n, n);
    VecX shifted = node_[a];
    SmallVec g;
    SmallMat plus, minus;
    for (int j = 0; j < n; ++j) {
      const double step = 1e-5 * (1.0 + std::abs(node_[a][j]));
      shifted[j] = node_[a][j] + step;
      eval_.constraints(shifted.data(), g, &plus);
      shifted[j] = node_[a][j] - step;
      eval_.constraints(shifted.data(), g, &minus);
      shifted[j] = node_[a][j];
      H.col(j) = (plus - minus).transpose() * lambda / (2 * step);
    }
    return H;
  }

  static constexpr int kS = GaussTableau::kMaxStages;
  LagrangianEval eval_;
  GaussTableau t_;
  double h_, time_ = 0;
  int size_ = 0;
  const VecX* q0_ = nullptr;
  const VecX* p0_ = nullptr;
  double qScale_ = 1, pScale_ = 1;
  VecX x_, previous_, q1_, p1_, node_[kS + 1], pos_[kS];
  SmallVec vel_[kS], Lq_[kS], Lv_[kS], g0_, gNode_[kS + 1];
  SmallMat Lqq_[kS], Lqv_[kS], Lvv_[kS], G_[kS + 1];
  Eigen::MatrixXd jacobian_;
  PivotedLU<Eigen::MatrixXd> lu_;  // s(n + c) ≤ 128 unknowns: dense, unblocked
  NewtonWorkspace<VecX> workspace_;
};

// ---- Chains: O(N) block-tridiagonal Newton -----------------------------------------
// L = Σ ½ m_i |ẋ_i|² − m_i g z_i, links g_i = (|d_i|² − l_i²)/(2 l_i), d_i = x_i − x_{i−1}.
// With L_q constant and L_q̇ = M q̇, ∂L_d/∂X_a = −h w_a M g e_z + (M/h) Σ_j G_aj X_j, where
// w_a = Σ_i b_i φ_ia and G_aj = Σ_i b_i ψ_ia ψ_ij. Unknowns per bob i (block i of 4s):
// δ_a of bob i (3 each, a = 1…s) and link i's multipliers μ_a (a = 0…s−1) scaled to
// lengths, μ_a = h λ_a / m̄. Residuals per block, in metres (R_a times h/m_i):
//     A_a = [a = 0] h v_i + Σ_j G_aj δ_j,i − h² w_a g e_z + (m̄/m_i) [Dg(X_a)ᵀμ_a]_i,
//     C_a = g_i(X_a) (a = 1…s),
// [Dgᵀμ]_i = μ_i n_i − μ_{i+1} n_{i+1}, n_i = d_i / l_i. Link i touches bobs i − 1 and i,
// so the Newton matrix is block tridiagonal.
template <int S>
class GaussChain {
 public:
  static constexpr int kBlock = 4 * S;
  GaussChain(const ChainModel& model, double h, GaussTableau t = GaussTableau::legendre(S))
      : model_(model), scales_(model), t_(t), h_(h) {
    const int n = model_.bobs();
    for (int a = 0; a <= S; ++a) {
      load_[a] = t_.loadWeight(a);
      for (int j = 0; j <= S; ++j) stiffness_[a][j] = t_.stiffness(a, j);
    }
    x_ = VecX::Zero(kBlock * n);
    q1_.resize(3 * n);
    p1_.resize(3 * n);
    for (VecX& node : node_) node.resize(3 * n);
    for (auto& normals : normal_) normals.resize(n);
    matrix_.resize(n);
    workspace_ = {VecX::Zero(kBlock * n), VecX::Zero(kBlock * n)};
  }

  const ChainModel& model() const { return model_; }
  void prepare(State&) { previous_.resize(0); }

  StepOutcome step(VecX& q, VecX& p) {
    const int n = model_.bobs();
    begin(q, p);
    NewtonSettings settings;
    settings.what = "the Gauss–Legendre stages and link constraints";
    const StepOutcome out = solveNewton(*this, x_, settings, workspace_);
    if (!out.ok) return out;
    nodes(x_);
    // q_{k+1} = X_s; p_{k+1} = p_k + (m̄/h) Σ_{a<s} [Dg(X_a)ᵀμ_a] − h (Σ b) M g e_z, then
    // projected onto Dg(q_{k+1}) M⁻¹ p_{k+1} = 0.
    const double perH = scales_.massMean / h_, weights = t_.weightSum();
    for (int i = 0; i < n; ++i) {
      Vec3 impulse = Vec3::Zero();
      for (int a = 0; a < S; ++a) impulse += push(a, x_, i);
      for (int c = 0; c < 3; ++c) {
        q1_[3 * i + c] = node_[S][3 * i + c];
        p1_[3 * i + c] = p[3 * i + c] + perH * impulse[c];
      }
      p1_[3 * i + 2] -= h_ * weights * model_.masses[i] * model_.g;
    }
    StepOutcome done = commitChainStep(model_, projector_, q1_, p1_, q, p, out);
    if (done.ok) previous_ = x_;
    return done;
  }

  // The start of a step from (q_k, p_k): normals at q_k and the predictor (public, so
  // that tests can check the Newton problem on its own): the previous step's stages and
  // multipliers, or after a load the free fall through the current velocity,
  // δ_a = d_a h v − ½ (d_a h)² g e_z, μ = 0.
  void begin(const VecX& q, const VecX& p) {
    const int n = model_.bobs();
    start_ = &q;
    startMomentum_ = &p;
    for (int i = 0; i < n; ++i) normal_[0][i] = chainLink(q.data(), i) * scales_.invLength[i];
    if (previous_.size() == x_.size()) {
      x_ = previous_;
      return;
    }
    x_.setZero();
    for (int i = 0; i < n; ++i)
      for (int a = 1; a <= S; ++a) {
        const double dt = t_.d[a] * h_;
        for (int c = 0; c < 3; ++c) x_[kBlock * i + 3 * (a - 1) + c] = dt * p[3 * i + c] / model_.masses[i];
        x_[kBlock * i + 3 * (a - 1) + 2] -= 0.5 * dt * dt * model_.g;
      }
  }
  const VecX& unknowns() const { return x_; }

  // ---- the Newton problem (solver/newton.hpp): 4s unknowns per bob ------------------
  using Vector = VecX;
  NewtonEval evaluate(const VecX& x, VecX& r, bool linearize) {
    const int n = model_.bobs();
    const VecX& p = *startMomentum_;
    nodes(x);
    const double hhg = h_ * h_ * model_.g;
    for (int i = 0; i < n; ++i) {
      const double s = scales_.massRatio[i];
      for (int a = 0; a < S; ++a) {
        Vec3 A = s * push(a, x, i);
        for (int j = 1; j <= S; ++j) A += stiffness_[a][j] * x.template segment<3>(kBlock * i + 3 * (j - 1));
        if (a == 0) A += (h_ / model_.masses[i]) * p.template segment<3>(3 * i);
        A[2] -= hhg * load_[a];
        r.template segment<3>(kBlock * i + 3 * a) = A;
      }
      const double l = model_.lengths[i];
      for (int a = 1; a <= S; ++a)
        r[kBlock * i + 3 * S + a - 1] =
            (chainLink(node_[a].data(), i).squaredNorm() - l * l) * (0.5 * scales_.invLength[i]);
    }
    if (!r.allFinite()) return NewtonEval::NonFinite;
    if (linearize) {
      jacobian(x);
      if (!matrix_.factorize()) return NewtonEval::Singular;
    }
    return NewtonEval::Ok;
  }
  double conditionEstimate() const { return matrix_.pivotRatio(); }
  void solve(VecX& b) const { matrix_.solve(b.data()); }
  // Every unknown is a length (positions, and multipliers as the displacement they
  // cause): the largest change relative to the chain's length.
  double size(const VecX& dx) const { return dx.cwiseAbs().maxCoeff() / scales_.lengthScale; }

 private:
  int multiplier(int a) const { return 3 * S + a; }  // offset of μ_a in a block
  // [Dg(X_a)ᵀμ_a]_i = μ_a,i n_i − μ_a,i+1 n_{i+1}.
  Vec3 push(int a, const VecX& x, int i) const {
    Vec3 v = x[kBlock * i + multiplier(a)] * normal_[a][i];
    if (i + 1 < model_.bobs()) v -= x[kBlock * (i + 1) + multiplier(a)] * normal_[a][i + 1];
    return v;
  }

  // The control points X_1…X_s and their normals at x (X_0 = q_k's are set in begin).
  void nodes(const VecX& x) {
    const int n = model_.bobs();
    const VecX& q = *start_;
    node_[0] = q;
    for (int a = 1; a <= S; ++a) {
      for (int i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c) node_[a][3 * i + c] = q[3 * i + c] + x[kBlock * i + 3 * (a - 1) + c];
      for (int i = 0; i < n; ++i) normal_[a][i] = chainLink(node_[a].data(), i) * scales_.invLength[i];
    }
  }

  // The block-tridiagonal Jacobian at x (nodes(x) done). Row block i holds bob i's A_a
  // and link i's C_a; column block j bob j's δ_a and link j's μ_a.
  void jacobian(const VecX& x) {
    const int n = model_.bobs();
    for (int i = 0; i < n; ++i) {
      auto& L = matrix_.lower(i);
      auto& D = matrix_.diag(i);
      auto& U = matrix_.upper(i);
      L.setZero();
      D.setZero();
      U.setZero();
      const double s = scales_.massRatio[i];
      const bool last = i + 1 == n;
      for (int a = 0; a < S; ++a) {
        const int row = 3 * a;
        for (int j = 1; j <= S; ++j)
          for (int c = 0; c < 3; ++c) D(row + c, 3 * (j - 1) + c) = stiffness_[a][j];
        for (int c = 0; c < 3; ++c) {
          D(row + c, multiplier(a)) = s * normal_[a][i][c];
          if (!last) U(row + c, multiplier(a)) = -s * normal_[a][i + 1][c];
        }
        if (a == 0) continue;
        // ∂[Dg(X_a)ᵀμ_a]_i/∂X_a: (μ_i/l_i + μ_{i+1}/l_{i+1}) I on bob i, −μ_i/l_i I on bob
        // i − 1, −μ_{i+1}/l_{i+1} I on bob i + 1.
        const double own = x[kBlock * i + multiplier(a)] * scales_.invLength[i];
        const double next = last ? 0.0 : x[kBlock * (i + 1) + multiplier(a)] * scales_.invLength[i + 1];
        const int col = 3 * (a - 1);
        for (int c = 0; c < 3; ++c) {
          D(row + c, col + c) += s * (own + next);
          if (i > 0) L(row + c, col + c) = -s * own;
          if (!last) U(row + c, col + c) = -s * next;
        }
      }
      // Constraint rows: ∂g_i(X_a)/∂x_i = n_iᵀ, ∂g_i(X_a)/∂x_{i−1} = −n_iᵀ.
      for (int a = 1; a <= S; ++a)
        for (int c = 0; c < 3; ++c) {
          D(3 * S + a - 1, 3 * (a - 1) + c) = normal_[a][i][c];
          if (i > 0) L(3 * S + a - 1, 3 * (a - 1) + c) = -normal_[a][i][c];
        }
    }
  }

  ChainModel model_;
  ChainStageScales scales_;
  GaussTableau t_;
  double h_;
  double load_[S + 1] = {}, stiffness_[S + 1][S + 1] = {};
  VecX x_, previous_, q1_, p1_, node_[S + 1];
  std::vector<Vec3> normal_[S + 1];
  const VecX* start_ = nullptr;
  const VecX* startMomentum_ = nullptr;
  BlockTridiagonal<kBlock> matrix_;
  ChainMomentumProjector projector_;
  NewtonWorkspace<VecX> workspace_;
};

}  // namespace vilab
