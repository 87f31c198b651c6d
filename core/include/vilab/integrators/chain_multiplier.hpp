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
// The step is written like a fixed-size kernel (Box2D style): its working values (λ,
// the free flight, the normals, the tridiagonal matrix) are one StepWork, a local of
// the step when N ≥ 0 fixes the number of bobs at compile time — loops unrolled, every
// value in a register, nothing stored and reloaded on the Newton iteration's serial
// chain — and a member, sized once, for the chains sized at run time (N = −1). The
// Newton policy is solver/newton.hpp's full Newton (the same tests, in the same order,
// with the same refusals), written out so that its checks run inline: the pivot ratio
// is formed only when a test needs it. The arithmetic and its order are those of the
// generic solver with the tridiagonal solve, so every N gives the same bits
// (tests/native/test_chain_fixed.cpp) and the bits of bench/dsp_kernel.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "vilab/discrete_lagrangian.hpp"
#include "vilab/integrators/chain_projection.hpp"
#include "vilab/outcome.hpp"
#include "vilab/solver/newton.hpp"

namespace vilab {

namespace chain_detail {
template <class F, std::size_t... I>
[[gnu::always_inline]] inline void unrolled(const F& f, std::index_sequence<I...>) {
  (f(static_cast<int>(I)), ...);
}
}  // namespace chain_detail

// The body of a forEachLink, inlined (a lambda's call operator takes the attribute here).
#define VILAB_LINK_BODY(i) [&](int i) __attribute__((always_inline))

// f(i) for i = 0 … n−1: unrolled at compile time for a fixed size N ≥ 0 (every index a
// constant, so that the step's working arrays become registers: one index not known at
// compile time would keep a whole StepWork in memory; the loops over the three
// components are unrolled by pragma for the same reason), a loop for N = −1.
template <int N, class F>
[[gnu::always_inline]] inline void forEachLink(int n, const F& f) {
  if constexpr (N < 0) {
    for (int i = 0; i < n; ++i) f(i);
  } else {
    chain_detail::unrolled(f, std::make_index_sequence<N>{});
  }
}

template <int N = -1>
class ChainMultiplierIntegratorT {
  static_assert(N == -1 || N > 0, "a chain has at least one bob");
  static constexpr int kCoords = N < 0 ? Eigen::Dynamic : 3 * N;
  static constexpr int kCoordArray = N < 0 ? -1 : 3 * N;

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
    resizeLinks<double, N>(halfInvLength_, n);
    resizeLinks<double, N>(squaredLength_, n);
    resizeLinks<double, N>(hOverMass_, n);
    resizeLinks<double, N>(hOverMassSize_, n);
    resizeLinks<double, N>(invMass_, n);
    resizeLinks<double, N>(flightGravity_, n);
    resizeLinks<double, N>(impulseGravity_, n);
    lengthScale_ = 0;
    for (int i = 0; i < n; ++i) {
      const double l = model_.lengths[i], m = model_.masses[i];
      lengthScale_ += l;
      invLength_[i] = 1.0 / l;
      halfInvLength_[i] = 0.5 * invLength_[i];
      squaredLength_[i] = l * l;
      invMass_[i] = 1.0 / m;
      flightGravity_[i] = c1_ * m * model_.g;           // c1 ∇V of bob i (z)
      impulseGravity_[i] = (c1_ + c2_) * m * model_.g;  // (c1 + c2) ∇V of bob i (z)
    }
    setStepMasses();
    work_.resize(n);
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

  // The bobs fixed at compile time (−1: sized at run time).
  static constexpr int kFixedBobs = N;

  StepOutcome step(VecX& q, VecX& p) { return stepInto(q, p, nullptr); }
  // The same step, the new state also written into `copy` (CanonicalIntegrator::
  // stepAndStore): a fixed-size chain writes it as it writes (q, p), without a second pass;
  // a chain sized at run time copies it after the step (its loop writing four arrays
  // measured 1 % slower at N = 8 than one copy after it).
  StepOutcome step(VecX& q, VecX& p, State& copy) {
    if (copy.q.size() != q.size()) copy.q.resize(q.size());
    if (copy.p.size() != p.size()) copy.p.resize(p.size());
    if constexpr (N < 0) {
      StepOutcome o = stepInto(q, p, nullptr);
      if (o.ok) copy.q = q, copy.p = p;
      return o;
    } else {
      return stepInto(q, p, &copy);
    }
  }

  // Up to n steps from (q, p) in one loop, each step inlined in it (Simulation's batch of
  // steps, FixedChainSteps): each new state is written into q, p and copy, then handed to
  // accept(iterations), which takes it (true) or stops the loop (false: it has refused it
  // and set q, p back). Returns a refused step's outcome (q, p and copy as they were
  // before it), else an accepted one.
  template <class Accept>
  [[gnu::always_inline]] StepOutcome steps(VecX& q, VecX& p, State& copy, std::uint64_t n, const Accept& accept) {
    static_assert(N > 0, "the loop is for chains of a size fixed at compile time");
    if (copy.q.size() != q.size()) copy.q.resize(q.size());
    if (copy.p.size() != p.size()) copy.p.resize(p.size());
    for (std::uint64_t k = 0; k < n; ++k) {
      StepWork work;  // a local: the compiler keeps it in registers
      const StepEnd end = stepWith(work, q, p, &copy);
      if (end.why != StepEnd::Accepted) return refusedOutcome(end);
      if (!accept(end.stop.iterations)) break;
    }
    return StepOutcome::accepted(0);
  }

  // Stage 1 of a step from (q_k, p_k): the free flight and the normals at q_k (public,
  // so that tests can check the Newton problem on its own).
  void begin(const VecX& q, const VecX& p) {
    freeFlight(work_, p.data());
    startNormals(work_, q.data());
    start_ = &q;
  }

  // ---- stage 2 as a Newton problem of solver/newton.hpp (tests): unknowns λ ----------
  NewtonEval evaluate(const Vector& lambda, Vector& r, bool linearize) {
    const int n = bobs();
    for (int i = 0; i < n; ++i) work_.lambda[i] = lambda[i];
    positionsFromMultipliers(work_, start_->data());
    residualAndMatrix(work_);
    for (int i = 0; i < n; ++i) r[i] = work_.residual[i];
    if (!residualsFinite(work_)) return NewtonEval::NonFinite;
    if (linearize) {
      factorize(work_);
      if (!pivotsRegular(work_)) return NewtonEval::Singular;
    }
    return NewtonEval::Ok;
  }
  double conditionEstimate() const { return pivotRatio(work_); }
  void solve(Vector& b) {
    for (int i = 0; i < bobs(); ++i) work_.update[i] = b[i];
    solveFactorized(work_, work_.update);
    for (int i = 0; i < bobs(); ++i) b[i] = work_.update[i];
  }
  double size(const Vector& dlambda) {
    for (int i = 0; i < bobs(); ++i) work_.update[i] = dlambda[i];
    return updateSize(work_);
  }

 private:
  template <class T>
  using PerLink = LinkArray<T, N>;
  using PerCoord = LinkArray<double, kCoordArray>;

  // One step's working values.
  struct StepWork {
    PerLink<double> lambda{}, residual{}, update{};
    PerCoord freeFlight{}, normalStart{}, delta{}, q1{}, p1{}, normalEnd{};  // δ = q_{k+1} − q_k before rounding
    // The tridiagonal matrix (lower[0], upper[n−1] unused), its pivots and elimination ratios.
    PerLink<double> lower{}, diag{}, upper{}, pivot{}, ratio{};

    void resize(int n) {
      if constexpr (N < 0) {
        for (auto* a : {&lambda, &residual, &update, &lower, &diag, &upper, &pivot, &ratio})
          a->assign(static_cast<std::size_t>(n), 0.0);
        for (auto* a : {&freeFlight, &normalStart, &delta, &q1, &p1, &normalEnd})
          a->assign(static_cast<std::size_t>(3 * n), 0.0);
      }
    }
  };

  int bobs() const { return N < 0 ? model_.bobs() : N; }

  // Eigen's order for the dot product of 3-vectors (its unrolled reduction), x₀ + (x₁ + x₂):
  // the order the step has always summed in, so its bits are kept.
  // a[i₀ …] · b[j₀ …] (indices, not pointers: every access stays a constant index).
  template <class A, class B>
  [[gnu::always_inline]] static double dot3(const A& a, int i0, const B& b, int j0) {
    return a[i0] * b[j0] + (a[i0 + 1] * b[j0 + 1] + a[i0 + 2] * b[j0 + 2]);
  }
  // d_i = x_i − x_{i−1} (x_{−1} = 0, the pivot), the link vector of link i.
  template <class X>
  [[gnu::always_inline]] static double linkComponent(const X& x, int i, int c) {
    return i > 0 ? x[3 * i + c] - x[3 * i - 3 + c] : x[c];
  }

  // How stage 2 ended: converged, or refused and why (the refusal is written out of line
  // by refusal(), so that the step's way holds no strings to construct and destroy).
  struct NewtonStop {
    enum Why { Converged, ResidualNotFinite, ZeroPivot, PivotRatio, UpdateNotFinite, Diverged, NoConvergence };
    Why why;
    int iterations;
    double value;  // the pivot ratio, the diverging update's size or the last update's size
  };
  // How a step ended: accepted, or refused at a stage (its StepOutcome formed out of line
  // by refusedOutcome, with the strings a refusal carries), after stop.iterations.
  struct StepEnd {
    enum Why { Accepted, NewtonRefused, Folded, NotFinite };
    Why why;
    NewtonStop stop;  // how Newton ended (NewtonRefused: why)
  };
  [[gnu::noinline, gnu::cold]] static StepOutcome refusedOutcome(const StepEnd& end) {
    switch (end.why) {
      case StepEnd::NewtonRefused: return refusal(end.stop);
      case StepEnd::Folded: return folded(end.stop.iterations);
      default: return notFinite(end.stop.iterations);
    }
  }
  [[gnu::always_inline]] static StepOutcome outcomeOf(const StepEnd& end) {
    return end.why == StepEnd::Accepted ? StepOutcome::accepted(end.stop.iterations) : refusedOutcome(end);
  }

  // The step, written once (both entries above call it: an inlined copy in each would be
  // the step's code twice in the page's first load); copy, when given, gets the new state too.
  [[gnu::noinline]] StepOutcome stepInto(VecX& q, VecX& p, State* copy) {
    if constexpr (N < 0) {
      return outcomeOf(stepWith(work_, q, p, copy));
    } else {
      StepWork work;  // a local: the compiler keeps it in registers
      return outcomeOf(stepWith(work, q, p, copy));
    }
  }

  [[gnu::always_inline]] StepEnd stepWith(StepWork& w, VecX& q, VecX& p, State* copy) {
    const int n = bobs();
    // Stage 1: the free flight and the normals at q_k.
    freeFlight(w, p.data());
    startNormals(w, q.data());
    // Stage 2: Newton on λ for g(q_{k+1}(λ)) = 0 (W–M 4.5), from λ = 0.
    forEachLink<N>(
        n, VILAB_LINK_BODY(i) { w.lambda[i] = 0; });
    const NewtonStop stop = solveMultipliers(w, q.data());
    if (stop.why != NewtonStop::Converged) return {StepEnd::NewtonRefused, stop};
    positionsFromMultipliers(w, q.data());
    // Stage 3: the discrete Legendre transform p_{k+1} = M v̄ − c2 ∇V, then the tangent projection.
    momentumUpdate(w, p.data());
    if (!projectTangent(w)) return {StepEnd::Folded, stop};
    if (!surelyFinite(w, n) && !(allFinite(w.q1, 3 * n) && allFinite(w.p1, 3 * n))) return {StepEnd::NotFinite, stop};
    forEachLink<N>(
        n, VILAB_LINK_BODY(i) {
#pragma GCC unroll 3
          for (int c = 0; c < 3; ++c) q[3 * i + c] = w.q1[3 * i + c], p[3 * i + c] = w.p1[3 * i + c];
        });
    if (copy)
      forEachLink<N>(
          n, VILAB_LINK_BODY(i) {
#pragma GCC unroll 3
            for (int c = 0; c < 3; ++c) copy->q[3 * i + c] = w.q1[3 * i + c], copy->p[3 * i + c] = w.p1[3 * i + c];
          });
    return {StepEnd::Accepted, stop};
  }

  // Stage 1: free flight q* − q_k = h M⁻¹ (p_k − c1 ∇V), ∇V = (0, 0, m_i g) per bob.
  // Displacements are kept apart from positions, so that q_{k+1} = q_k + δ rounds once.
  [[gnu::always_inline]] void freeFlight(StepWork& w, const double* p) const {
    forEachLink<N>(
        bobs(), VILAB_LINK_BODY(i) {
          const double hm = hOverMass_[i];
          w.freeFlight[3 * i] = hm * p[3 * i];
          w.freeFlight[3 * i + 1] = hm * p[3 * i + 1];
          w.freeFlight[3 * i + 2] = hm * (p[3 * i + 2] - flightGravity_[i]);
        });
  }
  // The constraint normals at q_k: a_i = ∇_d g_i = d_i / l_i.
  [[gnu::always_inline]] void startNormals(StepWork& w, const double* q) const {
    forEachLink<N>(
        bobs(), VILAB_LINK_BODY(i) {
#pragma GCC unroll 3
          for (int c = 0; c < 3; ++c) w.normalStart[3 * i + c] = linkComponent(q, i, c) * invLength_[i];
        });
  }

  [[gnu::noinline, gnu::cold]] static StepOutcome refusal(const NewtonStop& stop) {
    constexpr const char* what = "the link constraints of the step";
    const int k = stop.iterations;
    switch (stop.why) {
      case NewtonStop::ResidualNotFinite: return newton_detail::residualNotFinite(what, k);
      case NewtonStop::ZeroPivot: return newton_detail::singular(what, std::numeric_limits<double>::infinity(), k);
      case NewtonStop::PivotRatio: return newton_detail::singular(what, stop.value, k);
      case NewtonStop::UpdateNotFinite: return newton_detail::updateNotFinite(k);
      case NewtonStop::Diverged: return newton_detail::diverged(what, stop.value, k);
      default: return newton_detail::noConvergence(what, limits::kMaxNewtonIterations, stop.value);
    }
  }

  // Stage 2: full Newton on λ with solver/newton.hpp's policy (its head gives the
  // reasons): converged at an update of 4 ε, or at a predicted remaining error θ²e of
  // ε/8, or inside the rounding floor 64 ε κ once the updates stop shrinking; refused
  // when an update grows twice in a row, when a pivot vanishes or the pivots span more
  // than kSingularPivotRatio, on non-finite values, or after kMaxNewtonIterations.
  [[gnu::always_inline]] NewtonStop solveMultipliers(StepWork& w, const double* q) const {
    constexpr double eps = std::numeric_limits<double>::epsilon();
    const int n = bobs();
    double previous = std::numeric_limits<double>::infinity(), theta = 1, size = 0;
    int growing = 0;
    for (int k = 1; k <= limits::kMaxNewtonIterations; ++k) {
      positionsFromMultipliers(w, q);
      const double residualSum = residualsAndNormals(w);
      // Δλ = −J⁻¹ r (formed whatever the checks say: IEEE arithmetic has no traps, and
      // nothing of it is kept until they pass): the Jacobian's rows, their elimination
      // and the forward sweep in one pass, then the back substitution.
      eliminateForward(
          w, w.update, n, [&](int i) __attribute__((always_inline)) {
            matrixRow(w, i);
            w.update[i] = w.residual[i];
          });
      backSubstitute(w, w.update, n);
      forEachLink<N>(
          n, VILAB_LINK_BODY(i) { w.update[i] = -w.update[i]; });
      size = updateSize(w);
      // One cheap test on a regular iteration's way, which implies each of the checks
      // (surelyRegular); only when it fails are they made one by one, in the order they
      // were always made, so that a refusal says which failed first.
      if (!(static_cast<int>(residualSum <= std::numeric_limits<double>::max()) & static_cast<int>(surelyRegular(w)) &
            static_cast<int>(std::isfinite(size)))) {
        if (!residualsFinite(w)) return {NewtonStop::ResidualNotFinite, k, 0};
        if (!pivotsRegular(w)) return {NewtonStop::ZeroPivot, k, 0};
        if (!pivotsWithinRatio(w)) return {NewtonStop::PivotRatio, k, pivotRatio(w)};
        if (!std::isfinite(size)) return {NewtonStop::UpdateNotFinite, k, 0};
      }
      forEachLink<N>(
          n, VILAB_LINK_BODY(i) { w.lambda[i] += w.update[i]; });
      if (k > 1) theta = size / previous;
      if (size <= 4 * eps) return {NewtonStop::Converged, k, 0};
      if (k > 1 && theta < 1 && theta * theta * size <= 0.125 * eps) return {NewtonStop::Converged, k, 0};
      if (k > 1 && theta >= 0.5 && size <= roundingFloor(w)) return {NewtonStop::Converged, k, 0};
      if (k > 1 && theta >= 1) {
        if (++growing >= 2) return {NewtonStop::Diverged, k, size};
      } else {
        growing = 0;
      }
      previous = size;
    }
    return {NewtonStop::NoConvergence, limits::kMaxNewtonIterations, size};
  }

  // q_{k+1}(λ) = q* + h M⁻¹ Dg(q_k)ᵀ λ: link i pushes bob i along a_i and bob i−1 back.
  [[gnu::always_inline]] void positionsFromMultipliers(StepWork& w, const double* q) const {
    const int n = bobs();
    forEachLink<N>(
        n, VILAB_LINK_BODY(i) {
          const double hm = hOverMass_[i];
#pragma GCC unroll 3
          for (int c = 0; c < 3; ++c) {
            double push = w.lambda[i] * w.normalStart[3 * i + c];
            if (i + 1 < n) push -= w.lambda[i + 1] * w.normalStart[3 * i + 3 + c];
            w.delta[3 * i + c] = w.freeFlight[3 * i + c] + hm * push;
            w.q1[3 * i + c] = q[3 * i + c] + w.delta[3 * i + c];
          }
        });
  }

  // The residual g_i(q_{k+1}) = (|d_i|² − l_i²) / (2 l_i) and the tridiagonal Jacobian
  // Dg(q_{k+1}) h M⁻¹ Dg(q_k)ᵀ: row i couples link i to its neighbours through the bobs
  // they share (linkCouplingMatrix). Returns Σ |g_i|: at most the largest double only
  // when every residual is finite (NaN and ∞ are not).
  [[gnu::always_inline]] double residualAndMatrix(StepWork& w) const {
    const double sum = residualsAndNormals(w);
    forEachLink<N>(
        bobs(), VILAB_LINK_BODY(i) { matrixRow(w, i); });
    return sum;
  }
  // The residuals and the normals ∇_d g_i at q_{k+1}; returns Σ |g_i| as above.
  [[gnu::always_inline]] double residualsAndNormals(StepWork& w) const {
    double sum = 0;
    forEachLink<N>(
        bobs(), VILAB_LINK_BODY(i) {
          double d[3];
#pragma GCC unroll 3
          for (int c = 0; c < 3; ++c) d[c] = linkComponent(w.q1, i, c);
#pragma GCC unroll 3
          for (int c = 0; c < 3; ++c) w.normalEnd[3 * i + c] = d[c] * invLength_[i];  // ∇_d g_i at q_{k+1}
          w.residual[i] = (dot3(d, 0, d, 0) - squaredLength_[i]) * halfInvLength_[i];
          sum += std::abs(w.residual[i]);
        });
    return sum;
  }
  // Row i of the Jacobian (after residualsAndNormals).
  [[gnu::always_inline]] void matrixRow(StepWork& w, int i) const {
    const double ba = dot3(w.normalEnd, 3 * i, w.normalStart, 3 * i);
    w.diag[i] = i > 0 ? hOverMass_[i] * ba + hOverMass_[i - 1] * ba : hOverMass_[i] * ba;
    if (i > 0) w.lower[i] = -hOverMass_[i - 1] * dot3(w.normalEnd, 3 * i, w.normalStart, 3 * i - 3);
    if (i + 1 < bobs()) w.upper[i] = -hOverMass_[i] * dot3(w.normalEnd, 3 * i, w.normalStart, 3 * i + 3);
  }
  [[gnu::always_inline]] bool residualsFinite(const StepWork& w) const {
    int finite = 1;
    forEachLink<N>(
        bobs(), VILAB_LINK_BODY(i) { finite &= static_cast<int>(std::isfinite(w.residual[i])); });
    return finite != 0;
  }

  // Thomas elimination without pivoting (solver/tridiagonal.hpp's order): the pivots and
  // the ratios upper/pivot (pivotsRegular says whether they can be used).
  [[gnu::always_inline]] static void factorize(StepWork& w, int n) {
    double previous = 1;  // the last pivot, carried in a register (no store and reload on the recurrence)
    forEachLink<N>(
        n, VILAB_LINK_BODY(i) { previous = eliminationStep(w, i, previous); });
  }
  [[gnu::always_inline]] void factorize(StepWork& w) const { factorize(w, bobs()); }
  // Step i of the elimination, pivot_i = diag_i − lower_i · upper_{i−1} / pivot_{i−1}
  // (the ratio kept for the back substitution); returns pivot_i.
  [[gnu::always_inline]] static double eliminationStep(StepWork& w, int i, double previousPivot) {
    double pivot = w.diag[i];
    if (i > 0) {
      const double ratio = w.upper[i - 1] / previousPivot;
      w.ratio[i] = ratio;
      pivot -= w.lower[i] * ratio;
    }
    w.pivot[i] = pivot;
    return pivot;
  }
  // Step i of the forward sweep, x_i ← (x_i − lower_i x_{i−1}) / pivot_i; returns x_i.
  [[gnu::always_inline]] static double forwardStep(const StepWork& w, PerLink<double>& x, int i, double previous,
                                                   double pivot) {
    x[i] = i > 0 ? (x[i] - w.lower[i] * previous) / pivot : x[i] / pivot;
    return x[i];
  }
  // False on a zero or non-finite pivot.
  [[gnu::always_inline]] bool pivotsRegular(const StepWork& w) const {
    int regular = 1;
    forEachLink<N>(
        bobs(), VILAB_LINK_BODY(i) {
          regular &= static_cast<int>(std::abs(w.pivot[i]) > 0) & static_cast<int>(std::isfinite(w.pivot[i]));
        });
    return regular != 0;
  }
  [[gnu::always_inline]] static void solveFactorized(const StepWork& w, PerLink<double>& x, int n) {
    double previous = 0;  // x[i − 1], carried in a register
    forEachLink<N>(
        n, VILAB_LINK_BODY(i) { previous = forwardStep(w, x, i, previous, w.pivot[i]); });
    backSubstitute(w, x, n);
  }
  // Each row formed by row(i), then at once factorize's step i and the forward sweep's on
  // x: the same operations in the same order as the rows, factorize and solveFactorized's
  // forward sweep one after another, but in one loop, so that a long chain's two
  // recurrences (each waits on a division a link) overlap instead of following each other.
  template <class Row>
  [[gnu::always_inline]] static void eliminateForward(StepWork& w, PerLink<double>& x, int n, const Row& row) {
    double previousPivot = 1, previous = 0;  // carried in registers
    forEachLink<N>(
        n, VILAB_LINK_BODY(i) {
          row(i);
          previousPivot = eliminationStep(w, i, previousPivot);
          previous = forwardStep(w, x, i, previous, previousPivot);
        });
  }
  // The back substitution after the forward sweep, i = n − 1 … 0.
  [[gnu::always_inline]] static void backSubstitute(const StepWork& w, PerLink<double>& x, int n) {
    double previous = x[n - 1];  // x[i + 1], carried in a register
    forEachLink<N>(
        n, VILAB_LINK_BODY(j) {
          const int i = n - 1 - j;
          if (i + 1 < n) x[i] -= w.ratio[i + 1] * previous;
          previous = x[i];
        });
  }
  [[gnu::always_inline]] void solveFactorized(const StepWork& w, PerLink<double>& x) const {
    solveFactorized(w, x, bobs());
  }

  // The largest and smallest |pivot| (NaN pivots skipped, as std::max and min skip them).
  struct PivotExtremes {
    double largest, smallest;
  };
  PivotExtremes pivotExtremes(const StepWork& w) const {
    PivotExtremes e{0, std::numeric_limits<double>::infinity()};
    for (int i = 0; i < bobs(); ++i) {
      e.largest = std::max(e.largest, std::abs(w.pivot[i]));
      e.smallest = std::min(e.smallest, std::abs(w.pivot[i]));
    }
    return e;
  }
  double pivotRatio(const StepWork& w) const {
    const PivotExtremes e = pivotExtremes(w);
    return e.largest / e.smallest;
  }
  // Whether the pivot ratio largest/smallest is within kSingularPivotRatio, without its
  // division where the answer is certain: largest ≤ smallest · K/2 (rounded) implies
  // largest/smallest < K, rounded or not.
  bool pivotsWithinRatio(const StepWork& w) const {
    constexpr double K = limits::kSingularPivotRatio;
    const PivotExtremes e = pivotExtremes(w);
    return e.largest <= e.smallest * (0.5 * K) || e.largest / e.smallest <= K;
  }
  // A test, without the extremes' compares and branches, that implies pivotsRegular and
  // pivotsWithinRatio: a = |pivot_0| in [1e-280, 1e280] and c a ≥ |pivot_i|, c |pivot_i| ≥ a
  // (rounded) for every other pivot, c = 2e6, give every pivot in [a/(c(1+ε)), c a (1+ε)]:
  // finite, nonzero, and largest ≤ c² (1+ε)² smallest, below K/2 · (1−ε) smallest. A NaN
  // or ∞ pivot fails a compare. When it is false the checks are made one by one.
  [[gnu::always_inline]] bool surelyRegular(const StepWork& w) const {
    constexpr double c = 2e6;
    static_assert(c * c * 1.000001 < 0.5 * limits::kSingularPivotRatio, "c² must stay below K/2");
    const double a = std::abs(w.pivot[0]);
    int ok = static_cast<int>(a >= 1e-280) & static_cast<int>(a <= 1e280);
    const double ca = c * a;
    forEachLink<N>(
        bobs(), VILAB_LINK_BODY(i) {
          if (i > 0) {
            const double b = std::abs(w.pivot[i]);
            ok &= static_cast<int>(b <= ca) & static_cast<int>(a <= c * b);
          }
        });
    return ok != 0;
  }
  // The rounding floor 64 ε max(1, κ) of the converged multipliers, κ the pivot ratio.
  double roundingFloor(const StepWork& w) const {
    const double condition = pivotRatio(w);
    return 64 * std::numeric_limits<double>::epsilon() * (condition > 1 ? condition : 1.0);
  }

  // The position change h M⁻¹ Dg(q_k)ᵀ Δλ an update causes, relative to the chain's length.
  [[gnu::always_inline]] double updateSize(const StepWork& w) const {
    const int n = bobs();
    double worst = 0;
    forEachLink<N>(
        n, VILAB_LINK_BODY(i) {
          worst = std::max(worst, hOverMassSize_[i] * (i + 1 < n ? std::abs(w.update[i]) + std::abs(w.update[i + 1])
                                                                 : std::abs(w.update[i])));
        });
    return worst / lengthScale_;
  }

  // Stage 3: with M v̄ = p_k − c1 ∇V + Dg(q_k)ᵀλ from stage 2, the momentum is the impulse form
  //     p_{k+1} = p_k + Dg(q_k)ᵀλ − (c1 + c2) ∇V,
  // which never forms m (h/m · p)/h: that product is not 1 in floating point, and
  // applied every step it made J_z drift linearly (5e-17 relative per step). Damped: the
  // whole discrete virtual work f_d^− + f_d^+ = −c δ (either split).
  [[gnu::always_inline]] void momentumUpdate(StepWork& w, const double* p) const {
    const int n = bobs();
    forEachLink<N>(
        n, VILAB_LINK_BODY(i) {
#pragma GCC unroll 3
          for (int c = 0; c < 3; ++c) {
            double impulse = w.lambda[i] * w.normalStart[3 * i + c];
            if (i + 1 < n) impulse -= w.lambda[i + 1] * w.normalStart[3 * i + 3 + c];
            w.p1[3 * i + c] = p[3 * i + c] + impulse;
          }
          w.p1[3 * i + 2] -= impulseGravity_[i];
        });
    if (forced_)
      forEachLink<N>(
          n, VILAB_LINK_BODY(i) {
#pragma GCC unroll 3
            for (int c = 0; c < 3; ++c) w.p1[3 * i + c] -= model_.damping * w.delta[3 * i + c];
          });
  }

  // The normal part of p_{k+1} is what the next multiplier would absorb; removing it
  // makes the stored momentum the physical (tangent) one without changing the motion:
  // p ← p − Dg(q)ᵀμ with (Dg M⁻¹ Dgᵀ) μ = Dg M⁻¹ p (ChainMomentumProjector's arithmetic).
  // False when two links fold onto each other (a vanishing pivot).
  [[gnu::always_inline]] bool projectTangent(StepWork& w) const {
    const int n = bobs();
    auto& a = w.normalEnd;  // the unit normals d_i / l_i at q_{k+1}
    forEachLink<N>(
        n, VILAB_LINK_BODY(i) {
#pragma GCC unroll 3
          for (int c = 0; c < 3; ++c) a[3 * i + c] = linkComponent(w.q1, i, c) * invLength_[i];
        });
    auto& mu = w.update;
    // The rows, their elimination and the forward sweep in one pass (eliminateForward).
    eliminateForward(
        w, mu, n, [&](int i) __attribute__((always_inline)) {
          const double invM = invMass_[i], aa = dot3(a, 3 * i, a, 3 * i);
          double v[3];  // M⁻¹ p across link i
#pragma GCC unroll 3
          for (int c = 0; c < 3; ++c) v[c] = invM * w.p1[3 * i + c];
          w.diag[i] = invM * aa;
          if (i > 0) {
            const double invPrev = invMass_[i - 1];
#pragma GCC unroll 3
            for (int c = 0; c < 3; ++c) v[c] -= invPrev * w.p1[3 * i - 3 + c];
            w.diag[i] += invPrev * aa;
            w.lower[i] = -invPrev * dot3(a, 3 * i, a, 3 * i - 3);
          }
          if (i + 1 < n) w.upper[i] = -invM * dot3(a, 3 * i, a, 3 * i + 3);
          mu[i] = dot3(a, 3 * i, v, 0);
        });
    if (!pivotsRegular(w)) return false;
    backSubstitute(w, mu, n);
    forEachLink<N>(
        n, VILAB_LINK_BODY(i) {
#pragma GCC unroll 3
          for (int c = 0; c < 3; ++c) {
            w.p1[3 * i + c] -= mu[i] * a[3 * i + c];
            if (i + 1 < n) w.p1[3 * i + c] += mu[i + 1] * a[3 * i + 3 + c];
          }
        });
    return true;
  }

  // A test that implies allFinite of the new positions and momenta: their sum is finite
  // only when each is (∞ stays ∞ or becomes NaN with −∞, and NaN stays NaN); a finite sum
  // that overflows fails it, and allFinite then decides. One compare, not one a number.
  [[gnu::always_inline]] static bool surelyFinite(const StepWork& w, int n) {
    double sum = 0;
    forEachLink<N>(
        n, VILAB_LINK_BODY(i) {
          const double* x = &w.q1[3 * i];
          const double* y = &w.p1[3 * i];
          sum += ((x[0] + x[1]) + (x[2] + y[0])) + (y[1] + y[2]);
        });
    return std::isfinite(sum);
  }
  [[gnu::always_inline]] static bool allFinite(const PerCoord& x, int size) {
    int finite = 1;
    forEachLink<N>(
        size / 3, VILAB_LINK_BODY(i) {
#pragma GCC unroll 3
          for (int c = 0; c < 3; ++c) finite &= static_cast<int>(std::isfinite(x[3 * i + c]));
        });
    return finite != 0;
  }

  // The refusals of stage 3, formed out of line (their strings stay out of the step).
  [[gnu::noinline, gnu::cold]] static StepOutcome folded(int iterations) {
    return StepOutcome::refuse(RefusalCode::SingularMatrix, "two links are folded onto each other",
                               Suggestion::reduceH(), iterations);
  }
  [[gnu::noinline, gnu::cold]] static StepOutcome notFinite(int iterations) {
    return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                               iterations);
  }

  // The step's inverse masses h M⁻¹, or with damping (M + s c h)⁻¹ h = (M/h + s c)⁻¹
  // with s = ½ (symmetric split) or 1 (one-sided): written so that c = 0 gives h/m_i.
  void setStepMasses() {
    const double share = oneSided_ ? 1.0 : 0.5;
    for (int i = 0; i < bobs(); ++i) {
      const double m = model_.masses[i];
      hOverMass_[i] = forced_ ? h_ / (m + share * model_.damping * h_) : h_ / m;
      hOverMassSize_[i] = std::abs(hOverMass_[i]);
    }
  }

  ChainModel model_;
  double h_, c1_, c2_;
  bool forced_;            // damped: the drag's f_d^± (M–W §3.2)
  bool oneSided_ = false;  // tests only: f_d^− = −c δ, f_d^+ = 0
  double lengthScale_;
  // Per link: 1/l_i, 1/(2 l_i), l_i², h/m_i (or its damped form) and |h/m_i|, 1/m_i, and
  // gravity's c1 m_i g and (c1 + c2) m_i g.
  PerLink<double> invLength_{}, halfInvLength_{}, squaredLength_{}, hOverMass_{}, hOverMassSize_{}, invMass_{};
  PerLink<double> flightGravity_{}, impulseGravity_{};
  StepWork work_;                // N = −1: the step's working values; N ≥ 0: the Newton problem's (tests)
  const VecX* start_ = nullptr;  // q_k of the Newton problem (begin)
};

using ChainMultiplierIntegrator = ChainMultiplierIntegratorT<>;

}  // namespace vilab
