// The 3-stage Lobatto IIIA–IIIB pair (order 4, symplectic, symmetric) with SPARK /
// RATTLE-type multipliers for holonomic constraints (Jay 1996), derived variationally
// by Marsden & West §2.6: the Galerkin discrete Lagrangian of quadratic polynomials
// through q_k, q_{k+1/2}, q_{k+1} with the 3-point Lobatto (Simpson) quadrature,
//     L_d(q_k, q_{k+1}) = ext_{q_{k+1/2}} h Σ_i b_i L(Q_i, Q̇_i),   b = (1/6, 2/3, 1/6).
//
// Stage form (Jay 1996, eqs. 2.1–2.4), for L = ½ q̇ᵀMq̇ − V(q) with constant M and
// f = −∇V: with IIIA coefficients a_ij for q and IIIB coefficients â_ij for p,
//     Q_i = q_k + h Σ_j a_ij M⁻¹ P_j,   P_i = p_k + h Σ_j â_ij (f(Q_j) − Dg(Q_j)ᵀΛ_j),
//     q_{k+1} = q_k + h Σ_j b_j M⁻¹ P_j,   p_{k+1} = p_k + h Σ_j b_j (f(Q_j) − Dg(Q_j)ᵀΛ_j),
//     g(Q_2) = 0,   g(q_{k+1}) = 0,   Dg(q_{k+1}) M⁻¹ p_{k+1} = 0.
// Q_1 = q_k (a_1j = 0) and â_i3 = 0, so Λ_3 only enters p_{k+1}: it is the RATTLE
// projection of p_{k+1} onto the hidden constraint. Eliminating P,
//     Q_2 − q_k = h c_2 M⁻¹p_k + h² M⁻¹ Σ_{j≤2} α_j F_j,        α_j = Σ_i a_2i â_ij,
//     q_{k+1} − q_k = h M⁻¹p_k + h² M⁻¹ Σ_{j≤2} β_j F_j,       β_j = Σ_i b_i â_ij,
// F_j = f(Q_j) − Dg(Q_j)ᵀΛ_j: α = (1/12, 1/24), β = (1/6, 1/3) for the Lobatto pair.
// This is the Galerkin map of M–W §2.6 with λ_k = −(h/6)Λ_1, λ_{k+1/2} = −(2h/3)Λ_2
// (for quadratic L: M–W Thm 2.6.2 and the LobattoLagrangian form below).
//
// Galerkin DEL form (M–W §2.6, any regular L; systems defined by data): nodes
// Q_0 = q_k, Q_1 = q_{k+1/2}, Q_2 = q_{k+1}, velocities Q̇_i = (1/h) Σ_j D_ij Q_j of the
// quadratic through them, D = [[−3, 4, −1], [−1, 0, 1], [1, −4, 3]], and
//     ∂L_d/∂Q_a = h b_a L_q(Q_a, Q̇_a) + Σ_i b_i D_ia L_q̇(Q_i, Q̇_i).
// The constrained DEL (W–M 4.4–4.5, with g imposed at every node):
//     p_k + ∂L_d/∂Q_0 + Dg(q_k)ᵀλ_k = 0,   ∂L_d/∂Q_1 + Dg(Q_1)ᵀλ_{k+1/2} = 0,
//     g(Q_1) = 0,   g(Q_2) = 0,   p_{k+1} = ∂L_d/∂Q_2 projected onto tangent momenta.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "vilab/integrators/chain_stages.hpp"
#include "vilab/models/chain.hpp"
#include "vilab/models/lagrangian.hpp"
#include "vilab/models/oscillator.hpp"
#include "vilab/outcome.hpp"
#include "vilab/solver/block_tridiagonal.hpp"
#include "vilab/solver/newton.hpp"
#include "vilab/solver/small_lu.hpp"

namespace vilab {

// The coefficients of a 3-stage partitioned method with the Lobatto structure
// a_1j = 0 (Q_1 = q_k) and â_i3 = 0 (the last multiplier only projects p_{k+1}).
// Injectable, so that tests can check that a wrong table is caught.
struct LobattoTableau {
  double a[3][3];     // IIIA: positions
  double aHat[3][3];  // IIIB: momenta
  double b[3];        // weights (the Lobatto/Simpson quadrature)

  // Lobatto IIIA–IIIB, s = 3 (Hairer–Lubich–Wanner, Table II.2.2; Jay 1996).
  static LobattoTableau iiiaIiib() {
    return {{{0, 0, 0}, {5.0 / 24, 1.0 / 3, -1.0 / 24}, {1.0 / 6, 2.0 / 3, 1.0 / 6}},
            {{1.0 / 6, -1.0 / 6, 0}, {1.0 / 6, 1.0 / 3, 0}, {1.0 / 6, 5.0 / 6, 0}},
            {1.0 / 6, 2.0 / 3, 1.0 / 6}};
  }
  double c2() const { return a[1][0] + a[1][1] + a[1][2]; }
  double weightSum() const { return b[0] + b[1] + b[2]; }
  // α_j = Σ_i a_2i â_ij: the weight of F_j in Q_2.
  double alpha(int j) const { return a[1][0] * aHat[0][j] + a[1][1] * aHat[1][j] + a[1][2] * aHat[2][j]; }
  // β_j = Σ_i b_i â_ij: the weight of F_j in q_{k+1}.
  double beta(int j) const { return b[0] * aHat[0][j] + b[1] * aHat[1][j] + b[2] * aHat[2][j]; }
};

// ---- The oscillator: L = ½ m ẋ² − ½ k x², no constraints --------------------------
// Unknowns (δ_2, δ_3) = (Q_2 − q_k, q_{k+1} − q_k); F_j = −k Q_j.
class LobattoOscillator {
 public:
  LobattoOscillator(const OscillatorModel& model, double h, LobattoTableau t = LobattoTableau::iiiaIiib())
      : model_(model), t_(t), h_(h) {}

  StepOutcome step(VecX& q, VecX& p) {
    q0_ = q[0];
    hv_ = h_ / model_.mass * p[0];
    scale_ = 1.0 + std::abs(q0_) + std::abs(hv_);
    // Predictor: the explicit stages with F_2 ≈ F_1.
    const double f0 = -model_.stiffness * q0_, hh = h_ * h_ / model_.mass;
    x_ << t_.c2() * hv_ + hh * (t_.alpha(0) + t_.alpha(1)) * f0,
        t_.weightSum() * hv_ + hh * (t_.beta(0) + t_.beta(1)) * f0;
    NewtonSettings settings;
    settings.what = "the Lobatto stages";
    const StepOutcome out = solveNewton(*this, x_, settings, workspace_);
    if (!out.ok) return out;
    const double q1 = q0_ + x_[1];
    // p_{k+1} = p_k + h Σ b_j f(Q_j) (impulse form).
    const double p1 =
        p[0] + h_ * (t_.b[0] * f0 + t_.b[1] * (-model_.stiffness * (q0_ + x_[0])) + t_.b[2] * (-model_.stiffness * q1));
    if (!std::isfinite(q1) || !std::isfinite(p1))
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                                 out.iterations);
    q[0] = q1;
    p[0] = p1;
    return out;
  }

  using Vector = Eigen::Vector2d;
  NewtonEval evaluate(const Vector& x, Vector& r, bool linearize) {
    const double k = model_.stiffness, hh = h_ * h_ / model_.mass;
    const double f1 = -k * q0_, f2 = -k * (q0_ + x[0]);
    r[0] = x[0] - t_.c2() * hv_ - hh * (t_.alpha(0) * f1 + t_.alpha(1) * f2);
    r[1] = x[1] - t_.weightSum() * hv_ - hh * (t_.beta(0) * f1 + t_.beta(1) * f2);
    if (!r.allFinite()) return NewtonEval::NonFinite;
    if (linearize) {
      j00_ = 1 + hh * t_.alpha(1) * k;
      j10_ = hh * t_.beta(1) * k;
      if (!(std::abs(j00_) > 0)) return NewtonEval::Singular;
    }
    return NewtonEval::Ok;
  }
  double conditionEstimate() const { return std::max(std::abs(j00_), 1.0) / std::min(std::abs(j00_), 1.0); }
  void solve(Vector& b) const {
    b[0] /= j00_;
    b[1] -= j10_ * b[0];
  }
  double size(const Vector& dx) const { return dx.cwiseAbs().maxCoeff() / scale_; }

 private:
  OscillatorModel model_;
  LobattoTableau t_;
  double h_, q0_ = 0, hv_ = 0, scale_ = 1, j00_ = 1, j10_ = 0;
  Vector x_ = Vector::Zero();
  NewtonWorkspace<Vector> workspace_{Vector::Zero(), Vector::Zero()};
};

// ---- Chains: stage form with O(N) block-tridiagonal Newton ------------------------
// Constant diagonal M and uniform gravity (M⁻¹f = −g e_z). Unknowns per bob i (block i
// of 8): δ2_i = Q_2 − q_k and δ3_i = q_{k+1} − q_k (3 each), and the multipliers of
// link i scaled to lengths, μ_j = h² Λ_j / m̄ (m̄ the mean mass). Residuals per block:
//     A_i = δ2_i − h c_2 v_i + h²(α_1+α_2) g e_z + (m̄/m_i) [α_1 Dg(q_k)ᵀμ_1 + α_2 Dg(Q_2)ᵀμ_2]_i
//     B_i = δ3_i − h v_i + h²(β_1+β_2) g e_z + (m̄/m_i) [β_1 Dg(q_k)ᵀμ_1 + β_2 Dg(Q_2)ᵀμ_2]_i
//     C_i = g_i(Q_2),   D_i = g_i(q_{k+1}),
// with [Dgᵀμ]_i = μ_i a_i − μ_{i+1} a_{i+1}, a_i = d_i / l_i (link i's normal). Link i
// touches bobs i−1 and i, so the Newton matrix is block tridiagonal (8×8 blocks), in
// metres per metre: O(N) per iteration, like the α-family's multiplier path.
class LobattoChain {
 public:
  static constexpr int kBlock = 8;
  LobattoChain(const ChainModel& model, double h, LobattoTableau t = LobattoTableau::iiiaIiib())
      : model_(model), scales_(model), t_(t), h_(h) {
    const int n = model_.bobs();
    for (int i = 0; i < n; ++i) hOverMass_.push_back(h / model_.masses[i]);
    x_ = VecX::Zero(kBlock * n);
    previous_.resize(0);
    q2_.resize(3 * n);
    q3_.resize(3 * n);
    q1_.resize(3 * n);
    p1_.resize(3 * n);
    normalStart_.resize(n);
    normal2_.resize(n);
    normal3_.resize(n);
    impulse1_.resize(n);
    impulse2_.resize(n);
    matrix_.resize(n);
  }

  const ChainModel& model() const { return model_; }

  // A new state (load, setState): no previous step to predict the multipliers from.
  void prepare(State&) { previous_.resize(0); }

  StepOutcome step(VecX& q, VecX& p) {
    const int n = model_.bobs();
    begin(q, p);
    NewtonSettings settings;
    settings.what = "the Lobatto stages and link constraints";
    const StepOutcome out = solveNewton(*this, x_, settings, workspace_);
    if (!out.ok) return out;
    evaluateStages(x_);  // the normals and impulses at the solution

    // q_{k+1} = q_k + δ3 (rounded once); p_{k+1} = p_k + h Σ_j b_j F_j in impulse form:
    //     p_{k+1} = p_k − h (Σ b) m g e_z − (m̄/h) [b_1 Dg(q_k)ᵀμ_1 + b_2 Dg(Q_2)ᵀμ_2],
    // then Λ_3: the projection onto Dg(q_{k+1}) M⁻¹ p_{k+1} = 0 (RATTLE's second kick).
    const double weights = t_.weightSum(), perH = scales_.massMean / h_;
    for (int i = 0; i < n; ++i) {
      const Vec3 impulse = perH * (t_.b[0] * impulse1_[i] + t_.b[1] * impulse2_[i]);
      for (int c = 0; c < 3; ++c) {
        q1_[3 * i + c] = q[3 * i + c] + x_[kBlock * i + 3 + c];
        p1_[3 * i + c] = p[3 * i + c] - impulse[c];
      }
      p1_[3 * i + 2] -= h_ * weights * model_.masses[i] * model_.g;
    }
    StepOutcome done = commitChainStep(model_, projector_, q1_, p1_, q, p, out);
    if (done.ok) previous_ = x_;
    return done;
  }

  // The start of a step from (q_k, p_k): normals at q_k and the predictor (public, so
  // that tests can check the Newton problem on its own). The predictor is the explicit
  // stage formulas with Dg(Q_2) ≈ Dg(q_k) and the previous step's multipliers (zero
  // after a load): positions within O(h³) of the solution.
  void begin(const VecX& q, const VecX& p) {
    const int n = model_.bobs();
    start_ = &q;
    startMomentum_ = &p;
    for (int i = 0; i < n; ++i) normalStart_[i] = chainLink(q.data(), i) * scales_.invLength[i];
    if (previous_.size() == x_.size())
      x_ = previous_;
    else
      x_.setZero();
    for (int i = 0; i < n; ++i) {
      const Vec3 push1 = pushAt(normalStart_, x_, 6, i), push2 = pushAt(normalStart_, x_, 7, i);
      for (int c = 0; c < 3; ++c) {
        const double hv = hOverMass_[i] * p[3 * i + c];
        x_[kBlock * i + c] = t_.c2() * hv - scales_.massRatio[i] * (t_.alpha(0) * push1[c] + t_.alpha(1) * push2[c]);
        x_[kBlock * i + 3 + c] =
            t_.weightSum() * hv - scales_.massRatio[i] * (t_.beta(0) * push1[c] + t_.beta(1) * push2[c]);
      }
      x_[kBlock * i + 2] -= h_ * h_ * (t_.alpha(0) + t_.alpha(1)) * model_.g;
      x_[kBlock * i + 5] -= h_ * h_ * (t_.beta(0) + t_.beta(1)) * model_.g;
    }
  }
  const VecX& unknowns() const { return x_; }

  // ---- the Newton problem (solver/newton.hpp): 8 unknowns per bob ------------------
  using Vector = VecX;
  NewtonEval evaluate(const VecX& x, VecX& r, bool linearize) {
    const int n = model_.bobs();
    const VecX& p = *startMomentum_;
    evaluateStages(x);
    const double hh = h_ * h_ * model_.g;
    const double a1 = t_.alpha(0), a2 = t_.alpha(1), b1 = t_.beta(0), b2 = t_.beta(1);
    for (int i = 0; i < n; ++i) {
      const double s = scales_.massRatio[i];
      for (int c = 0; c < 3; ++c) {
        const double hv = hOverMass_[i] * p[3 * i + c];
        r[kBlock * i + c] = x[kBlock * i + c] - t_.c2() * hv + s * (a1 * impulse1_[i][c] + a2 * impulse2_[i][c]);
        r[kBlock * i + 3 + c] =
            x[kBlock * i + 3 + c] - t_.weightSum() * hv + s * (b1 * impulse1_[i][c] + b2 * impulse2_[i][c]);
      }
      r[kBlock * i + 2] += hh * (a1 + a2);
      r[kBlock * i + 5] += hh * (b1 + b2);
      const double l = model_.lengths[i];
      const Vec3 d2 = chainLink(q2_.data(), i), d3 = chainLink(q3_.data(), i);
      r[kBlock * i + 6] = (d2.squaredNorm() - l * l) * (0.5 * scales_.invLength[i]);
      r[kBlock * i + 7] = (d3.squaredNorm() - l * l) * (0.5 * scales_.invLength[i]);
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
  // [Dgᵀμ]_i = μ_i a_i − μ_{i+1} a_{i+1} with the multipliers at offset `at` of each block.
  Vec3 pushAt(const std::vector<Vec3>& a, const VecX& x, int at, int i) const {
    Vec3 push = x[kBlock * i + at] * a[i];
    if (i + 1 < model_.bobs()) push -= x[kBlock * (i + 1) + at] * a[i + 1];
    return push;
  }

  // Q_2, q_{k+1}, their normals and the impulses Dg(q_k)ᵀμ_1, Dg(Q_2)ᵀμ_2 at x.
  void evaluateStages(const VecX& x) {
    const int n = model_.bobs();
    const VecX& q = *start_;
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) {
        q2_[3 * i + c] = q[3 * i + c] + x[kBlock * i + c];
        q3_[3 * i + c] = q[3 * i + c] + x[kBlock * i + 3 + c];
      }
    for (int i = 0; i < n; ++i) {
      normal2_[i] = chainLink(q2_.data(), i) * scales_.invLength[i];
      normal3_[i] = chainLink(q3_.data(), i) * scales_.invLength[i];
    }
    for (int i = 0; i < n; ++i) {
      impulse1_[i] = pushAt(normalStart_, x, 6, i);
      impulse2_[i] = pushAt(normal2_, x, 7, i);
    }
  }

  // The block-tridiagonal Jacobian at x (evaluateStages(x) done). Row block i holds
  // bob i's A_i, B_i and link i's C_i, D_i; column block j bob j's δ2, δ3 and link j's μ.
  void jacobian(const VecX& x) {
    using Block = BlockTridiagonal<kBlock>::Block;
    const int n = model_.bobs();
    const double a1 = t_.alpha(0), a2 = t_.alpha(1), b1 = t_.beta(0), b2 = t_.beta(1);
    for (int i = 0; i < n; ++i) {
      Block& L = matrix_.lower(i);
      Block& D = matrix_.diag(i);
      Block& U = matrix_.upper(i);
      L.setZero();
      D.setZero();
      U.setZero();
      const double s = scales_.massRatio[i];
      const bool last = i + 1 == n;
      // ∂[Dg(Q_2)ᵀμ_2]_i/∂Q_2: (μ_i/l_i + μ_{i+1}/l_{i+1}) I on bob i, −μ_i/l_i I on bob
      // i−1, −μ_{i+1}/l_{i+1} I on bob i+1.
      const double own = x[kBlock * i + 7] * scales_.invLength[i];
      const double next = last ? 0.0 : x[kBlock * (i + 1) + 7] * scales_.invLength[i + 1];
      for (int c = 0; c < 3; ++c) {
        D(c, c) = 1 + s * a2 * (own + next);
        D(3 + c, 3 + c) = 1;
        D(3 + c, c) = s * b2 * (own + next);
        if (i > 0) {
          L(c, c) = -s * a2 * own;
          L(3 + c, c) = -s * b2 * own;
        }
        if (!last) {
          U(c, c) = -s * a2 * next;
          U(3 + c, c) = -s * b2 * next;
        }
        // Multiplier columns: link i pushes bob i along a_i, link i+1 pulls it back.
        D(c, 6) = s * a1 * normalStart_[i][c];
        D(c, 7) = s * a2 * normal2_[i][c];
        D(3 + c, 6) = s * b1 * normalStart_[i][c];
        D(3 + c, 7) = s * b2 * normal2_[i][c];
        if (!last) {
          U(c, 6) = -s * a1 * normalStart_[i + 1][c];
          U(c, 7) = -s * a2 * normal2_[i + 1][c];
          U(3 + c, 6) = -s * b1 * normalStart_[i + 1][c];
          U(3 + c, 7) = -s * b2 * normal2_[i + 1][c];
        }
        // Constraint rows: ∂g_i/∂x_i = a_iᵀ, ∂g_i/∂x_{i−1} = −a_iᵀ.
        D(6, c) = normal2_[i][c];
        D(7, 3 + c) = normal3_[i][c];
        if (i > 0) {
          L(6, c) = -normal2_[i][c];
          L(7, 3 + c) = -normal3_[i][c];
        }
      }
    }
  }

  ChainModel model_;
  ChainStageScales scales_;
  LobattoTableau t_;
  double h_;
  std::vector<double> hOverMass_;
  VecX x_, previous_, q1_, p1_, q2_, q3_;
  std::vector<Vec3> normalStart_, normal2_, normal3_, impulse1_, impulse2_;
  const VecX* start_ = nullptr;
  const VecX* startMomentum_ = nullptr;
  BlockTridiagonal<kBlock> matrix_;
  ChainMomentumProjector projector_;
  NewtonWorkspace<VecX> workspace_;
};

// ---- Systems defined by data: the Galerkin DEL form ------------------------------
// Unknowns x = (δ_m, λ_m | δ_1, λ_0): δ_m = q_{k+1/2} − q_k, δ_1 = q_{k+1} − q_k and the
// multipliers at q_{k+1/2} and q_k. The Newton matrix [[A, B], [C, D]] has
//     A = [[K_11, Dg(Q_1)ᵀ], [Dg(Q_1), 0]]   (the midpoint node's own KKT matrix),
//     B = [[K_12, 0], [0, 0]],   C = [[K_01, 0], [0, 0]],   D = [[K_02, Dg(q_k)ᵀ], [Dg(Q_2), 0]],
// K_aj = ∂²L_d/∂Q_a∂Q_j = h b_a δ_aj L_qq^a + b_a D_aj L_qq̇^a + b_j D_ja L_q̇q^j + Σ_i b_i D_ia D_ij L_q̇q̇^i / h,
// and is solved through the Schur complement D − C A⁻¹ B: two LUs of at most n + c ≤ 32
// unknowns (the small matrices). The term Σ_k λ_m,k ∇²g_k(Q_1) of ∂(Dg(Q_1)ᵀλ_m)/∂Q_1 in
// K_11 is a central difference of Dg(Q_1)ᵀλ_m (the compiled programs give Dg, not ∇²g):
// it only shapes the Newton matrix, never the root. Time-dependent L is sampled at the
// nodes' times t_k, t_k + h/2, t_k + h (M–W Part 4).
using LobattoVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 2 * kMaxSmallSize, 1>;

class LobattoLagrangian {
 public:
  LobattoLagrangian(std::shared_ptr<const LagrangianProblem> problem, double h,
                    LobattoTableau t = LobattoTableau::iiiaIiib())
      : eval_(std::move(problem)), h_(h), b_{t.b[0], t.b[1], t.b[2]} {}

  // A new state (load, setState): no previous step to predict from.
  void prepare(State&) { previous_.resize(0); }
  // t_k of the step (the Simulation's clock).
  void setTime(double t) { t_ = t; }

  StepOutcome step(VecX& q, VecX& p) {
    const int n = eval_.n(), c = eval_.c();
    q0_ = &q;
    p0_ = &p;
    if (c > 0) eval_.constraints(q.data(), g_, &G0_);
    qScale_ = 1.0 + q.cwiseAbs().maxCoeff();
    pScale_ = 1.0 + p.cwiseAbs().maxCoeff();

    // Predictor: the previous step's (δ, λ), within O(h²); after a load the straight
    // line through the current velocity, δ_m = h v/2, δ_1 = h v, λ = 0.
    if (previous_.size() == 2 * (n + c)) {
      x_ = previous_;
    } else {
      x_ = LobattoVector::Zero(2 * (n + c));
      SmallVec v;
      if (explicitPredictor(eval_, q, p, t_, v)) {
        x_.segment(0, n) = (0.5 * h_) * v;
        x_.segment(n + c, n) = h_ * v;
      }
    }
    NewtonSettings settings;
    settings.fullNewton = false;  // the Jacobian leaves out λ·∇²g: simplified Newton
    settings.what = "the Lobatto discrete Euler–Lagrange equations";
    const StepOutcome out = solveNewton(*this, x_, settings, workspace_);
    if (!out.ok) return out;

    // p_{k+1} = ∂L_d/∂Q_2 = p_k + Dg(q_k)ᵀλ_0 + Dg(Q_1)ᵀλ_m + h Σ_j b_j L_q(Q_j, Q̇_j)
    // (Σ_a ∂L_d/∂Q_a = h Σ b_j L_q^j), then the tangent part (the RATTLE multiplier).
    nodes(x_, c > 0);
    q1_ = q + x_.segment(n + c, n);
    p1_ = p;
    for (int j = 0; j < 3; ++j) p1_ += (h_ * b_[j]) * Lq_[j];
    if (c > 0) {
      p1_.noalias() += G0_.transpose().lazyProduct(x_.segment(2 * n + c, c));
      p1_.noalias() += Gm_.transpose().lazyProduct(x_.segment(n, c));
      if (!eval_.projectMomentum(q1_.data(), p1_.data(), t_ + h_))
        return StepOutcome::refuse(RefusalCode::SingularMatrix,
                                   "the constraints' gradients became linearly dependent at the new configuration",
                                   Suggestion::reduceH(), out.iterations);
    }
    if (!q1_.allFinite() || !p1_.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                                 out.iterations);
    q.swap(q1_);
    p.swap(p1_);
    previous_ = x_;
    return out;
  }

  // ---- the Newton problem ------------------------------------------------------------
  using Vector = LobattoVector;
  NewtonEval evaluate(const Vector& x, Vector& r, bool linearize) {
    const int n = eval_.n(), c = eval_.c();
    nodes(x, true);
    r.resize(2 * (n + c));
    // ∂L_d/∂Q_a = h b_a L_q^a + Σ_i b_i D_ia L_q̇^i.
    SmallVec dLd1 = (h_ * b_[1]) * Lq_[1], dLd0 = (h_ * b_[0]) * Lq_[0];
    for (int i = 0; i < 3; ++i) {
      dLd1 += (b_[i] * kD[i][1]) * Lv_[i];
      dLd0 += (b_[i] * kD[i][0]) * Lv_[i];
    }
    r.segment(0, n) = dLd1;
    r.segment(n + c, n) = dLd0 + Eigen::Map<const Eigen::VectorXd>(p0_->data(), n);
    if (c > 0) {
      r.segment(0, n) += Gm_.transpose().lazyProduct(x.segment(n, c));
      r.segment(n, c) = gm_;
      r.segment(n + c, n) += G0_.transpose().lazyProduct(x.segment(2 * n + c, c));
      r.segment(2 * n + c, c) = g1_;
    }
    if (!r.allFinite()) return NewtonEval::NonFinite;
    if (linearize) return factorize(x);
    return NewtonEval::Ok;
  }
  double conditionEstimate() const { return ratio_; }
  void solve(Vector& rhs) const {
    const int n = eval_.n(), c = eval_.c(), m = n + c;
    SmallVec ya = rhs.segment(0, m), rb = rhs.segment(m, m);
    luA_.solveInPlace(ya);
    rb.head(n).noalias() -= K01_.lazyProduct(ya.head(n));
    luS_.solveInPlace(rb);
    ya.noalias() -= AinvB_.lazyProduct(rb.head(n));
    rhs.segment(0, m) = ya;
    rhs.segment(m, m) = rb;
  }
  // Positions relative to their size; multipliers by the momentum change they cause.
  double size(const Vector& dx) const {
    const int n = eval_.n(), c = eval_.c();
    double s = std::max(dx.segment(0, n).cwiseAbs().maxCoeff(), dx.segment(n + c, n).cwiseAbs().maxCoeff()) / qScale_;
    if (c > 0) {
      s = std::max(s, SmallVec(Gm_.transpose().lazyProduct(dx.segment(n, c))).cwiseAbs().maxCoeff() / pScale_);
      s = std::max(s, SmallVec(G0_.transpose().lazyProduct(dx.segment(2 * n + c, c))).cwiseAbs().maxCoeff() / pScale_);
    }
    return s;
  }

 private:
  // The derivatives of the quadratic's basis at the nodes: Q̇_i = (1/h) Σ_j D_ij Q_j.
  static constexpr double kD[3][3] = {{-3, 4, -1}, {-1, 0, 1}, {1, -4, 3}};

  // Node positions, velocities and L's gradient there (and the constraints at Q_1, Q_2).
  void nodes(const Vector& x, bool constraints) {
    const int n = eval_.n(), c = eval_.c();
    const VecX& q = *q0_;
    const SmallVec dMid = x.segment(0, n), d1 = x.segment(n + c, n);
    node_[0] = q;
    node_[1] = q + dMid;
    node_[2] = q + d1;
    // Σ_j D_ij = 0: velocities from the displacements, Q̇_i = (D_i1 δ_m + D_i2 δ_1)/h.
    for (int i = 0; i < 3; ++i) {
      vel_[i] = (kD[i][1] * dMid + kD[i][2] * d1) / h_;
      eval_.gradient(node_[i].data(), vel_[i].data(), Lq_[i], Lv_[i], t_ + kNodeTime[i] * h_);
    }
    if (constraints && c > 0) {
      eval_.constraints(node_[1].data(), gm_, &Gm_);
      eval_.constraints(node_[2].data(), g1_, &G1_);
    }
  }

  NewtonEval factorize(const Vector& x) {
    const int n = eval_.n(), c = eval_.c(), m = n + c;
    for (int i = 0; i < 3; ++i)
      eval_.hessian(node_[i].data(), vel_[i].data(), Lqq_[i], Lqv_[i], Lvv_[i], t_ + kNodeTime[i] * h_);
    const auto K = [&](int a, int j) {
      SmallMat k = SmallMat::Zero(n, n);
      if (a == j) k += (h_ * b_[a]) * Lqq_[a];
      k += (b_[a] * kD[a][j]) * Lqv_[a];
      k += (b_[j] * kD[j][a]) * Lqv_[j].transpose();
      for (int i = 0; i < 3; ++i) k += (b_[i] * kD[i][a] * kD[i][j] / h_) * Lvv_[i];
      return k;
    };
    SmallMat A = SmallMat::Zero(m, m), S = SmallMat::Zero(m, m), B = SmallMat::Zero(m, n);
    A.topLeftCorner(n, n) = K(1, 1);
    if (c > 0) A.topLeftCorner(n, n) += constraintCurvature(x.segment(n, c));
    B.topRows(n) = K(1, 2);
    K01_ = K(0, 1);
    S.topLeftCorner(n, n) = K(0, 2);
    if (c > 0) {
      A.topRightCorner(n, c) = Gm_.transpose();
      A.bottomLeftCorner(c, n) = Gm_;
      S.topRightCorner(n, c) = G0_.transpose();
      S.bottomLeftCorner(c, n) = G1_;
    }
    if (!A.allFinite() || !B.allFinite() || !S.allFinite()) return NewtonEval::NonFinite;
    if (!luA_.compute(A)) return NewtonEval::Singular;
    AinvB_ = luA_.solve(B);
    S.topLeftCorner(n, n).noalias() -= K01_.lazyProduct(AinvB_.topRows(n));
    if (!luS_.compute(S)) return NewtonEval::Singular;
    ratio_ = std::max(luA_.pivotRatio(), luS_.pivotRatio());
    return NewtonEval::Ok;
  }

  // Σ_k λ_k ∇²g_k(Q_1) by central differences of Dg(Q_1)ᵀλ, column by column.
  SmallMat constraintCurvature(const SmallVec& lambda) {
    const int n = eval_.n();
    SmallMat H(n, n);
    VecX shifted = node_[1];
    SmallVec g;
    SmallMat plus, minus;
    for (int j = 0; j < n; ++j) {
      const double step = 1e-5 * (1.0 + std::abs(node_[1][j]));
      shifted[j] = node_[1][j] + step;
      eval_.constraints(shifted.data(), g, &plus);
      shifted[j] = node_[1][j] - step;
      eval_.constraints(shifted.data(), g, &minus);
      shifted[j] = node_[1][j];
      H.col(j) = (plus - minus).transpose().lazyProduct(lambda) / (2 * step);
    }
    return H;
  }

  static constexpr double kNodeTime[3] = {0, 0.5, 1};

  LagrangianEval eval_;
  double h_, t_ = 0;
  double b_[3];
  const VecX* q0_ = nullptr;
  const VecX* p0_ = nullptr;
  double qScale_ = 1, pScale_ = 1, ratio_ = 1;
  Vector x_, previous_;
  VecX node_[3], q1_, p1_;
  SmallVec vel_[3], Lq_[3], Lv_[3], g_, gm_, g1_;
  SmallMat Lqq_[3], Lqv_[3], Lvv_[3], G0_, Gm_, G1_, K01_, AinvB_;
  SmallLU luA_, luS_;
  NewtonWorkspace<Vector> workspace_;
};

}  // namespace vilab
