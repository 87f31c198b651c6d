// The physical limit of a DSP midpoint step: a tight fixed-size re-implementation of the
// library's path (integrators/chain_multiplier.hpp, W–M eqs. 4.4–4.5 with α = ½) for two
// links, with everything in registers: free flight, full Newton on the two multipliers
// (the 2×2 tridiagonal matrix Dg(q_{k+1}) h M⁻¹ Dg(q_k)ᵀ solved by elimination), the
// impulse form of the momentum update and the tangent projection of p_{k+1}. Same
// stopping rule as solver/newton.hpp (update ≤ 4 ε, or the quadratic prediction θ²e
// ≤ ε/8). The same arithmetic in the same order as the library (dot products summed as
// Eigen sums them), so the same bits (tests/native/test_chain_kernel.cpp). No refusal
// paths, history or diagnostics: the floor the library is measured against, not a
// replacement for it. Templated on the scalar so that a counting scalar
// gives the flops of one step.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace vilabbench {

struct Counted;
long countedFlops();

template <class T>
struct DspKernelT {
  long loopFlops = 0;  // counting scalar only: the flops spent inside the Newton loop
  T q[6], p[6];
  double h, g;
  double m[2] = {1, 1}, l[2] = {1, 1};

  // The timed kernel is given h, g, the masses and the lengths as values read at run time
  // (the scenario's), as the library has them: given as literals, the compiler folds them
  // (× 1/l and × 1/m with l = m = 1 vanish from every Newton iteration), and the floor
  // would be a cheaper computation than the library's.
  DspKernelT(const double* q0, const double* p0, double h_, double g_, const double* masses = nullptr,
             const double* lengths = nullptr)
      : h(h_), g(g_) {
    for (int i = 0; i < 6; ++i) q[i] = T(q0[i]), p[i] = T(p0[i]);
    for (int i = 0; i < 2; ++i) {
      if (masses) m[i] = masses[i];
      if (lengths) l[i] = lengths[i];
    }
  }

  // One step; returns the Newton iterations.
  int step() {
    const double hm0 = h / m[0], hm1 = h / m[1], c1 = 0.5 * h;
    const double il0 = 1 / l[0], il1 = 1 / l[1];
    // Free flight and the normals at q_k.
    T ff[6], a0[3], a1[3];
    for (int c = 0; c < 3; ++c) {
      ff[c] = hm0 * p[c];
      ff[3 + c] = hm1 * p[3 + c];
      a0[c] = q[c] * il0;
      a1[c] = (q[3 + c] - q[c]) * il1;
    }
    ff[2] = hm0 * (p[2] - c1 * m[0] * g);
    ff[5] = hm1 * (p[5] - c1 * m[1] * g);
    T lam0 = T(0), lam1 = T(0), Q[6];
    constexpr double eps = std::numeric_limits<double>::epsilon();
    double previous = 0;
    int k = 1;
    if constexpr (std::is_same_v<T, Counted>) loopFlops = -countedFlops();
    for (; k <= 50; ++k) {
      // q_{k+1}(λ) = q_k + q* + h M⁻¹ Dg(q_k)ᵀ λ.
      for (int c = 0; c < 3; ++c) {
        const T push1 = lam1 * a1[c];
        Q[c] = q[c] + (ff[c] + hm0 * (lam0 * a0[c] - push1));
        Q[3 + c] = q[3 + c] + (ff[3 + c] + hm1 * push1);
      }
      T d0[3], d1[3];
      for (int c = 0; c < 3; ++c) d0[c] = Q[c], d1[c] = Q[3 + c] - Q[c];
      const T r0 = (dot3(d0, d0) - l[0] * l[0]) * (0.5 * il0);
      const T r1 = (dot3(d1, d1) - l[1] * l[1]) * (0.5 * il1);
      // b_i = d_i / l_i at q_{k+1}; the matrix rows (linkCouplingMatrix).
      T b0[3], b1[3];
      for (int c = 0; c < 3; ++c) b0[c] = d0[c] * il0, b1[c] = d1[c] * il1;
      const T b0a0 = dot3(b0, a0), b0a1 = dot3(b0, a1);
      const T b1a0 = dot3(b1, a0), b1a1 = dot3(b1, a1);
      const T j00 = hm0 * b0a0, j01 = -(hm0 * b0a1);
      const T j10 = -(hm0 * b1a0), j11 = hm1 * b1a1 + hm0 * b1a1;
      // Δ = J⁻¹ r by elimination (the tridiagonal solver's order), λ ← λ − Δ.
      const T s = j01 / j00;
      const T pivot1 = j11 - j10 * s;
      const T y0 = r0 / j00;
      const T x1 = (r1 - j10 * y0) / pivot1;
      const T x0 = y0 - s * x1;
      lam0 = lam0 - x0;
      lam1 = lam1 - x1;
      const double ax0 = std::abs(value(x0)), ax1 = std::abs(value(x1));
      const double size = std::max(hm0 * (ax0 + ax1), hm1 * ax1) / (l[0] + l[1]);
      if (size <= 4 * eps) break;
      if (k > 1) {
        const double theta = size / previous;
        if (theta < 1 && theta * theta * size <= 0.125 * eps) break;
      }
      previous = size;
    }
    if constexpr (std::is_same_v<T, Counted>) loopFlops += countedFlops();
    for (int c = 0; c < 3; ++c) {
      const T push1 = lam1 * a1[c];
      q[c] = q[c] + (ff[c] + hm0 * (lam0 * a0[c] - push1));
      q[3 + c] = q[3 + c] + (ff[3 + c] + hm1 * push1);
    }
    // p_{k+1} = p_k + Dg(q_k)ᵀλ − (c1 + c2)∇V.
    for (int c = 0; c < 3; ++c) {
      const T i1 = lam1 * a1[c];
      p[c] = p[c] + (lam0 * a0[c] - i1);
      p[3 + c] = p[3 + c] + i1;
    }
    p[2] = p[2] - h * m[0] * g;
    p[5] = p[5] - h * m[1] * g;
    // Tangent projection: p ← p − Dg(q)ᵀ μ with (Dg M⁻¹ Dgᵀ) μ = Dg M⁻¹ p.
    T n0[3], n1[3], w0[3], w1[3];
    const double im0 = 1 / m[0], im1 = 1 / m[1];
    for (int c = 0; c < 3; ++c) {
      n0[c] = q[c] * il0;
      n1[c] = (q[3 + c] - q[c]) * il1;
      w0[c] = im0 * p[c];
      w1[c] = im1 * p[3 + c] - im0 * p[c];
    }
    const T n00 = dot3(n0, n0);
    const T n11 = dot3(n1, n1);
    const T n01 = dot3(n0, n1);
    const T g00 = im0 * n00, g01 = -(im0 * n01), g10 = -(im0 * n01), g11 = im1 * n11 + im0 * n11;
    const T u0 = dot3(n0, w0);
    const T u1 = dot3(n1, w1);
    const T s = g01 / g00;
    const T y0 = u0 / g00;
    const T mu1 = (u1 - g10 * y0) / (g11 - g10 * s);
    const T mu0 = y0 - s * mu1;
    for (int c = 0; c < 3; ++c) {
      p[c] = p[c] - mu0 * n0[c] + mu1 * n1[c];
      p[3 + c] = p[3 + c] - mu1 * n1[c];
    }
    return k;
  }

  // A 3-vector dot product in the order Eigen's unrolled reduction sums it, x₀ + (x₁ + x₂):
  // the library's order, so that both give the same bits.
  static T dot3(const T* a, const T* b) { return a[0] * b[0] + (a[1] * b[1] + a[2] * b[2]); }

  static double value(double x) { return x; }
  template <class U>
  static double value(const U& x) {
    return x.v;
  }
};

using DspKernel = DspKernelT<double>;

struct FlopCount {
  long total = 0, fixed = 0, divisions = 0, sqrts = 0;
  double perIteration = 0;
};

// A double that counts its arithmetic (+ − × ÷ each one flop); constants folded by the
// compiler in DspKernel (h/m, 1/l, ½h·m·g) are double arithmetic here too and not counted.
struct Counted {
  double v = 0;
  static inline long flops = 0, divisions = 0;
  Counted() = default;
  explicit Counted(double x) : v(x) {}
  friend Counted operator+(Counted a, Counted b) { return ++flops, Counted(a.v + b.v); }
  friend Counted operator-(Counted a, Counted b) { return ++flops, Counted(a.v - b.v); }
  friend Counted operator-(Counted a) { return Counted(-a.v); }  // a sign flip, not a flop
  friend Counted operator*(Counted a, Counted b) { return ++flops, Counted(a.v * b.v); }
  friend Counted operator/(Counted a, Counted b) { return ++flops, ++divisions, Counted(a.v / b.v); }
  friend Counted operator+(Counted a, double b) { return a + Counted(b); }
  friend Counted operator-(Counted a, double b) { return a - Counted(b); }
  friend Counted operator*(Counted a, double b) { return a * Counted(b); }
  friend Counted operator*(double a, Counted b) { return Counted(a) * b; }
};

inline long countedFlops() { return Counted::flops; }

// Flops of one step from (q, p): total, per Newton iteration and outside the iterations.
inline FlopCount countDspKernelFlops(const double* q, const double* p, double h, double g) {
  DspKernelT<Counted> k(q, p, h, g);
  Counted::flops = Counted::divisions = 0;
  const int iterations = k.step();
  FlopCount f;
  f.total = Counted::flops;
  f.divisions = Counted::divisions;
  f.perIteration = static_cast<double>(k.loopFlops) / iterations;
  f.fixed = f.total - k.loopFlops;
  return f;
}

}  // namespace vilabbench
