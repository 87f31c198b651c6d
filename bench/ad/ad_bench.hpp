// Shared by the AD micro-benchmark's translation units (ad_bench.cpp, variant_*.cpp):
// the scalar types under test and one evaluation of d1Step's work for each. Every
// variant is compiled in a unit of its own, as a product unit (one integrator) holds
// one scalar type: g++ shares its inlining budget (--param inline-unit-growth) across
// a unit, and compiled together the variants starved each other (Eigen's penalty
// Newton matrix took 9.0 µs instead of 6.7).
#pragma once

#include <array>
#include <type_traits>
#include <unsupported/Eigen/AutoDiff>
#include <vector>

#include "vilab/ad.hpp"  // first: Eigen/Dense before the AutoDiff module

// ---- a Jet with switches ---------------------------------------------------------
namespace jetlab {

enum Flags : int {
  kZeroFill = 1,  // the default constructor zero-fills (ad.hpp before it was defaulted)
  kOutline = 2,   // nested operations out of line (VILAB_NOINLINE), as in ad.hpp
};

// The storage, with ad.hpp's former default constructor (zero fill) or a defaulted
// one; the constant constructor is ad.hpp's former one in both.
template <class T, int N, bool ZeroFill>
struct JetData {
  T a;
  std::array<T, N> v;
  JetData() = default;
  explicit JetData(const T& x) : a(x), v() { v.fill(T(0.0)); }
};
template <class T, int N>
struct JetData<T, N, true> {
  T a;
  std::array<T, N> v;
  JetData() : a(0.0), v() { v.fill(T(0.0)); }
  explicit JetData(const T& x) : a(x), v() { v.fill(T(0.0)); }
};

template <class T, int N, int F>
struct Jet : JetData<T, N, (F & kZeroFill) != 0> {
  using Base = JetData<T, N, (F & kZeroFill) != 0>;
  using Base::a;
  using Base::v;

  Jet() = default;
  Jet(double x) : Base(T(x)) {}
  template <class U = T, std::enable_if_t<!std::is_same<U, double>::value, int> = 0>
  explicit Jet(const T& x) : Base(x) {}
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

  friend Jet operator+(const Jet& x, const Jet& y) { return kOut ? addO(x, y) : add(x, y); }
  friend Jet operator-(const Jet& x, const Jet& y) { return kOut ? subO(x, y) : sub(x, y); }
  friend Jet operator*(const Jet& x, const Jet& y) { return kOut ? mulO(x, y) : mul(x, y); }
  friend Jet operator/(const Jet& x, const Jet& y) { return kOut ? divO(x, y) : div(x, y); }
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
  friend Jet operator*(const Jet& x, double y) { return kOut ? scaleO(x, y) : scale(x, y); }
  friend Jet operator*(double x, const Jet& y) { return y * x; }
  friend Jet operator/(const Jet& x, double y) {
    Jet r;
    r.a = x.a / y;
    for (int i = 0; i < N; ++i) r.v[i] = x.v[i] / y;
    return r;
  }
  friend Jet operator/(double x, const Jet& y) { return Jet(x) / y; }

  static constexpr bool kOut = (F & kOutline) != 0 && !std::is_same<T, double>::value;
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
  VILAB_NOINLINE static Jet addO(const Jet& x, const Jet& y) { return add(x, y); }
  VILAB_NOINLINE static Jet subO(const Jet& x, const Jet& y) { return sub(x, y); }
  VILAB_NOINLINE static Jet mulO(const Jet& x, const Jet& y) { return mul(x, y); }
  VILAB_NOINLINE static Jet divO(const Jet& x, const Jet& y) { return div(x, y); }
  VILAB_NOINLINE static Jet scaleO(const Jet& x, double y) { return scale(x, y); }
};

}  // namespace jetlab

namespace Eigen {
template <class T, int N, int F>
struct NumTraits<jetlab::Jet<T, N, F>> : NumTraits<double> {
  using Real = jetlab::Jet<T, N, F>;
  using NonInteger = Real;
  using Nested = Real;
  using Literal = Real;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 1,
    AddCost = 1 + N,
    MulCost = 1 + 2 * N
  };
};
template <class T, int N, int F, class Op>
struct ScalarBinaryOpTraits<jetlab::Jet<T, N, F>, double, Op> {
  using ReturnType = jetlab::Jet<T, N, F>;
};
template <class T, int N, int F, class Op>
struct ScalarBinaryOpTraits<double, jetlab::Jet<T, N, F>, Op> {
  using ReturnType = jetlab::Jet<T, N, F>;
};

// Nested AutoDiffScalar: its Scalar is the inner AutoDiffScalar, so Eigen does not
// know it mixes with double; declare it like ad.hpp does for Jet. Options tells the
// plain nested type (0) from the one with the double operations below (DontAlign).
template <int N, int Options, class Op>
struct ScalarBinaryOpTraits<AutoDiffScalar<Matrix<AutoDiffScalar<Matrix<double, N, 1>>, N, 1, Options, N, 1>>, double,
                            Op> {
  using ReturnType = AutoDiffScalar<Matrix<AutoDiffScalar<Matrix<double, N, 1>>, N, 1, Options, N, 1>>;
};
template <int N, int Options, class Op>
struct ScalarBinaryOpTraits<double, AutoDiffScalar<Matrix<AutoDiffScalar<Matrix<double, N, 1>>, N, 1, Options, N, 1>>,
                            Op> {
  using ReturnType = AutoDiffScalar<Matrix<AutoDiffScalar<Matrix<double, N, 1>>, N, 1, Options, N, 1>>;
};

// Nested, Eigen mixes a double in by converting it to an inner AutoDiffScalar (N + 1
// values), so 2 * x costs a full inner product per derivative. The variant "Eigen,
// double ops" adds the direct operations a user of Eigen would write. Its derivative
// type differs only in Options (DontAlign: no effect without vectorization), which
// NumTraits must keep as its Real type.
template <int N>
using EigenTuned = AutoDiffScalar<Matrix<AutoDiffScalar<Matrix<double, N, 1>>, N, 1, DontAlign, N, 1>>;
template <int N>
struct NumTraits<EigenTuned<N>> : NumTraits<AutoDiffScalar<Matrix<AutoDiffScalar<Matrix<double, N, 1>>, N, 1>>> {
  using Real = EigenTuned<N>;
  using NonInteger = EigenTuned<N>;
  using Nested = EigenTuned<N>;
};
template <int N>
EigenTuned<N> operator*(const EigenTuned<N>& a, double d) {
  return EigenTuned<N>(a.value() * d, (a.derivatives() * d).eval());
}
template <int N>
EigenTuned<N> operator*(double d, const EigenTuned<N>& a) {
  return EigenTuned<N>(a.value() * d, (a.derivatives() * d).eval());
}
template <int N>
EigenTuned<N> operator/(const EigenTuned<N>& a, double d) {
  return EigenTuned<N>(a.value() / d, (a.derivatives() / d).eval());
}
template <int N>
EigenTuned<N> operator+(const EigenTuned<N>& a, double d) {
  return EigenTuned<N>(a.value() + d, a.derivatives());
}
template <int N>
EigenTuned<N> operator-(const EigenTuned<N>& a, double d) {
  return EigenTuned<N>(a.value() - d, a.derivatives());
}
template <int N>
EigenTuned<N> operator-(double d, const EigenTuned<N>& a) {
  return EigenTuned<N>(d - a.value(), (-a.derivatives()).eval());
}
}  // namespace Eigen

// The Lagrangians call vilab::math::sin etc. qualified, so the overloads must be
// declared before the system headers. Values through dm:: as for Jet.
namespace vilab::math {
template <class T, int N, int F>
jetlab::Jet<T, N, F> sin(const jetlab::Jet<T, N, F>& x);
template <class T, int N, int F>
jetlab::Jet<T, N, F> cos(const jetlab::Jet<T, N, F>& x);
template <class T, int N, int F>
jetlab::Jet<T, N, F> sqrt(const jetlab::Jet<T, N, F>& x);
template <class D>
typename Eigen::CleanedUpDerType<D>::type sin(const Eigen::AutoDiffScalar<D>& x);
template <class D>
typename Eigen::CleanedUpDerType<D>::type cos(const Eigen::AutoDiffScalar<D>& x);
template <class D>
typename Eigen::CleanedUpDerType<D>::type sqrt(const Eigen::AutoDiffScalar<D>& x);

template <class T, int N, int F>
jetlab::Jet<T, N, F> sin(const jetlab::Jet<T, N, F>& x) {
  jetlab::Jet<T, N, F> r;
  r.a = math::sin(x.a);
  const T c = math::cos(x.a);
  for (int i = 0; i < N; ++i) r.v[i] = x.v[i] * c;
  return r;
}
template <class T, int N, int F>
jetlab::Jet<T, N, F> cos(const jetlab::Jet<T, N, F>& x) {
  jetlab::Jet<T, N, F> r;
  r.a = math::cos(x.a);
  const T s = -math::sin(x.a);
  for (int i = 0; i < N; ++i) r.v[i] = x.v[i] * s;
  return r;
}
template <class T, int N, int F>
jetlab::Jet<T, N, F> sqrt(const jetlab::Jet<T, N, F>& x) {
  jetlab::Jet<T, N, F> r;
  r.a = math::sqrt(x.a);
  const T half = 0.5 / r.a;
  for (int i = 0; i < N; ++i) r.v[i] = x.v[i] * half;
  return r;
}

// Eigen's own formulas (AutoDiffScalar.h), with the inner factor evaluated once
// (into a plain type: an AutoDiffScalar expression would point into a temporary).
template <class D>
typename Eigen::CleanedUpDerType<D>::type sin(const Eigen::AutoDiffScalar<D>& x) {
  using R = typename Eigen::CleanedUpDerType<D>::type;
  using Inner = typename R::Scalar;
  const Inner c = math::cos(x.value());
  return R(math::sin(x.value()), (x.derivatives() * c).eval());
}
template <class D>
typename Eigen::CleanedUpDerType<D>::type cos(const Eigen::AutoDiffScalar<D>& x) {
  using R = typename Eigen::CleanedUpDerType<D>::type;
  using Inner = typename R::Scalar;
  const Inner s = -math::sin(x.value());
  return R(math::cos(x.value()), (x.derivatives() * s).eval());
}
template <class D>
typename Eigen::CleanedUpDerType<D>::type sqrt(const Eigen::AutoDiffScalar<D>& x) {
  using R = typename Eigen::CleanedUpDerType<D>::type;
  using Inner = typename R::Scalar;
  const Inner root = math::sqrt(x.value());
  const Inner half = 0.5 / root;
  return R(root, (x.derivatives() * half).eval());
}
}  // namespace vilab::math

#include "vilab/integrators/variational.hpp"
#include "vilab/systems/chain.hpp"
#include "vilab/systems/rigid_body.hpp"

namespace adbench {

using namespace vilab;

// ---- scalar families: seeds and read-out of first and nested second order --------
template <int F>
struct JetFamily {
  template <int N>
  using D1 = jetlab::Jet<double, N, F>;
  template <int N>
  using D2 = jetlab::Jet<D1<N>, N, F>;
  template <int N>
  static D1<N> variable(double x, int i) {
    return D1<N>::variable(x, i);
  }
  template <int N>
  static D1<N> constant1(double x) {
    return D1<N>(x);
  }
  template <int N>
  static D2<N> constant2(double x) {
    return D2<N>(x);
  }
  template <int N>  // outer variable i, inner constant (crossDerivatives' X)
  static D2<N> outerVariable(double x, int i) {
    return D2<N>::variable(D1<N>(x), i);
  }
  template <int N>  // inner variable i, outer constant (crossDerivatives' Y)
  static D2<N> innerVariable(double y, int i) {
    return D2<N>(D1<N>::variable(y, i));
  }
  template <int N>
  static double grad1(const D1<N>& r, int i) {
    return r.v[i];
  }
  template <int N>
  static double grad2(const D2<N>& r, int i) {
    return r.v[i].a;
  }
  template <int N>
  static double hess2(const D2<N>& r, int i, int j) {
    return r.v[i].v[j];
  }
};

template <int Options>  // 0, or DontAlign for EigenTuned
struct EigenFamily {
  template <int N>
  using D1 = Eigen::AutoDiffScalar<Eigen::Matrix<double, N, 1>>;
  template <int N>
  using D2 = Eigen::AutoDiffScalar<Eigen::Matrix<D1<N>, N, 1, Options, N, 1>>;
  template <int N>
  static D1<N> variable(double x, int i) {
    return D1<N>(x, N, i);
  }
  template <int N>
  static D1<N> constant1(double x) {
    return D1<N>(x);
  }
  template <int N>
  static D2<N> constant2(double x) {
    return D2<N>(D1<N>(x));
  }
  template <int N>
  static D2<N> outerVariable(double x, int i) {
    return D2<N>(D1<N>(x), N, i);
  }
  template <int N>
  static D2<N> innerVariable(double y, int i) {
    return D2<N>(D1<N>(y, N, i), Eigen::Matrix<D1<N>, N, 1, Options, N, 1>::Zero());
  }
  template <int N>
  static double grad1(const D1<N>& r, int i) {
    return r.derivatives()[i];
  }
  template <int N>
  static double grad2(const D2<N>& r, int i) {
    return r.derivatives()[i].value();
  }
  template <int N>
  static double hess2(const D2<N>& r, int i, int j) {
    return r.derivatives()[i].derivatives()[j];
  }
};

// d1Step's two computations (variational.hpp), written for a family.
template <class Fam, class System, int N = System::N>
void d1Family(const System& sys, double h, const Vec<double, N>& q0, const Vec<double, N>& delta, Vec<double, N>& grad,
              Mat<double, N, N>* J) {
  const DiscreteRule rule = DiscreteRule::midpoint();
  if (!J) {
    using S = typename Fam::template D1<N>;
    Vec<S, N> x, Q, D;
    for (int i = 0; i < N; ++i) {
      x[i] = Fam::template variable<N>(0.0, i);
      Q[i] = Fam::template constant1<N>(q0[i]);
      D[i] = Fam::template constant1<N>(delta[i]);
    }
    const S r = discreteLagrangianStep(sys, rule, h, Vec<S, N>(Q + x), Vec<S, N>(D - x));
    for (int i = 0; i < N; ++i) grad[i] = Fam::template grad1<N>(r, i);
    return;
  }
  using S = typename Fam::template D2<N>;
  Vec<S, N> X, Y, Q, D;
  for (int i = 0; i < N; ++i) {
    X[i] = Fam::template outerVariable<N>(0.0, i);
    Y[i] = Fam::template innerVariable<N>(0.0, i);
    Q[i] = Fam::template constant2<N>(q0[i]);
    D[i] = Fam::template constant2<N>(delta[i]);
  }
  const S r = discreteLagrangianStep(sys, rule, h, Vec<S, N>(Q + X), Vec<S, N>(D - X + Y));
  for (int i = 0; i < N; ++i) {
    grad[i] = Fam::template grad2<N>(r, i);
    for (int j = 0; j < N; ++j) (*J)(i, j) = Fam::template hess2<N>(r, i, j);
  }
}

struct Inputs {
  double h;
  std::vector<double> q0, delta;
};

enum Variant { kLibrary, kZeroFill, kDefault, kDefaultInline, kEigen, kEigenTuned, kVariants };
inline const char* const kVariantNames[kVariants] = {"ad.hpp (d1Step)",       "Jet zero-fill",  "Jet = default",
                                                     "Jet = default, inline", "Eigen AutoDiff", "Eigen, double ops"};

struct Result {
  std::vector<double> grad, jac;
};

// A system with its integrator, built once (the model's vectors are copied into it).
template <class System>
struct Subject {
  System system;
  VariationalIntegrator<System> integrator;
  Subject(const System& s, double h) : system(s), integrator(s, DiscreteRule::midpoint(), h) {}
};

// One evaluation, out of line so the timing loop cannot hoist or fuse it; defined
// and instantiated by the variant_*.cpp units only.
template <Variant V, class System, bool Newton>
void evaluate(const Subject<System>& subject, const Inputs& in, Result& out);

#ifdef VILAB_AD_BENCH_VARIANT
template <Variant V, class System, bool Newton>
VILAB_NOINLINE void evaluate(const Subject<System>& subject, const Inputs& in, Result& out) {
  const System& sys = subject.system;
  constexpr int N = System::N;
  const Vec<double, N> q0 = Eigen::Map<const Vec<double, N>>(in.q0.data());
  const Vec<double, N> delta = Eigen::Map<const Vec<double, N>>(in.delta.data());
  Vec<double, N> grad;
  Mat<double, N, N> J;
  Mat<double, N, N>* jp = Newton ? &J : nullptr;
  if constexpr (V == kLibrary) {
    grad = subject.integrator.d1Step(q0, delta, jp);
  } else if constexpr (V == kZeroFill) {
    d1Family<JetFamily<jetlab::kZeroFill | jetlab::kOutline>>(sys, in.h, q0, delta, grad, jp);
  } else if constexpr (V == kDefault) {
    d1Family<JetFamily<jetlab::kOutline>>(sys, in.h, q0, delta, grad, jp);
  } else if constexpr (V == kDefaultInline) {
    d1Family<JetFamily<0>>(sys, in.h, q0, delta, grad, jp);
  } else if constexpr (V == kEigen) {
    d1Family<EigenFamily<0>>(sys, in.h, q0, delta, grad, jp);
  } else {
    d1Family<EigenFamily<Eigen::DontAlign>>(sys, in.h, q0, delta, grad, jp);
  }
  out.grad.assign(grad.data(), grad.data() + N);
  if (Newton) out.jac.assign(J.data(), J.data() + N * N);
}

#define VILAB_AD_BENCH_INSTANTIATE(System)                                                                       \
  template void evaluate<VILAB_AD_BENCH_VARIANT, System, false>(const Subject<System>&, const Inputs&, Result&); \
  template void evaluate<VILAB_AD_BENCH_VARIANT, System, true>(const Subject<System>&, const Inputs&, Result&);
VILAB_AD_BENCH_INSTANTIATE(ChainPenalty<2>)
VILAB_AD_BENCH_INSTANTIATE(RigidBodyQuaternion)
VILAB_AD_BENCH_INSTANTIATE(ChainAngles<2>)
#undef VILAB_AD_BENCH_INSTANTIATE
#endif

}  // namespace adbench
