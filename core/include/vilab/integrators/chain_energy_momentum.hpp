// Energy–momentum integrator of a chain with the hidden constraint kept at every node:
// Gonzalez's constrained formulation with the velocity-level constraint (Gonzalez 1999,
// the stabilized index-2 form). With z = (q, p), 𝕁 the canonical matrix and
// Φ = (g, π) the position constraints g_i = (|d_i|² − l_i²)/(2 l_i) (d_i = x_i − x_{i−1})
// together with their rates π_i = Dg_i(q) M⁻¹p, the step is
//     z_{k+1} − z_k = h 𝕁 (∇̄H + ∇̄Φᵀ ν),   Φ(z_{k+1}) = 0,                          (1)
// with ∇̄ discrete gradients (Gonzalez 1996). Energy: Φ(z_k) = 0 too, so
// ∇̄Φ Δz = 0 fixes ν = −C⁻¹ ∇̄Φ 𝕁 ∇̄H with C = ∇̄Φ 𝕁 ∇̄Φᵀ skew, and
//     H(z_{k+1}) − H(z_k) = h ∇̄H·𝕁 ∇̄Φᵀ ν = h aᵀ C⁻¹ a = 0,   a = ∇̄Φ 𝕁 ∇̄H.
// H is quadratic plus linear (M constant, uniform gravity), g and π are quadratic in z,
// so every discrete gradient is the gradient at the midpoint z̄ and (1) reads, with
// λ the link forces and μ the multipliers of the rates,
//     q_{k+1} − q_k = h M⁻¹ (p̄ + Dg(q̄)ᵀ μ),                                        (2)
//     p_{k+1} − p_k = −h ∇V − h Dg(q̄)ᵀ λ − h (∂π/∂q)(z̄)ᵀ μ,                          (3)
//     g(q_{k+1}) = 0,   Dg(q_{k+1}) M⁻¹ p_{k+1} = 0.                                   (4)
// Per link, Dg_i has ±d̄_i/l_i and ∂π_i/∂q has ±w̄_i/l_i on bobs i, i−1 (w̄_i the
// midpoint velocity of bob i relative to bob i−1): every force is a central pair, g, π
// and H are invariant under rotations about z, so {J_z, H} = {J_z, Φ} = 0 everywhere
// and the bilinear J_z changes by ∇J_z(z̄)·Δz = 0: kept exactly. The nodal momenta are
// tangent, so H(q_k, p_k) is the energy of the physical motion. The scheme is
// symmetric, of order 2, and not symplectic. Without μ it is the index-3 scheme
// (chain_index3_midpoint.hpp), whose momenta are tangent only at the midpoint.
//
// Newton on x = (Δ_i, s_i, L_i, U_i) per bob i, all in metres: Δ_i the displacement,
// s_i = c_i (p_{k+1} − p_k)_i the one its momentum change brings (c_i = h/(2 m_i)),
// L_i = −c* h λ_i and U_i = 2 c* μ_i with c* = h/(2 m̄), m̄ the mean mass. Each bob's
// equations involve its own and its neighbours' unknowns only: the Jacobian is block
// tridiagonal with 8×8 blocks, solved in O(N) by a block LU (eliminate(); the general
// one of solver/block_tridiagonal.hpp is the tests' reference). The residual is
// quadratic in the unknowns, so its blocks are written out exactly (factorize()), each
// 3×3 part a multiple of the identity or a single row.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "vilab/integrators/chain_index3_midpoint.hpp"
#include "vilab/models/chain.hpp"
#include "vilab/outcome.hpp"
#include "vilab/solver/block_tridiagonal.hpp"
#include "vilab/solver/newton.hpp"

namespace vilab {

class ChainEnergyMomentumIntegrator {
 public:
  static constexpr int kBlock = 8;  // Δ (3), s (3), L, U per bob
  using Blocks = BlockTridiagonal<kBlock>;

  ChainEnergyMomentumIntegrator(const ChainModel& model, double h)
      : model_(model), h_(h), predictor_(model, h), update_(3 * model.bobs()) {
    const int n = model_.bobs();
    double meanMass = 0;
    lengthScale_ = 0;
    for (int i = 0; i < n; ++i) {
      meanMass += model_.masses[i] / n;
      lengthScale_ += model_.lengths[i];
    }
    c_.resize(n);
    ratio_.resize(n);
    for (int i = 0; i < n; ++i) {
      c_[i] = 0.5 * h / model_.masses[i];
      ratio_[i] = meanMass / model_.masses[i];  // c_i / c*
    }
    cStar_ = 0.5 * h / meanMass;
    free_.resize(3 * n);
    velocity_.resize(3 * n);
    x_ = VecX::Zero(kBlock * n);
    previous_ = x_;
    mid_.resize(3 * n);
    midRate_.resize(3 * n);
    end_.resize(3 * n);
    endRate_.resize(3 * n);
    blocks_.resize(n);
    inverse_.resize(n);
    coupling_.resize(n);
  }

  const ChainModel& model() const { return model_; }
  double h() const { return h_; }
  const NewtonReport& lastReport() const { return report_; }
  const VecX& unknowns() const { return x_; }

  // A state loaded from outside starts without carried rounding or multipliers, its
  // momenta projected onto the hidden constraint (the energy argument needs Φ(z_k) = 0;
  // the diagnostics report the energy of that projection already).
  void prepare(State& s) {
    model_.projectMomentum(s.q.data(), s.p.data());
    update_.reset();
    havePrevious_ = false;
  }

  StepOutcome step(VecX& q, VecX& p) {
    const int n = model_.bobs();
    begin(q, p);
    NewtonSettings settings;
    settings.what = "the energy–momentum equations of the step";
    // Predictors, in turn: the index-3 scheme's explicit predictor (a rotation of each
    // link, then the impulses fitted) with the last step's multipliers; the same with
    // other numbers of passes; the index-3 scheme's solution.
    StepOutcome out;
    int spent = 0;
    bool solved = false;
    for (int attempt = 0; attempt < 4 && !solved; ++attempt) {
      if (!predict(attempt)) continue;
      out = solveNewton(*this, x_, settings, workspace_, &report_);
      out.iterations += spent;
      spent = out.iterations;
      solved = out.ok;
    }
    if (!solved) {
      if (spent == 0)
        return StepOutcome::refuse(RefusalCode::SingularMatrix, "two links are folded onto each other",
                                   Suggestion::reduceH());
      return out;
    }

    // q_{k+1} = q_k + Δ, p_{k+1} = p_k + s/c, both sums compensated (CompensatedChainUpdate).
    for (int i = 0; i < n; ++i) {
      const double toMomentum = 1 / c_[i];
      for (int k = 0; k < 3; ++k) {
        const int e = 3 * i + k;
        update_.set(e, q[e], x_[kBlock * i + k], p[e], x_[kBlock * i + 3 + k] * toMomentum);
      }
    }
    out = update_.commit(q, p, out);
    if (!out.ok) return out;
    previous_ = x_;
    havePrevious_ = true;
    return out;
  }

  // Sets up the equations of a step from (q_k, p_k): the index-3 scheme's set-up (link
  // vectors d_i(q_k), read from it, and its predictor's data), free flights h p_i/m_i and
  // velocities p_i/m_i (tests call it to examine the Newton problem).
  void begin(const VecX& q, const VecX& p) {
    q0_ = &q;
    p0_ = &p;
    predictor_.begin(q, p);
    for (int i = 0; i < model_.bobs(); ++i)
      for (int k = 0; k < 3; ++k) {
        free_[3 * i + k] = 2 * c_[i] * p[3 * i + k];
        velocity_[3 * i + k] = p[3 * i + k] / model_.masses[i];
      }
  }

  // Predictor `attempt`: 0 and 1 the index-3 scheme's explicit predictor (three and six
  // passes), 2 its one-pass form, 3 the index-3 scheme solved; s_i = Δ_i − h p_i/m_i
  // and L from it, U from the last step (zero after a load).
  bool predict(int attempt) {
    static constexpr int kPasses[3] = {ChainIndexThreeMidpoint::kPredictorPasses, 6, 1};
    if (attempt < 3) {
      if (!predictor_.predict(kPasses[attempt])) return false;
    } else {
      if (!predictor_.step(predictorQ_ = *q0_, predictorP_ = *p0_).ok) return false;
    }
    const VecX& y = predictor_.unknowns();
    for (int i = 0; i < model_.bobs(); ++i) {
      double* xi = x_.data() + kBlock * i;
      for (int k = 0; k < 3; ++k) {
        xi[k] = y[4 * i + k];
        xi[3 + k] = xi[k] - free_[3 * i + k];
      }
      xi[6] = cStar_ * y[4 * i + 3];
      xi[7] = havePrevious_ ? previous_[kBlock * i + 7] : 0.0;
    }
    return x_.allFinite();
  }

  // ---- the Newton problem (solver/newton.hpp) -----------------------------------------
  using Vector = VecX;

  NewtonEval evaluate(const VecX& x, VecX& r, bool linearize) {
    residual(x.data(), r.data());
    if (!r.allFinite()) return NewtonEval::NonFinite;
    if (linearize && !factorize(x)) return NewtonEval::Singular;
    return NewtonEval::Ok;
  }

  double conditionEstimate() const { return pivotRatio_; }

  // b ← J⁻¹ b with the last factorization: forward w_i = S_i⁻¹ (b_i − L_i w_{i−1}), back
  // z_i = w_i − X_i z_{i+1}, L_i applied by its pattern (see eliminate()).
  void solve(VecX& b) const {
    const int n = model_.bobs();
    double* v = b.data();
    double rhs[kBlock];
    for (int i = 0; i < n; ++i) {
      double* z = v + kBlock * i;
      for (int r = 0; r < kBlock; ++r) rhs[r] = z[r];
      if (i > 0) applyLower(blocks_.lower(i), z - kBlock, rhs);
      const Square& inverse = inverse_[i];
      for (int r = 0; r < kBlock; ++r) {
        double sum = 0;
        for (int c = 0; c < kBlock; ++c) sum += inverse[r][c] * rhs[c];
        z[r] = sum;
      }
    }
    for (int i = n - 2; i >= 0; --i) {
      const Square& coupling = coupling_[i];
      double* z = v + kBlock * i;
      const double* next = z + kBlock;
      for (int r = 0; r < kBlock; ++r) {
        double sum = 0;
        for (int c = 0; c < kBlock; ++c) sum += coupling[r][c] * next[c];
        z[r] -= sum;
      }
    }
  }
  double size(const VecX& dx) const { return dx.cwiseAbs().maxCoeff() / lengthScale_; }

  // The blocks of the last linearization (tests compare them with the residual).
  const Blocks& jacobian() const { return blocks_; }

  // The residual of (2)–(4), per bob i, in metres:
  //     R1_i = Δ_i − h p_i/m_i − s_i − ρ_i (U_i ā_i − U_{i+1} ā_{i+1}),
  //     R2_i = s_i + (h² g/2) e_z − ρ_i (L_i ā_i − L_{i+1} ā_{i+1}) + ρ_i (h/2) (U_i ŵ_i − U_{i+1} ŵ_{i+1}),
  //     R3_i = (|d_i'|² − l_i²)/(2 l_i),   R4_i = h d_i'·w_i'/l_i,
  // with ρ_i = c_i/c*, ā_i = (d_i + y_i/2)/l_i, d_i' = d_i + y_i (y_i = Δ_i − Δ_{i−1}),
  // ŵ_i = w̄_i/l_i and w', w̄ the relative velocities at the end and the midpoint
  // (bob velocities p_i/m_i + 2 s_i/h and p_i/m_i + s_i/h).
  void residual(const double* x, double* r) const {
    const int n = model_.bobs();
    const double hg = 0.5 * h_ * h_ * model_.g;
    // The previous link's ā, ŵ and the current one's, carried through the sweep.
    double aNext[3], wNext[3], a[3], w[3];
    linkTerms(x, 0, a, w, r + 6);
    for (int i = 0; i < n; ++i) {
      const double* xi = x + kBlock * i;
      const bool last = i + 1 == n;
      if (!last) linkTerms(x, i + 1, aNext, wNext, r + kBlock * (i + 1) + 6);
      const double L = xi[6], U = xi[7], Ln = last ? 0.0 : xi[kBlock + 6], Un = last ? 0.0 : xi[kBlock + 7];
      const double rho = ratio_[i];
      for (int k = 0; k < 3; ++k) {
        const double an = last ? 0.0 : aNext[k], wn = last ? 0.0 : wNext[k];
        r[kBlock * i + k] = xi[k] - free_[3 * i + k] - xi[3 + k] - rho * (U * a[k] - Un * an);
        r[kBlock * i + 3 + k] = xi[3 + k] - rho * (L * a[k] - Ln * an) + rho * 0.5 * h_ * (U * w[k] - Un * wn);
      }
      r[kBlock * i + 5] += hg;
      for (int k = 0; k < 3; ++k) {
        a[k] = aNext[k];
        w[k] = wNext[k];
      }
    }
  }

 private:
  // Link i's ā_i and ŵ_i, and its two constraint residuals into out[0], out[1]; where
  // asked, d_i' and w_i' too (the Jacobian's).
  void linkTerms(const double* x, int i, double* a, double* w, double* out, double* end = nullptr,
                 double* endRate = nullptr) const {
    const double* xi = x + kBlock * i;
    const double* xp = i > 0 ? x - kBlock + kBlock * i : nullptr;
    const double il = 1 / model_.lengths[i], invH = 1 / h_;
    const double* start = predictor_.linkStart(i);
    double lengthSquared = 0, rate = 0;
    for (int k = 0; k < 3; ++k) {
      const double y = xi[k] - (xp ? xp[k] : 0.0);
      const double d = start[k];
      a[k] = (d + 0.5 * y) * il;
      const double e = d + y;
      lengthSquared += e * e;
      const double v0 = velocity_[3 * i + k] - (i > 0 ? velocity_[3 * i - 3 + k] : 0.0);
      const double ds = xi[3 + k] - (xp ? xp[3 + k] : 0.0);
      w[k] = (v0 + ds * invH) * il;
      const double v1 = v0 + 2 * ds * invH;
      rate += e * v1;
      if (end) {
        end[k] = e;
        endRate[k] = v1;
      }
    }
    out[0] = (lengthSquared - model_.lengths[i] * model_.lengths[i]) * (0.5 * il);
    out[1] = h_ * rate * il;
  }

  // The exact blocks of the residual's Jacobian, then their block LU. With
  // κ_i = ρ_i U_i/(2 l_i), κ'_i = ρ_i U_{i+1}/(2 l_{i+1}) and the same with L for ν_i, ν'_i,
  // bob row i has (the 3×3 parts are multiples of the identity):
  //     ∂R1_i/∂Δ_{i−1,i,i+1} = κ_i, 1 − κ_i − κ'_i, κ'_i;   ∂R1_i/∂s_i = −1;
  //     ∂R1_i/∂U_i = −ρ_i ā_i,   ∂R1_i/∂U_{i+1} = ρ_i ā_{i+1};
  //     ∂R2_i/∂Δ_{i−1,i,i+1} = ν_i, −ν_i − ν'_i, ν'_i;   ∂R2_i/∂s_{i−1,i,i+1} = −κ_i, 1 + κ_i + κ'_i, −κ'_i;
  //     ∂R2_i/∂L_i = −ρ_i ā_i,   ∂R2_i/∂L_{i+1} = ρ_i ā_{i+1};
  //     ∂R2_i/∂U_i = ρ_i (h/2) ŵ_i,   ∂R2_i/∂U_{i+1} = −ρ_i (h/2) ŵ_{i+1};
  //     ∂R3_i/∂Δ_i = −∂R3_i/∂Δ_{i−1} = d_i'ᵀ/l_i;
  //     ∂R4_i/∂Δ_i = −∂R4_i/∂Δ_{i−1} = h w_i'ᵀ/l_i,   ∂R4_i/∂s_i = −∂R4_i/∂s_{i−1} = 2 d_i'ᵀ/l_i.
  bool factorize(const VecX& x) {
    const int n = model_.bobs();
    const double* z = x.data();
    double unused[2];
    for (int i = 0; i < n; ++i)
      linkTerms(z, i, mid_.data() + 3 * i, midRate_.data() + 3 * i, unused, end_.data() + 3 * i,
                endRate_.data() + 3 * i);
    const double halfH = 0.5 * h_;
    for (int i = 0; i < n; ++i) {
      const bool last = i + 1 == n;
      const double rho = ratio_[i], il = 1 / model_.lengths[i];
      const double half = 0.5 * il, halfNext = last ? 0.0 : 0.5 / model_.lengths[i + 1];
      const double L = z[kBlock * i + 6], U = z[kBlock * i + 7];
      const double Ln = last ? 0.0 : z[kBlock * i + kBlock + 6], Un = last ? 0.0 : z[kBlock * i + kBlock + 7];
      const double kappa = rho * U * half, kappaNext = rho * Un * halfNext;
      const double nu = rho * L * half, nuNext = rho * Ln * halfNext;
      const double* a = mid_.data() + 3 * i;
      const double* w = midRate_.data() + 3 * i;
      const double* d = end_.data() + 3 * i;
      const double* v = endRate_.data() + 3 * i;
      Blocks::Block& D = blocks_.diag(i);
      D.setZero();
      for (int c = 0; c < 3; ++c) {
        D(c, c) = 1 - kappa - kappaNext;
        D(c, 3 + c) = -1;
        D(c, 7) = -rho * a[c];
        D(3 + c, c) = -nu - nuNext;
        D(3 + c, 3 + c) = 1 + kappa + kappaNext;
        D(3 + c, 6) = -rho * a[c];
        D(3 + c, 7) = rho * halfH * w[c];
        D(6, c) = d[c] * il;
        D(7, c) = h_ * v[c] * il;
        D(7, 3 + c) = 2 * d[c] * il;
      }
      if (i > 0) {
        Blocks::Block& B = blocks_.lower(i);
        B.setZero();
        for (int c = 0; c < 3; ++c) {
          B(c, c) = kappa;
          B(3 + c, c) = nu;
          B(3 + c, 3 + c) = -kappa;
          B(6, c) = -d[c] * il;
          B(7, c) = -h_ * v[c] * il;
          B(7, 3 + c) = -2 * d[c] * il;
        }
      }
      if (!last) {
        // ā_{i+1}, ŵ_{i+1}: the next link's, formed above.
        const double* an = a + 3;
        const double* wn = w + 3;
        Blocks::Block& C = blocks_.upper(i);
        C.setZero();
        for (int c = 0; c < 3; ++c) {
          C(c, c) = kappaNext;
          C(c, 7) = rho * an[c];
          C(3 + c, c) = nuNext;
          C(3 + c, 3 + c) = -kappaNext;
          C(3 + c, 6) = rho * an[c];
          C(3 + c, 7) = -rho * halfH * wn[c];
        }
      }
    }
    return eliminate();
  }

  // An 8×8 block, row-major.
  struct Square {
    double a[kBlock][kBlock];
    double* operator[](int r) { return a[r]; }
    const double* operator[](int r) const { return a[r]; }
  };

  // (row i's lower block) · v subtracted from out: its only entries are κ_i, ν_i, −κ_i on
  // the 3×3 diagonals and the rows of R3, R4 (factorize()).
  static void applyLower(const Blocks::Block& B, const double* v, double* out) {
    for (int c = 0; c < 3; ++c) {
      out[c] -= B(c, c) * v[c];
      out[3 + c] -= B(3 + c, c) * v[c] + B(3 + c, 3 + c) * v[3 + c];
      out[6] -= B(6, c) * v[c];
      out[7] -= B(7, c) * v[c] + B(7, 3 + c) * v[3 + c];
    }
  }

  // Block LU without pivoting between blocks (as solver/block_tridiagonal.hpp, the tests'
  // reference): S_0 = D_0, S_i = D_i − L_i X_{i−1}, X_i = S_i⁻¹ U_i, with L_i and U_i
  // applied by their patterns (a fifth of the dense products' work) and S_i inverted by
  // Gauss–Jordan with partial pivoting inside the block. The condition estimate is the
  // block LU's: max ‖S_i‖ · max ‖S_i⁻¹‖ (largest entries).
  bool eliminate() {
    const int n = model_.bobs();
    double largest = 0, largestInverse = 0;
    pivotRatio_ = std::numeric_limits<double>::infinity();
    for (int i = 0; i < n; ++i) {
      // S_i is formed where its inverse goes and inverted there: no 512-byte copy (in wasm
      // a copy that large leaves the module: emscripten's memcpy hands it to JS).
      Square& S = inverse_[i];
      const Blocks::Block& D = blocks_.diag(i);
      for (int r = 0; r < kBlock; ++r)
        for (int c = 0; c < kBlock; ++c) S[r][c] = D(r, c);
      if (i > 0) {
        const Square& X = coupling_[i - 1];
        for (int c = 0; c < kBlock; ++c) {
          double column[kBlock];
          for (int r = 0; r < kBlock; ++r) column[r] = X[r][c];
          double out[kBlock] = {S[0][c], S[1][c], S[2][c], S[3][c], S[4][c], S[5][c], S[6][c], S[7][c]};
          applyLower(blocks_.lower(i), column, out);
          for (int r = 0; r < kBlock; ++r) S[r][c] = out[r];
        }
      }
      double norm = 0;
      for (int r = 0; r < kBlock; ++r)
        for (int c = 0; c < kBlock; ++c) norm = std::max(norm, std::abs(S[r][c]));
      if (!invert(S)) return false;
      const Square& inverse = S;
      double normInverse = 0;
      for (int r = 0; r < kBlock; ++r)
        for (int c = 0; c < kBlock; ++c) normInverse = std::max(normInverse, std::abs(inverse[r][c]));
      if (!(norm < std::numeric_limits<double>::infinity()) || !(normInverse < std::numeric_limits<double>::infinity()))
        return false;
      largest = std::max(largest, norm);
      largestInverse = std::max(largestInverse, normInverse);
      if (i + 1 < n) couple(inverse, blocks_.upper(i), coupling_[i]);
    }
    pivotRatio_ = largest * largestInverse;
    return true;
  }

  // X = S⁻¹ U for row i's upper block U, whose only entries are κ'_i, ν'_i, −κ'_i on the
  // 3×3 diagonals and the columns of L_{i+1}, U_{i+1} in the rows of R1, R2.
  static void couple(const Square& inverse, const Blocks::Block& U, Square& X) {
    for (int r = 0; r < kBlock; ++r) {
      const double* s = inverse[r];
      double* x = X[r];
      x[6] = 0;
      x[7] = 0;
      for (int c = 0; c < 3; ++c) {
        x[c] = s[c] * U(c, c) + s[3 + c] * U(3 + c, c);
        x[3 + c] = s[3 + c] * U(3 + c, 3 + c);
        x[6] += s[3 + c] * U(3 + c, 6);
        x[7] += s[c] * U(c, 7) + s[3 + c] * U(3 + c, 7);
      }
    }
  }

  // In-place Gauss–Jordan with partial pivoting (each eliminated column becomes the
  // inverse's, the row exchanges undone on the columns at the end): half the work of
  // reducing [S | I]. False on a zero pivot.
  static bool invert(Square& A) {
    int exchange[kBlock];
    for (int k = 0; k < kBlock; ++k) {
      int p = k;
      for (int r = k + 1; r < kBlock; ++r)
        if (std::abs(A[r][k]) > std::abs(A[p][k])) p = r;
      exchange[k] = p;
      if (p != k)
        for (int c = 0; c < kBlock; ++c) std::swap(A[k][c], A[p][c]);
      if (!(A[k][k] != 0)) return false;
      const double f = 1 / A[k][k];
      A[k][k] = 1;
      for (int c = 0; c < kBlock; ++c) A[k][c] *= f;
      for (int r = 0; r < kBlock; ++r) {
        if (r == k) continue;
        const double m = A[r][k];
        A[r][k] = 0;
        for (int c = 0; c < kBlock; ++c) A[r][c] -= m * A[k][c];
      }
    }
    for (int k = kBlock - 1; k >= 0; --k)
      if (exchange[k] != k)
        for (int r = 0; r < kBlock; ++r) std::swap(A[r][k], A[r][exchange[k]]);
    return true;
  }

  ChainModel model_;
  double h_;
  ChainIndexThreeMidpoint predictor_;
  double lengthScale_ = 1, cStar_ = 1;
  std::vector<double> c_, ratio_;
  VecX free_, velocity_;  // h p_i/m_i; p_i/m_i
  const VecX* q0_ = nullptr;
  const VecX* p0_ = nullptr;
  VecX x_, previous_;
  bool havePrevious_ = false;
  VecX mid_, midRate_, end_, endRate_;      // per link, at the last linearization: ā_i, ŵ_i, d_i', w_i'
  Blocks blocks_;                           // D_i, L_i, U_i (assembled; the tests read them)
  std::vector<Square> inverse_, coupling_;  // S_i⁻¹, X_i
  double pivotRatio_ = 1;
  VecX predictorQ_, predictorP_;
  CompensatedChainUpdate update_;
  NewtonWorkspace<VecX> workspace_;
  NewtonReport report_;
};

}  // namespace vilab
