// The index-3 midpoint scheme of a chain: Gonzalez's discrete gradient with the
// constraints imposed on positions only (Gonzalez 1999, the index-3 formulation).
// The chain's Hamiltonian is quadratic plus linear (M constant, uniform gravity) and
// its constraints are quadratic, so the discrete gradient is the gradient at the
// midpoint and the scheme is the implicit midpoint rule with the impulse at q̄:
//     q_{k+1} − q_k = h M⁻¹ p̄,                 p̄ = (p_k + p_{k+1})/2          (1)
//     p_{k+1} − p_k = −h ∇V + Dg(q̄)ᵀ Λ,       q̄ = (q_k + q_{k+1})/2          (2)
//     g(q_{k+1}) = 0,   g_i = (|d_i|² − l_i²)/(2 l_i),  d_i = x_i − x_{i−1}.   (3)
// It keeps H(q, p) and J_z exactly, but the momenta satisfy the hidden constraint only
// at the midpoint, Dg(q̄) M⁻¹ p̄ = 0: the nodal momenta carry velocity along the links,
// and H(q, p) is then not the energy of the physical (tangent) motion. The
// energy–momentum integrator (chain_energy_momentum.hpp) adds the velocity-level
// constraint; this scheme gives it its predictor and the tests their negative control.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "vilab/limits.hpp"
#include "vilab/models/chain.hpp"
#include "vilab/outcome.hpp"
#include "vilab/solver/block_tridiagonal.hpp"
#include "vilab/solver/newton.hpp"

namespace vilab {

// q_{k+1} = q_k + Δq and p_{k+1} = p_k + Δp for the chain steps, both sums compensated:
// what rounding drops is carried (integrator-private state, reset on load) into the next
// step's sums. Uncompensated, that rounding leaves a one-signed trend in energy and J_z
// (DSP, h = 0.01, 1e6 steps: about 6e-14 each; compensated about 1e-14, without trend).
class CompensatedChainUpdate {
 public:
  explicit CompensatedChainUpdate(int size)
      : q1_(size),
        p1_(size),
        carryQ_(VecX::Zero(size)),
        carryP_(VecX::Zero(size)),
        carryQ1_(carryQ_),
        carryP1_(carryP_) {}

  void reset() {
    carryQ_.setZero();
    carryP_.setZero();
  }
  // Entry e of the new state from q_k[e] + dq and p_k[e] + dp.
  void set(int e, double q, double dq, double p, double dp) {
    q1_[e] = compensatedSum(q, dq, carryQ_[e], carryQ1_[e]);
    p1_[e] = compensatedSum(p, dp, carryP_[e], carryP1_[e]);
  }
  // The new state into (q, p) and out returned; a state not finite is refused, (q, p)
  // and the carries kept.
  StepOutcome commit(VecX& q, VecX& p, const StepOutcome& out) {
    if (!q1_.allFinite() || !p1_.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                                 out.iterations);
    q.swap(q1_);
    p.swap(p1_);
    carryQ_.swap(carryQ1_);
    carryP_.swap(carryP1_);
    return out;
  }

 private:
  // a + (b + carry), and in dropped what rounding drops from it (Knuth's TwoSum: exact
  // for any magnitudes, so a coordinate that crosses zero is handled too).
  static double compensatedSum(double a, double b, double carry, double& dropped) {
    const double s = b + carry, t = a + s, v = t - a;
    dropped = (a - (t - v)) + (s - v);
    return t;
  }

  VecX q1_, p1_;
  VecX carryQ_, carryP_, carryQ1_, carryP1_;  // rounding carried from the last step's sums
};

// ---- chain: full Newton, O(N) per iteration ------------------------------------------
// Unknowns per bob/link i: Δ_i = x_i(t_{k+1}) − x_i(t_k) and the impulse Λ_i of link i
// (joining bobs i−1 and i), ordered z_i = (Δ_i, Λ_i). Eliminating p_{k+1} from (1)–(2):
//     F1_i = Δ_i − h/m_i (p_i − (h/2) ∇V_i) − c_i (Λ_i ā_i − Λ_{i+1} ā_{i+1}) = 0,
//     F2_i = g_i(q_k + Δ) = 0,
// with c_i = h/(2 m_i), ā_i = d̄_i/l_i, d̄_i = d_i(q_k) + y_i/2 and y_i = Δ_i − Δ_{i−1} the
// change of link i. Dg(q̄)ᵀΛ = K(Λ) q̄ is linear in q̄ (K a chain Laplacian with weights
// Λ_i/l_i), so with κ_i = Λ_i/(2 l_i) and b_i = d_i(q_k + Δ)/l_i the Jacobian is
//     ∂F1_i/∂Δ_{i−1} = c_i κ_i I,   ∂F1_i/∂Δ_i = (1 − c_i (κ_i + κ_{i+1})) I,
//     ∂F1_i/∂Δ_{i+1} = c_i κ_{i+1} I,   ∂F1_i/∂Λ_i = −c_i ā_i,   ∂F1_i/∂Λ_{i+1} = c_i ā_{i+1},
//     ∂F2_i/∂Δ_i = −∂F2_i/∂Δ_{i−1} = b_iᵀ:
// block tridiagonal with 4×4 blocks (jacobian() assembles them). Full Newton on it
// converges quadratically; freezing ā in the Jacobian, as a simplified iteration
// would, leaves a linear rate of about h²(g + v²/l)/(4l).
//
// The Newton systems J dz = r are solved exactly in O(N) by a block elimination that
// uses their structure (factorize(), solve()): 3×3 work per link and no assembled
// blocks, cheaper than a general block LU on the 4×4 blocks (solver/block_tridiagonal.hpp,
// which the tests use as the reference).
//
// Update sizes (the Newton policy's units): both unknowns by how far they move the bobs,
// relative to the chain's length: |dΔ_i|, and for the impulses the momentum change
// dp_i = (Dg(q̄)ᵀ dΛ)_i through the displacement c_i dp_i it brings in F1.
class ChainIndexThreeMidpoint {
 public:
  // Predictor passes (predict()): three make the first Newton update small enough that
  // two iterations reach rounding at h = 0.01. Should Newton not converge (large steps,
  // violent motion), the step is tried again from the one-pass and from a six-pass
  // predictor, which sit in other basins.
  static constexpr int kPredictorPasses = 3;
  static constexpr int kRetryPasses[2] = {1, 6};

  ChainIndexThreeMidpoint(const ChainModel& model, double h) : model_(model), h_(h), update_(3 * model.bobs()) {
    const int n = model_.bobs();
    lengthScale_ = 0;
    for (int i = 0; i < n; ++i) lengthScale_ += model_.lengths[i];
    links_.resize(n);
    for (int i = 0; i < n; ++i) {
      Link& k = links_[i];
      k.c = 0.5 * h / model_.masses[i];
      k.cPrevious = i > 0 ? links_[i - 1].c : 0.0;
      k.t = k.c + k.cPrevious;
      k.invLength = 1.0 / model_.lengths[i];
      k.lengthSquared = model_.lengths[i] * model_.lengths[i];
      k.weight = model_.masses[i] * model_.g;
    }
    sweep_.resize(3 * n);
    x_.resize(4 * n);
  }

  const ChainModel& model() const { return model_; }
  double h() const { return h_; }
  // The Newton report of the last attempt (iterations, update sizes).
  const NewtonReport& lastReport() const { return report_; }
  // The unknowns (Δ_i, Λ_i) of the last predictor or solve.
  const VecX& unknowns() const { return x_; }
  // Link i's vector d_i(q_k) at the last begin().
  const double* linkStart(int i) const { return links_[i].start; }

  // A state loaded from outside starts without carried rounding (see stage 3).
  void prepare(State&) { update_.reset(); }

  StepOutcome step(VecX& q, VecX& p) {
    const int n = model_.bobs();

    // Stage 1: the data of the step: link vectors d_i(q_k), and the free flight
    // h M⁻¹ (p_k − (h/2)∇V), ∇V = (0, 0, m_i g) per bob.
    begin(q, p);

    // Stage 2: Newton on F(Δ, Λ) = 0 from the predictor.
    NewtonSettings settings;
    settings.what = "the implicit midpoint equations of the step";
    if (!predict(kPredictorPasses))
      return StepOutcome::refuse(RefusalCode::SingularMatrix, "two links are folded onto each other",
                                 Suggestion::reduceH());
    StepOutcome out = solveNewton(*this, x_, settings, workspace_, &report_);
    for (int passes : kRetryPasses) {
      if (out.ok) break;
      const int spent = out.iterations;
      if (!predict(passes)) break;
      out = solveNewton(*this, x_, settings, workspace_, &report_);
      out.iterations += spent;
    }
    if (!out.ok) return out;

    // Stage 3: q_{k+1} = q_k + Δ and the impulse form of (2),
    //     p_{k+1} = p_k − h∇V + Dg(q̄)ᵀΛ,
    // with ā at the final Δ, so that (1)–(3) hold together and the impulse does no work;
    // both sums compensated (CompensatedChainUpdate).
    linkGeometry(x_.data());
    for (int i = 0; i < n; ++i) {
      const Link& k = links_[i];
      const double lambda = x_[4 * i + 3], next = i + 1 < n ? x_[4 * i + 7] : 0.0;
      const double* nextMid = i + 1 < n ? links_[i + 1].mid : k.mid;
      for (int c = 0; c < 3; ++c) {
        const int e = 3 * i + c;
        double dp = lambda * k.mid[c] - next * nextMid[c];
        if (c == 2) dp -= h_ * k.weight;
        update_.set(e, q[e], x_[4 * i + c], p[e], dp);
      }
    }
    return update_.commit(q, p, out);
  }

  // Sets up the equations of a step from (q, p) (stage 1; tests call it to examine
  // the Newton problem).
  void begin(const VecX& q, const VecX& p) {
    const int n = model_.bobs();
    for (int i = 0; i < n; ++i) {
      Link& k = links_[i];
      const double hm = 2 * k.c;
      for (int c = 0; c < 3; ++c) k.start[c] = q[3 * i + c] - (i > 0 ? q[3 * i - 3 + c] : 0.0);
      k.flight[0] = hm * p[3 * i];
      k.flight[1] = hm * p[3 * i + 1];
      k.flight[2] = hm * (p[3 * i + 2] - 0.5 * h_ * k.weight);
      for (int c = 0; c < 3; ++c) k.linkFlight[c] = k.flight[c] - (i > 0 ? links_[i - 1].flight[c] : 0.0);
    }
  }

  // The predictor, from (q_k, p_k) alone. Pass 1 turns each link by the rotation the
  // midpoint rule gives a free rigid link moving with its own free flight
  // ê_i = ff_i − ff_{i−1}: the Cayley map of a_i = d_i × ê_i/(2 l_i²) (for a ⊥ d,
  // d₁ = ((1 − |a|²) d + 2 a × d)/(1 + |a|²)). It is exact for a free rotor, stays on the
  // manifold, and follows turns of a radian per step where a straight-line guess leaves
  // Newton's basin. Λ is then fitted to F1 along the predicted ā: in link form F1 reads
  //     y_i − ê_i = t_i Λ_i ā_i − c_i Λ_{i+1} ā_{i+1} − c_{i−1} Λ_{i−1} ā_{i−1} =: w_i − ê_i,
  // whose projection on ā_i is a tridiagonal system for Λ. Pass 2 adds the impulses:
  // with w_i from pass 1, the solution has y_i = w_i − (w_i·â_i) â_i (the chord is normal
  // to the midpoint direction), evaluated with pass 1's â_i and put back on the sphere,
  // then Λ is fitted again with pass 1's factorization. Each pass costs a fraction of a
  // Newton iteration and makes the predictor about ten times closer.
  bool predict(int passes) {
    const int n = model_.bobs();
    double largest = 0, smallest = std::numeric_limits<double>::infinity();
    for (int pass = 0; pass < passes; ++pass) {
      double delta[3] = {0, 0, 0}, before = 0;
      for (int i = 0; i < n; ++i) {
        Link& k = links_[i];
        const double* d = k.start;
        const double* e = k.linkFlight;
        double y[3];
        if (pass == 0) {
          const double s = 0.5 * k.invLength * k.invLength;
          const double a0 = (d[1] * e[2] - d[2] * e[1]) * s, a1 = (d[2] * e[0] - d[0] * e[2]) * s,
                       a2 = (d[0] * e[1] - d[1] * e[0]) * s;
          const double aa = a0 * a0 + a1 * a1 + a2 * a2, f = 2 / (1 + aa);
          y[0] = f * ((a1 * d[2] - a2 * d[1]) - aa * d[0]);
          y[1] = f * ((a2 * d[0] - a0 * d[2]) - aa * d[1]);
          y[2] = f * ((a0 * d[1] - a1 * d[0]) - aa * d[2]);
        } else {
          const double lambda = x_[4 * i + 3] * k.t, next = i + 1 < n ? x_[4 * i + 7] * k.c : 0.0;
          const double* midAfter = i + 1 < n ? links_[i + 1].mid : k.mid;
          const double* a = k.mid;
          double w[3];
          for (int c = 0; c < 3; ++c) w[c] = e[c] + lambda * a[c] - before * previousMid_[c] - next * midAfter[c];
          before = x_[4 * i + 3] * k.c;
          for (int c = 0; c < 3; ++c) previousMid_[c] = a[c];
          const double wa = dot(w, a) / dot(a, a);
          double d1[3];
          for (int c = 0; c < 3; ++c) d1[c] = d[c] + w[c] - wa * a[c];
          const double scale = 1 / (k.invLength * std::sqrt(dot(d1, d1)));
          for (int c = 0; c < 3; ++c) y[c] = d1[c] * scale - d[c];
        }
        for (int c = 0; c < 3; ++c) {
          delta[c] += y[c];
          x_[4 * i + c] = delta[c];
          k.mid[c] = (d[c] + 0.5 * y[c]) * k.invLength;
        }
        double rhs = k.mid[0] * (y[0] - e[0]) + k.mid[1] * (y[1] - e[1]) + k.mid[2] * (y[2] - e[2]);
        // The fit's matrix is symmetric tridiagonal: diagonal t_i |ā_i|², off-diagonal
        // −c_{i−1} ā_i·ā_{i−1}. Pass 1 factorizes it (Thomas, reciprocal pivots) as it
        // goes; every pass runs the forward substitution here and the back one below.
        if (pass == 0) {
          const double off = i > 0 ? -k.cPrevious * dot(k.mid, links_[i - 1].mid) : 0.0;
          const double ratio = i > 0 ? off * links_[i - 1].fitInvPivot : 0.0;
          const double pivot = k.t * dot(k.mid, k.mid) - off * ratio;
          k.fitOff = off;
          k.fitInvPivot = 1 / pivot;
          if (i > 0) links_[i - 1].fitRatio = ratio;
          largest = std::max(largest, std::abs(pivot));
          smallest = std::min(smallest, std::abs(pivot));
        }
        if (i > 0) rhs -= k.fitOff * x_[4 * i - 1];
        x_[4 * i + 3] = rhs * k.fitInvPivot;
      }
      for (int i = n - 2; i >= 0; --i) x_[4 * i + 3] -= links_[i].fitRatio * x_[4 * i + 7];
      if (pass == 0 && !(smallest > 0 && largest / smallest < limits::kSingularPivotRatio)) return false;
    }
    return true;
  }

  // ---- the Newton problem (solver/newton.hpp): x = (Δ_0, Λ_0, Δ_1, Λ_1, …) -----------
  using Vector = VecX;

  NewtonEval evaluate(const VecX& x, VecX& r, bool linearize) {
    const int n = model_.bobs();
    const double* z = x.data();
    double* out = r.data();
    linkGeometry(z);
    double sum = 0;
    for (int i = 0; i < n; ++i) {
      const Link& k = links_[i];
      const double* zi = z + 4 * i;
      const double next = i + 1 < n ? zi[7] : 0.0;
      const double* nextMid = i + 1 < n ? links_[i + 1].mid : k.mid;
      for (int c = 0; c < 3; ++c) {
        out[4 * i + c] = zi[c] - k.flight[c] - k.c * (zi[3] * k.mid[c] - next * nextMid[c]);
        sum += out[4 * i + c];
      }
      const double* d = k.end;
      out[4 * i + 3] = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - k.lengthSquared) * (0.5 * k.invLength);
      sum += out[4 * i + 3];
    }
    if (!std::isfinite(sum)) return NewtonEval::NonFinite;
    if (linearize && !factorize(z)) return NewtonEval::Singular;
    return NewtonEval::Ok;
  }

  double conditionEstimate() const { return pivotRatio_; }

  // b ← J⁻¹ b (see factorize()): link rows ρ_i = b1_i − b1_{i−1}; a forward sweep for
  // ρ̂_i and φ_i, a back sweep for f_i, λ_i and y_i; then dΔ_i = Σ_{j≤i} y_j.
  void solve(VecX& b) const {
    const int n = model_.bobs();
    double* v = b.data();
    double* rh = sweep_.data();
    double phi0 = 0, phi1 = 0, phi2 = 0, prev0 = 0, prev1 = 0, prev2 = 0;
    for (int i = 0; i < n; ++i) {
      const Link& k = links_[i];
      const double* bi = v + 4 * i;
      const double c = k.cPrevious;
      const double r0 = bi[0] - prev0 - c * phi0, r1 = bi[1] - prev1 - c * phi1, r2 = bi[2] - prev2 - c * phi2;
      prev0 = bi[0];
      prev1 = bi[1];
      prev2 = bi[2];
      rh[3 * i] = r0;
      rh[3 * i + 1] = r1;
      rh[3 * i + 2] = r2;
      const double* H = k.H;
      const double s = bi[3] * k.invSigma;
      phi0 = H[0] * r0 + H[1] * r1 + H[2] * r2 + s * k.u[0];
      phi1 = H[3] * r0 + H[4] * r1 + H[5] * r2 + s * k.u[1];
      phi2 = H[6] * r0 + H[7] * r1 + H[8] * r2 + s * k.u[2];
    }
    double f0 = 0, f1 = 0, f2 = 0;
    for (int i = n - 1; i >= 0; --i) {
      const Link& k = links_[i];
      const double c = k.c;
      const double g0 = rh[3 * i] - c * f0, g1 = rh[3 * i + 1] - c * f1, g2 = rh[3 * i + 2] - c * f2;
      const double* Q = k.Pinv;
      const double w0 = Q[0] * g0 + Q[1] * g1 + Q[2] * g2;
      const double w1 = Q[3] * g0 + Q[4] * g1 + Q[5] * g2;
      const double w2 = Q[6] * g0 + Q[7] * g1 + Q[8] * g2;
      const double lambda = (v[4 * i + 3] - (k.end[0] * w0 + k.end[1] * w1 + k.end[2] * w2)) * k.invSigma;
      const double y0 = w0 + lambda * k.v[0], y1 = w1 + lambda * k.v[1], y2 = w2 + lambda * k.v[2];
      f0 = k.kappa * y0 + lambda * k.mid[0];
      f1 = k.kappa * y1 + lambda * k.mid[1];
      f2 = k.kappa * y2 + lambda * k.mid[2];
      rh[3 * i] = y0;
      rh[3 * i + 1] = y1;
      rh[3 * i + 2] = y2;
      v[4 * i + 3] = lambda;
    }
    double d0 = 0, d1 = 0, d2 = 0;
    for (int i = 0; i < n; ++i) {
      d0 += rh[3 * i];
      d1 += rh[3 * i + 1];
      d2 += rh[3 * i + 2];
      v[4 * i] = d0;
      v[4 * i + 1] = d1;
      v[4 * i + 2] = d2;
    }
  }

  double size(const VecX& dx) const {
    const int n = model_.bobs();
    const double* z = dx.data();
    double worst = 0;
    for (int i = 0; i < n; ++i) {
      const Link& k = links_[i];
      const double next = i + 1 < n ? z[4 * i + 7] : 0.0;
      const double* nextMid = i + 1 < n ? links_[i + 1].mid : k.mid;
      for (int c = 0; c < 3; ++c) {
        const double dp = z[4 * i + 3] * k.mid[c] - next * nextMid[c];
        worst = std::max(worst, std::max(std::abs(z[4 * i + c]), k.c * std::abs(dp)));
      }
    }
    return worst / lengthScale_;
  }

  // The 4×4 blocks of J at the last linearization, as written in the header comment
  // (for tests: the structured solve must invert exactly this matrix).
  void jacobian(BlockTridiagonal<4>& J) const {
    const int n = model_.bobs();
    J.resize(n);
    for (int i = 0; i < n; ++i) {
      const Link& k = links_[i];
      const double kappaNext = i + 1 < n ? links_[i + 1].kappa : 0.0;
      auto& D = J.diag(i);
      D.setZero();
      D.topLeftCorner<3, 3>().diagonal().setConstant(1 - k.c * (k.kappa + kappaNext));
      for (int c = 0; c < 3; ++c) {
        D(c, 3) = -k.c * k.mid[c];
        D(3, c) = k.end[c];
      }
      if (i > 0) {
        auto& L = J.lower(i);
        L.setZero();
        L.topLeftCorner<3, 3>().diagonal().setConstant(k.c * k.kappa);
        for (int c = 0; c < 3; ++c) L(3, c) = -k.end[c];
      }
      if (i + 1 < n) {
        auto& U = J.upper(i);
        U.setZero();
        U.topLeftCorner<3, 3>().diagonal().setConstant(k.c * kappaNext);
        for (int c = 0; c < 3; ++c) U(c, 3) = k.c * links_[i + 1].mid[c];
      }
    }
  }

 private:
  // Per link: constants, the data of the step, of the last evaluation and of the
  // factorization.
  struct Link {
    double c = 0, cPrevious = 0, t = 0;  // c_i = h/(2 m_i), c_{i−1}, t_i = c_i + c_{i−1}
    double invLength = 0, lengthSquared = 0, weight = 0;
    double start[3] = {}, flight[3] = {};              // d_i(q_k); free flight ff_i of bob i
    double linkFlight[3] = {};                         // ê_i = ff_i − ff_{i−1}
    double fitOff = 0, fitInvPivot = 0, fitRatio = 0;  // the predictor's fit of Λ
    double mid[3] = {}, end[3] = {};                   // ā_i; d_i(q_k + Δ), after factorize b_i
    double kappa = 0;
    double H[9] = {}, Pinv[9] = {};  // H_i; P_i⁻¹ (row-major)
    double invSigma = 0;
    double u[3] = {}, v[3] = {};  // P_i⁻¹ ā_i; P_i⁻¹ W_i ā_i
  };

  static double dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

  // ā_i = (d_i(q_k) + y_i/2)/l_i and d_i(q_k + Δ) = d_i(q_k) + y_i, y_i = Δ_i − Δ_{i−1}.
  void linkGeometry(const double* z) {
    for (int i = 0; i < model_.bobs(); ++i) {
      Link& k = links_[i];
      for (int c = 0; c < 3; ++c) {
        const double y = z[4 * i + c] - (i > 0 ? z[4 * i - 4 + c] : 0.0);
        k.mid[c] = (k.start[c] + 0.5 * y) * k.invLength;
        k.end[c] = k.start[c] + y;
      }
    }
  }

  // Block elimination of J in link form, top link first. With f_j = κ_j y_j + ā_j λ_j the
  // change of link j's force, bob row i of J dz = r reads dΔ_i − c_i (f_i − f_{i+1}) = r1_i;
  // the difference of neighbouring bob rows gives one row per link,
  //     y_i − t_i f_i + c_{i−1} f_{i−1} + c_i f_{i+1} = ρ_i = r1_i − r1_{i−1},
  // with b_i·y_i = r2_i. Rows above i leave f_{i−1} = φ_{i−1} − c_{i−1} H_{i−1} f_i, so
  //     y_i − W_i f_i = ρ̂_i − c_i f_{i+1},   W_i = t_i I + c_{i−1}² H_{i−1},  ρ̂_i = ρ_i − c_{i−1} φ_{i−1},
  // and with P_i = I − κ_i W_i, g_i = ρ̂_i − c_i f_{i+1}, σ_i = b_i·P_i⁻¹ W_i ā_i:
  //     λ_i = (r2_i − b_i·P_i⁻¹ g_i)/σ_i,   y_i = P_i⁻¹ g_i + λ_i P_i⁻¹ W_i ā_i,
  //     f_i = H_i g_i + P_i⁻¹ ā_i r2_i/σ_i,   H_i = κ_i P_i⁻¹ − P_i⁻¹ ā_i (P_i⁻ᵀ b_i)ᵀ/σ_i.
  // 3×3 work per link. W_i commutes with P_i, so σ_i det P_i = (adj P_iᵀ b_i)·(W_i ā_i) and
  // one division serves both P_i⁻¹ and 1/σ_i. Pivots: the blocks P_i (by |det P_i|) and
  // the multiplier pivots σ_i/t_i, both dimensionless.
  bool factorize(const double* z) {
    const int n = model_.bobs();
    double largest = 0, smallest = std::numeric_limits<double>::infinity();
    // H_{i−1}, carried in locals (row-major).
    double G0 = 0, G1 = 0, G2 = 0, G3 = 0, G4 = 0, G5 = 0, G6 = 0, G7 = 0, G8 = 0;
    for (int i = 0; i < n; ++i) {
      Link& k = links_[i];
      const double il = k.invLength, t = k.t, cc = k.cPrevious * k.cPrevious;
      const double kappa = 0.5 * z[4 * i + 3] * il;
      const double b0 = k.end[0] * il, b1 = k.end[1] * il, b2 = k.end[2] * il;
      const double m0 = k.mid[0], m1 = k.mid[1], m2 = k.mid[2];
      // P = (1 − κt) I − κ c² H_{i−1};  W ā = t ā + c² H_{i−1} ā.
      const double alpha = 1 - kappa * t, beta = kappa * cc;
      const double P0 = alpha - beta * G0, P1 = -beta * G1, P2 = -beta * G2;
      const double P3 = -beta * G3, P4 = alpha - beta * G4, P5 = -beta * G5;
      const double P6 = -beta * G6, P7 = -beta * G7, P8 = alpha - beta * G8;
      const double wa0 = t * m0 + cc * (G0 * m0 + G1 * m1 + G2 * m2);
      const double wa1 = t * m1 + cc * (G3 * m0 + G4 * m1 + G5 * m2);
      const double wa2 = t * m2 + cc * (G6 * m0 + G7 * m1 + G8 * m2);
      const double A0 = P4 * P8 - P5 * P7, A1 = P2 * P7 - P1 * P8, A2 = P1 * P5 - P2 * P4;
      const double A3 = P5 * P6 - P3 * P8, A4 = P0 * P8 - P2 * P6, A5 = P2 * P3 - P0 * P5;
      const double A6 = P3 * P7 - P4 * P6, A7 = P1 * P6 - P0 * P7, A8 = P0 * P4 - P1 * P3;
      const double det = P0 * A0 + P1 * A3 + P2 * A6;
      const double u0 = A0 * m0 + A1 * m1 + A2 * m2;  // adj ā
      const double u1 = A3 * m0 + A4 * m1 + A5 * m2;
      const double u2 = A6 * m0 + A7 * m1 + A8 * m2;
      const double s0 = A0 * b0 + A3 * b1 + A6 * b2;  // adjᵀ b
      const double s1 = A1 * b0 + A4 * b1 + A7 * b2;
      const double s2 = A2 * b0 + A5 * b1 + A8 * b2;
      const double sd = s0 * wa0 + s1 * wa1 + s2 * wa2;  // σ det P
      const double inv = 1 / (det * sd);
      const double od = sd * inv;  // 1/det
      // H = (κ σdet adj − u sᵀ) / (det σdet).
      const double ka = kappa * od, t0 = s0 * inv, t1 = s1 * inv, t2 = s2 * inv;
      G0 = ka * A0 - u0 * t0;
      G1 = ka * A1 - u0 * t1;
      G2 = ka * A2 - u0 * t2;
      G3 = ka * A3 - u1 * t0;
      G4 = ka * A4 - u1 * t1;
      G5 = ka * A5 - u1 * t2;
      G6 = ka * A6 - u2 * t0;
      G7 = ka * A7 - u2 * t1;
      G8 = ka * A8 - u2 * t2;
      double* H = k.H;
      H[0] = G0;
      H[1] = G1;
      H[2] = G2;
      H[3] = G3;
      H[4] = G4;
      H[5] = G5;
      H[6] = G6;
      H[7] = G7;
      H[8] = G8;
      double* Q = k.Pinv;
      Q[0] = A0 * od;
      Q[1] = A1 * od;
      Q[2] = A2 * od;
      Q[3] = A3 * od;
      Q[4] = A4 * od;
      Q[5] = A5 * od;
      Q[6] = A6 * od;
      Q[7] = A7 * od;
      Q[8] = A8 * od;
      k.kappa = kappa;
      k.end[0] = b0;
      k.end[1] = b1;
      k.end[2] = b2;
      k.invSigma = det * det * inv;
      k.u[0] = u0 * od;  // P⁻¹ ā
      k.u[1] = u1 * od;
      k.u[2] = u2 * od;
      k.v[0] = (A0 * wa0 + A1 * wa1 + A2 * wa2) * od;  // P⁻¹ W ā
      k.v[1] = (A3 * wa0 + A4 * wa1 + A5 * wa2) * od;
      k.v[2] = (A6 * wa0 + A7 * wa1 + A8 * wa2) * od;
      const double pivotP = std::abs(det), pivotLambda = std::abs(sd * od) / t;
      largest = std::max(largest, std::max(pivotP, pivotLambda));
      smallest = std::min(smallest, std::min(pivotP, pivotLambda));
    }
    if (!(smallest > 0) || !(largest < std::numeric_limits<double>::infinity())) {
      pivotRatio_ = std::numeric_limits<double>::infinity();
      return false;
    }
    pivotRatio_ = largest / smallest;
    return true;
  }

  ChainModel model_;
  double h_;
  double lengthScale_;
  std::vector<Link> links_;
  double pivotRatio_ = 1;
  mutable VecX sweep_;          // ρ̂_i, then y_i, during solve()
  double previousMid_[3] = {};  // ā_{i−1} of the last predictor pass
  VecX x_;
  CompensatedChainUpdate update_;
  NewtonWorkspace<VecX> workspace_;
  NewtonReport report_;
};

}  // namespace vilab
