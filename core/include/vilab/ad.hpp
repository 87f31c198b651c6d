// Forward-mode automatic differentiation with fixed sizes, and the elementary
// functions the Lagrangians use, routed through vilab::dm so the native and wasm
// builds agree bit for bit.
//
// Jet<T, N> is a value with N directional derivatives, eagerly evaluated. Nesting
// it (Jet<Jet<double, M>, N>) gives the mixed second derivatives of the Newton
// matrix. Systems write L once over a template scalar S and see no difference: S is
// double, Jet<double, N> or Jet<Jet<double, M>, N>.
//
// Why not Eigen's AutoDiffScalar (nested for second derivatives)? bench/ad/ad_bench.cpp
// times what VariationalIntegrator::d1Step asks for, the gradient of the midpoint L_d
// and the Newton matrix, with the same Lagrangian code: µs of CPU per evaluation,
// median of 11-15 interleaved rounds, 2-core AMD EPYC VM, native g++ 12 -O3, wasm
// emscripten 3.1.6 (clang 14) in Node 20:
//                                        native          wasm
//                                      Jet   Eigen    Jet   Eigen
//   ChainPenalty<2> (N = 6)  gradient  0.35  0.47     0.34  0.37
//                            Newton    3.6   6.7      4.9   4.6
//   RigidBodyQuaternion (4)  gradient  0.27  0.32     0.18  0.18
//                            Newton    2.2   5.9      1.8   2.4
//   ChainAngles<2> (N = 4)   gradient  0.37  0.84     0.33  0.33
//                            Newton    3.8   10.4     3.7   4.1
// Both give the same bits here (Eigen divides derivatives by a double through its
// reciprocal, Jet does not, so in general they would differ). The Newton matrices
// dominate a step: natively Jet is 1.9-2.7× faster; in wasm Eigen is 6-10 % faster
// on the penalty one, Jet 20-30 % on the quaternion one, and they are level on the
// chart, also with direct double operations added to Eigen's nested type (which
// converts each double to an inner AutoDiffScalar). So Jet stays. The native figures
// depend on g++'s per-unit inlining budget: with --param inline-unit-growth=400,
// Eigen's Newton matrices take 2.8, 1.8 and 4.4 µs, and Jet's move by under 10 %.
#pragma once

#include <array>
#include <type_traits>

#include "vilab/detmath.hpp"
#include "vilab/types.hpp"

#if defined(__GNUC__) || defined(__clang__)
#define VILAB_NOINLINE __attribute__((noinline))
#else
#define VILAB_NOINLINE
#endif

namespace vilab {

template <class T, int N>
struct Jet {
  T a;                 // value
  std::array<T, N> v;  // derivatives along N directions

  // No zero fill: every operation below writes a and all of v. Zero-filling each
  // temporary (N × (M + 1) doubles when nested) made the Newton matrices above
  // 1.9-2.2× slower natively and 4-15 % slower in wasm, for the same bits.
  Jet() = default;
  Jet(double x) : a(x) { v.fill(T(0.0)); }  // a constant (implicit, as for double)
  template <class U = T, std::enable_if_t<!std::is_same<U, double>::value, int> = 0>
  explicit Jet(const T& x) : a(x) {
    v.fill(T(0.0));
  }
  // The variable x_i: unit derivative along direction i.
  static Jet variable(const T& x, int i) {
    Jet j{x};
    j.v[i] = T(1.0);
    return j;
  }

  Jet& operator+=(const Jet& y) { return *this = *this + y; }
  Jet& operator-=(const Jet& y) { return *this = *this - y; }
  Jet& operator*=(const Jet& y) { return *this = *this * y; }
  Jet& operator/=(const Jet& y) { return *this = *this / y; }
  Jet& operator+=(double y) { return *this = *this + y; }
  Jet& operator-=(double y) { return *this = *this - y; }
  Jet& operator*=(double y) { return *this = *this * y; }
  Jet& operator/=(double y) { return *this = *this / y; }

  // Jet-by-jet arithmetic. For nested jets (second derivatives) each operation is
  // N × (M + 1) multiply-adds, so a call costs little next to it: inlining them all
  // made the wasm Newton matrices above 5-19 % faster and a step 4-8 %, but the
  // gzipped wasm 23 KB (13 %) larger, as did inlining only +, − and × double. Nested
  // operations are therefore kept out of line.
  friend Jet operator+(const Jet& x, const Jet& y) { return kNested ? addOutlined(x, y) : add(x, y); }
  friend Jet operator-(const Jet& x, const Jet& y) { return kNested ? subOutlined(x, y) : sub(x, y); }
  friend Jet operator*(const Jet& x, const Jet& y) { return kNested ? mulOutlined(x, y) : mul(x, y); }
  friend Jet operator/(const Jet& x, const Jet& y) { return kNested ? divOutlined(x, y) : div(x, y); }
  friend Jet operator-(const Jet& x) {
    Jet r;
    r.a = -x.a;
    for (int i = 0; i < N; ++i) r.v[i] = -x.v[i];
    return r;
  }
  friend Jet operator+(const Jet& x, double y) {
    Jet r = x;
    r.a = x.a + y;
    return r;
  }
  friend Jet operator+(double x, const Jet& y) { return y + x; }
  friend Jet operator-(const Jet& x, double y) {
    Jet r = x;
    r.a = x.a - y;
    return r;
  }
  friend Jet operator-(double x, const Jet& y) {
    Jet r = -y;
    r.a = x - y.a;
    return r;
  }
  friend Jet operator*(const Jet& x, double y) { return kNested ? scaleOutlined(x, y) : scale(x, y); }
  friend Jet operator*(double x, const Jet& y) { return y * x; }
  friend Jet operator/(const Jet& x, double y) {
    Jet r;
    r.a = x.a / y;
    for (int i = 0; i < N; ++i) r.v[i] = x.v[i] / y;
    return r;
  }
  friend Jet operator/(double x, const Jet& y) { return Jet(x) / y; }

 private:
  static constexpr bool kNested = !std::is_same<T, double>::value;
  static Jet add(const Jet& x, const Jet& y) {
    Jet r;
    r.a = x.a + y.a;
    for (int i = 0; i < N; ++i) r.v[i] = x.v[i] + y.v[i];
    return r;
  }
  static Jet sub(const Jet& x, const Jet& y) {
    Jet r;
    r.a = x.a - y.a;
    for (int i = 0; i < N; ++i) r.v[i] = x.v[i] - y.v[i];
    return r;
  }
  static Jet mul(const Jet& x, const Jet& y) {
    Jet r;
    r.a = x.a * y.a;
    for (int i = 0; i < N; ++i) r.v[i] = x.v[i] * y.a + x.a * y.v[i];
    return r;
  }
  static Jet div(const Jet& x, const Jet& y) {
    Jet r;
    r.a = x.a / y.a;
    for (int i = 0; i < N; ++i) r.v[i] = (x.v[i] - r.a * y.v[i]) / y.a;
    return r;
  }
  static Jet scale(const Jet& x, double y) {
    Jet r;
    r.a = x.a * y;
    for (int i = 0; i < N; ++i) r.v[i] = x.v[i] * y;
    return r;
  }
  VILAB_NOINLINE static Jet addOutlined(const Jet& x, const Jet& y) { return add(x, y); }
  VILAB_NOINLINE static Jet subOutlined(const Jet& x, const Jet& y) { return sub(x, y); }
  VILAB_NOINLINE static Jet mulOutlined(const Jet& x, const Jet& y) { return mul(x, y); }
  VILAB_NOINLINE static Jet divOutlined(const Jet& x, const Jet& y) { return div(x, y); }
  VILAB_NOINLINE static Jet scaleOutlined(const Jet& x, double y) { return scale(x, y); }
};

}  // namespace vilab

// Let Eigen hold Jets in matrices and mix them with doubles.
namespace Eigen {
template <class T, int N>
struct NumTraits<vilab::Jet<T, N>> : NumTraits<double> {
  using Real = vilab::Jet<T, N>;
  using NonInteger = vilab::Jet<T, N>;
  using Nested = vilab::Jet<T, N>;
  using Literal = vilab::Jet<T, N>;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 1,
    AddCost = 1 + N,
    MulCost = 1 + 2 * N,
  };
};
template <class T, int N, class BinOp>
struct ScalarBinaryOpTraits<vilab::Jet<T, N>, double, BinOp> {
  using ReturnType = vilab::Jet<T, N>;
};
template <class T, int N, class BinOp>
struct ScalarBinaryOpTraits<double, vilab::Jet<T, N>, BinOp> {
  using ReturnType = vilab::Jet<T, N>;
};
}  // namespace Eigen

namespace vilab {

// First-order dual number with N directions.
template <int N>
using Dual = Jet<double, N>;
// Second order: outer directions N over inner duals with M directions.
template <int N, int M>
using Dual2 = Jet<Dual<M>, N>;

// ---- value extraction, for any nesting depth -------------------------------
inline double valueOf(double x) { return x; }
template <class T, int N>
double valueOf(const Jet<T, N>& x) {
  return valueOf(x.a);
}

// ---- deterministic elementary functions for doubles and jets ----------------
// Call them qualified (math::sin(x)) so that no platform libm overload is picked.
namespace math {
inline double sin(double x) { return dm::sin(x); }
inline double cos(double x) { return dm::cos(x); }
inline double sqrt(double x) { return dm::sqrt(x); }
template <class T, int N>
Jet<T, N> sin(const Jet<T, N>& x);
template <class T, int N>
Jet<T, N> cos(const Jet<T, N>& x);
template <class T, int N>
Jet<T, N> sqrt(const Jet<T, N>& x);

template <class T, int N>
Jet<T, N> sin(const Jet<T, N>& x) {
  Jet<T, N> r;
  r.a = math::sin(x.a);
  const T c = math::cos(x.a);
  for (int i = 0; i < N; ++i) r.v[i] = x.v[i] * c;
  return r;
}
template <class T, int N>
Jet<T, N> cos(const Jet<T, N>& x) {
  Jet<T, N> r;
  r.a = math::cos(x.a);
  const T s = -math::sin(x.a);
  for (int i = 0; i < N; ++i) r.v[i] = x.v[i] * s;
  return r;
}
template <class T, int N>
Jet<T, N> sqrt(const Jet<T, N>& x) {
  Jet<T, N> r;
  r.a = math::sqrt(x.a);
  const T half = 0.5 / r.a;
  for (int i = 0; i < N; ++i) r.v[i] = x.v[i] * half;
  return r;
}
}  // namespace math

// ---- seeding ----------------------------------------------------------------
// Variables x_i with unit derivative e_i.
template <int N>
Vec<Dual<N>, N> seed(const Vec<double, N>& x) {
  Vec<Dual<N>, N> out;
  for (int i = 0; i < N; ++i) out[i] = Dual<N>::variable(x[i], i);
  return out;
}
// A constant (zero derivative) of scalar type S, for any nesting depth.
template <class S>
struct Lift {
  static S from(double x) { return x; }
};
template <class T, int N>
struct Lift<Jet<T, N>> {
  static Jet<T, N> from(double x) { return Jet<T, N>(x); }
};
template <class S, int N>
Vec<S, N> constant(const Vec<double, N>& x) {
  Vec<S, N> out;
  for (int i = 0; i < N; ++i) out[i] = Lift<S>::from(x[i]);
  return out;
}

// Value and gradient of a scalar function f: R^N -> R written over a template scalar.
template <int N, class F>
double gradient(const F& f, const Vec<double, N>& x, Vec<double, N>& grad) {
  const Dual<N> y = f(seed<N>(x));
  for (int i = 0; i < N; ++i) grad[i] = y.v[i];
  return y.a;
}

// Value and Jacobian of a vector function f: R^N -> R^M.
template <int N, int M, class F>
Vec<double, M> jacobian(const F& f, const Vec<double, N>& x, Mat<double, M, N>& jac) {
  const Vec<Dual<N>, M> y = f(seed<N>(x));
  Vec<double, M> value;
  for (int i = 0; i < M; ++i) {
    value[i] = y[i].a;
    for (int j = 0; j < N; ++j) jac(i, j) = y[i].v[j];
  }
  return value;
}

// Gradient of f(x, y) in x, and the Jacobian of that gradient in y, by nesting
// jets: outer directions over x, inner directions over y. Used for D1 L_d and its
// Newton matrix, and for the Legendre transform (x = y = v).
template <int N>
struct CrossDerivatives {
  double value;
  Vec<double, N> gradX;
  Mat<double, N, N> jacGradXY;  // (i, j) = d^2 f / dx_i dy_j
};

template <int N, class F>
CrossDerivatives<N> crossDerivatives(const F& f, const Vec<double, N>& x, const Vec<double, N>& y,
                                     bool sameVariable = false) {
  using Inner = Dual<N>;
  using Outer = Dual2<N, N>;
  Vec<Outer, N> X, Y;
  for (int i = 0; i < N; ++i) {
    X[i] = Outer::variable(sameVariable ? Inner::variable(x[i], i) : Inner(x[i]), i);
    Y[i] = sameVariable ? X[i] : Outer(Inner::variable(y[i], i));
  }
  const Outer r = f(X, Y);
  CrossDerivatives<N> out;
  out.value = r.a.a;
  for (int i = 0; i < N; ++i) {
    out.gradX[i] = r.v[i].a;
    for (int j = 0; j < N; ++j) out.jacGradXY(i, j) = r.v[i].v[j];
  }
  return out;
}

}  // namespace vilab
