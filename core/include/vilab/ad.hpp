// Forward-mode automatic differentiation with fixed sizes (Eigen AutoDiff), and
// the elementary functions the Lagrangians use, routed through vilab::dm so the
// native and wasm builds agree bit for bit.
#pragma once

#include "vilab/types.hpp"  // Eigen/Dense must precede AutoDiff

#include <unsupported/Eigen/AutoDiff>

#include "vilab/detmath.hpp"

// Eigen only declares mixed AutoDiffScalar/Real expressions for first-order duals.
// Nested duals (second derivatives) also need matrix-by-double expressions.
namespace Eigen {
template <class Inner, int R, int C, int O, int MR, int MC, class BinOp>
struct ScalarBinaryOpTraits<AutoDiffScalar<Matrix<AutoDiffScalar<Inner>, R, C, O, MR, MC>>, double, BinOp> {
  using ReturnType = AutoDiffScalar<Matrix<AutoDiffScalar<Inner>, R, C, O, MR, MC>>;
};
template <class Inner, int R, int C, int O, int MR, int MC, class BinOp>
struct ScalarBinaryOpTraits<double, AutoDiffScalar<Matrix<AutoDiffScalar<Inner>, R, C, O, MR, MC>>, BinOp> {
  using ReturnType = AutoDiffScalar<Matrix<AutoDiffScalar<Inner>, R, C, O, MR, MC>>;
};
}  // namespace Eigen

namespace vilab {

// First-order dual number with N directions.
template <int N>
using Dual = Eigen::AutoDiffScalar<Vec<double, N>>;
// Second order: outer directions N over inner duals with M directions.
template <int N, int M>
using Dual2 = Eigen::AutoDiffScalar<Vec<Dual<M>, N>>;

// ---- value extraction, for any nesting depth -------------------------------
inline double valueOf(double x) { return x; }
template <class D>
double valueOf(const Eigen::AutoDiffScalar<D>& x) {
  return valueOf(x.value());
}

// ---- deterministic elementary functions for doubles and duals ----------------
// Call them qualified (math::sin(x)): Eigen declares its own sin/cos for
// AutoDiffScalar that forward to std:: (the platform libm), and qualified calls
// keep argument-dependent lookup from picking those.
namespace math {
inline double sin(double x) { return dm::sin(x); }
inline double cos(double x) { return dm::cos(x); }
inline double sqrt(double x) { return dm::sqrt(x); }
template <class D>
Eigen::AutoDiffScalar<D> sin(const Eigen::AutoDiffScalar<D>& x);
template <class D>
Eigen::AutoDiffScalar<D> cos(const Eigen::AutoDiffScalar<D>& x);
template <class D>
Eigen::AutoDiffScalar<D> sqrt(const Eigen::AutoDiffScalar<D>& x);

template <class D>
Eigen::AutoDiffScalar<D> sin(const Eigen::AutoDiffScalar<D>& x) {
  return Eigen::AutoDiffScalar<D>(math::sin(x.value()), x.derivatives() * math::cos(x.value()));
}
template <class D>
Eigen::AutoDiffScalar<D> cos(const Eigen::AutoDiffScalar<D>& x) {
  return Eigen::AutoDiffScalar<D>(math::cos(x.value()), x.derivatives() * (-math::sin(x.value())));
}
template <class D>
Eigen::AutoDiffScalar<D> sqrt(const Eigen::AutoDiffScalar<D>& x) {
  const auto r = math::sqrt(x.value());
  return Eigen::AutoDiffScalar<D>(r, x.derivatives() * (0.5 / r));
}
}  // namespace math

// ---- seeding ----------------------------------------------------------------
// Variables x_i with unit derivative e_i.
template <int N>
Vec<Dual<N>, N> seed(const Vec<double, N>& x) {
  Vec<Dual<N>, N> out;
  for (int i = 0; i < N; ++i) out[i] = Dual<N>(x[i], N, i);
  return out;
}
// A constant (zero derivative) of scalar type S, for any nesting depth.
template <class S>
struct Lift {
  static S from(double x) { return x; }
};
template <class D>
struct Lift<Eigen::AutoDiffScalar<D>> {
  using S = Eigen::AutoDiffScalar<D>;
  static S from(double x) { return S(Lift<typename S::Real>::from(x)); }
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
  grad = y.derivatives();
  return y.value();
}

// Value and Jacobian of a vector function f: R^N -> R^M.
template <int N, int M, class F>
Vec<double, M> jacobian(const F& f, const Vec<double, N>& x, Mat<double, M, N>& jac) {
  const Vec<Dual<N>, M> y = f(seed<N>(x));
  Vec<double, M> value;
  for (int i = 0; i < M; ++i) {
    value[i] = y[i].value();
    jac.row(i) = y[i].derivatives().transpose();
  }
  return value;
}

}  // namespace vilab

namespace vilab {

// Gradient of f(x, y) in x, and the Jacobian of that gradient in y, by nesting
// duals: outer directions over x, inner directions over y. Used for D1 L_d and its
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
    Vec<Inner, N> unit = Vec<Inner, N>::Zero();
    unit[i] = Inner(1.0);
    X[i] = Outer(sameVariable ? Inner(x[i], N, i) : Inner(x[i]), unit);
    Y[i] = sameVariable ? X[i] : Outer(Inner(y[i], N, i), Vec<Inner, N>::Zero());
  }
  const Outer r = f(X, Y);
  CrossDerivatives<N> out;
  out.value = r.value().value();
  for (int i = 0; i < N; ++i) {
    out.gradX[i] = r.derivatives()[i].value();
    out.jacGradXY.row(i) = r.derivatives()[i].derivatives().transpose();
  }
  return out;
}

}  // namespace vilab
