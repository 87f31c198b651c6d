// LagrangianDel's steps (integrators/lagrangian_del.hpp), compiled once: the header is
// included by every integrator's file, and these bodies' Newton solver and Eigen code cost
// each of them seconds of template instantiation.
#include "vilab/integrators/lagrangian_del.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "vilab/solver/strided_dot.hpp"

namespace vilab {

namespace {
// max(a, b) of two magnitudes (each ≥ +0, or NaN) as their bits order them: no branch
// on the data, which V8 compiles a double's comparison to (an integer select is a
// conditional move). std::max's value where both are numbers; a NaN wins wherever it
// is, where std::max keeps or drops it by its place: the step in place, its one user,
// refuses a step with a NaN either way.
inline double maxMagnitude(double a, double b) {
  std::uint64_t x, y;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  const std::uint64_t m = x < y ? y : x;
  double r;
  std::memcpy(&r, &m, sizeof r);
  return r;
}

// max_i |x_i| as Eigen's cwiseAbs().maxCoeff() reduces it (std::max from the first), or
// on the magnitudes' bits (kOnBits: maxMagnitude).
template <bool kOnBits = false, class Coefficient>
double maxAbs(int size, Coefficient coefficient) {
  double m = std::abs(coefficient(0));
  for (int i = 1; i < size; ++i) {
    const double x = std::abs(coefficient(i));
    m = kOnBits ? maxMagnitude(m, x) : std::max(m, x);
  }
  return m;
}
}  // namespace

StepOutcome LagrangianDel::stepGeneral(VecX& q, VecX& p) {
  const int n = eval_->n(), c = eval_->c();
  const LagrangianProblem& P = eval_->problem();
  const bool affine = P.constantHessian && (!forced_ || P.constantForceJacobian);
  q0_ = &q;
  p0_ = &p;
  eval_->constraints(q.data(), g_, &G0_);
  qScale_ = 1.0 + maxAbs(n, [&](int i) { return q[i]; });
  pScale_ = 1.0 + maxAbs(n, [&](int i) { return p[i]; });

  // Stage 1: Newton on F(δ, λ) = [p_k + D1 L_d + Dg(q_k)ᵀλ ; g(q_k + δ)] = 0, simplified:
  // the Jacobian is rebuilt only when the iteration contracts slowly, and globalized
  // (solver/newton.hpp: where plain Newton is refused, damped steps that stay where L
  // is defined). It starts from the previous step's (δ, λ), which is within O(h²) of
  // the solution; after a load from the explicit predictor δ = h q̇_k, λ = 0 (q̇_k
  // recovered from p_k; δ = 0 if it cannot be), within O(h²) too. From δ = 0 the first
  // update of a non-quadratic L can leave its domain (|q̇| ≥ 1 for a relativistic one).
  if (previous_.size() == n + c) {
    x_ = previous_;
  } else {
    x_ = SmallVec::Zero(n + c);
    if (explicitPredictor(*eval_, q, p, t_, v_)) x_.head(n) = h_ * v_;
  }
  const StepOutcome out = affine ? solveReduced() : solveFull();
  if (!out.ok) return out;

  // Stage 2: p_{k+1} = D2 L_d + f_d^+ = p_k + Dg(q_k)ᵀλ + (D1 + D2) L_d + f_d^− + f_d^+
  // (at the solution D1 L_d = −p_k − f_d^− − Dg(q_k)ᵀλ); then the tangent part, as the
  // built-in chains store it.
  const SmallVec delta = x_.head(n);
  shift(q, delta, shift_);
  q1_.resize(n);
  p1_.resize(n);
  withCoordinateCount(n, [&](auto N) {
    for (int i = 0; i < countOf(N, n); ++i) {
      q1_[i] = q[i] + delta[i];
      p1_[i] = p[i] + shift_[i];
    }
  });
  // p1 += Dg(q_k)ᵀλ, each sum as lazyProduct sums it.
  withConstraintCount(c, [&](auto C) {
    const int count = countOf(C, c);
    if (count > 0)
      for (int i = 0; i < n; ++i) p1_[i] += stridedDot(&G0_(0, i), 1, &x_[n], 1, count);
  });
  if (forced_) {
    discreteForces(q, delta, fMinus_, fPlus_);
    p1_ += fMinus_ + fPlus_;
  }
  // v_ = δ/h, the step's mean velocity (shift's gradientsAt formed it): the recovery's
  // starting guess.
  if (c > 0 && !eval_->projectMomentum(q1_.data(), p1_.data(), t_ + h_, &v_))
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

bool LagrangianDel::linearize(const State& s, Eigen::MatrixXd& jacobian, std::string& why) const {
  if (rule_.kind == Quadrature::Trapezoid) {
    why = "the trapezoid rule's step is not differentiated (the α-family's is)";
    return false;
  }
  if (eval_->c() > 0) {
    why = "the step with constraints is not differentiated (only systems without constraints)";
    return false;
  }
  LagrangianDel work = *this;
  VecX q = s.q, p = s.p;
  const StepOutcome out = work.step(q, p);
  if (!out.ok) {
    why = "the step from this state is refused: " + out.refusal.reason;
    return false;
  }
  const int n = eval_->n();
  const double h = h_, a = weight(), sF = split_ == ForceSplit::OneSided ? 1.0 : 0.5;
  const SmallVec delta = work.x_.head(n);
  SmallVec d1(n);
  SmallMat rDelta(n, n);
  work.discreteDerivative(s.q, delta, d1, &rDelta);  // also leaves L's and F's second derivatives at x̄
  Eigen::MatrixXd lqq = work.Lqq_, lqv = work.Lqv_;
  Eigen::MatrixXd rq = (h * (1 - a)) * lqq - lqv.transpose();
  if (forced_) {
    rq += (sF * h) * Eigen::MatrixXd(work.Fq_);
    lqq += Eigen::MatrixXd(work.Fq_);
    lqv += Eigen::MatrixXd(work.Fv_);
  }
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu{Eigen::MatrixXd(rDelta)};
  const Eigen::MatrixXd dDeltaDq = -lu.solve(rq);
  const Eigen::MatrixXd dDeltaDp = -lu.solve(Eigen::MatrixXd::Identity(n, n));
  const Eigen::MatrixXd momentumGain = (h * a) * lqq + lqv;
  jacobian.resize(2 * n, 2 * n);
  jacobian.topLeftCorner(n, n) = Eigen::MatrixXd::Identity(n, n) + dDeltaDq;
  jacobian.topRightCorner(n, n) = dDeltaDp;
  jacobian.bottomLeftCorner(n, n) = h * lqq + momentumGain * dDeltaDq;
  jacobian.bottomRightCorner(n, n) = Eigen::MatrixXd::Identity(n, n) + momentumGain * dDeltaDp;
  if (!jacobian.allFinite()) {
    why = "the Newton matrix of the step is singular here";
    return false;
  }
  return true;
}

void LagrangianDel::setGlobalized(bool on) {
  globalized_ = on;
  eval_->setGlobalized(on);
}

StepOutcome LagrangianDel::solveFull() {
  NewtonSettings settings;
  settings.fullNewton = false;
  settings.globalize = globalized_;
  settings.what = "the discrete Euler–Lagrange equations";
  return solveNewton(*this, x_, settings, workspace_);
}

StepOutcome LagrangianDel::solveReduced() {
  const int n = eval_->n(), c = eval_->c();
  const VecX& q = *q0_;
  if (!reducedReady_) {
    SmallVec d1(n);
    discreteDerivative(q, SmallVec::Zero(n), d1, &J11_);
    if (!j11Lu_.compute(J11_) || !j11Lu_.regular(limits::kSingularPivotRatio))
      return StepOutcome::refuse(RefusalCode::SingularMatrix,
                                 "the Newton matrix of the discrete Euler–Lagrange equations is singular",
                                 Suggestion::reduceH(), 1);
    j11Inverse_ = j11Lu_.inverse();
    j11ZerosSign_ = diagonalZerosSign(j11Inverse_);
    stepInPlace_ = nullptr;
    reducedReady_ = true;
  }
  SmallVec d1(n);
  discreteDerivative(q, SmallVec::Zero(n), d1, nullptr);
  // δ0 = −J11⁻¹ (p_k + d1), B = J11⁻¹ Dg(q_k)ᵀ, summed as lazyProduct sums them.
  const SmallMat& Jinv = j11Inverse_;
  delta0_.resize(n);
  withCoordinateCount(n, [&](auto N) {
    const int size = countOf(N, n);
    std::array<double, kMaxSmallSize> rhs;
    for (int k = 0; k < size; ++k) rhs[static_cast<std::size_t>(k)] = (*p0_)[k] + d1[k];
    for (int i = 0; i < size; ++i) delta0_[i] = -stridedDot(&Jinv(i, 0), Jinv.outerStride(), rhs.data(), 1, size);
  });
  if (c == 0) {
    x_.head(n) = delta0_;
    return delta0_.allFinite()
               ? StepOutcome::accepted(1)
               : StepOutcome::refuse(RefusalCode::NonFinite, "the step is not finite", Suggestion::reduceH(), 1);
  }
  B_.resize(n, c);
  withCoordinateCount(n, [&](auto N) {
    const int size = countOf(N, n);
    for (int j = 0; j < c; ++j)
      for (int i = 0; i < size; ++i)
        B_(i, j) = stridedDot(&Jinv(i, 0), Jinv.outerStride(), &G0_(j, 0), G0_.outerStride(), size);
  });
  lambda_ = x_.tail(c);
  Reduced reduced{*this};
  NewtonSettings settings;
  settings.globalize = globalized_;
  settings.what = "the constraints of the discrete Euler–Lagrange equations";
  const StepOutcome out = solveNewton(reduced, lambda_, settings, reducedWorkspace_);
  if (!out.ok) return out;
  withConstraintCount(c, [&](auto C) {
    for (int i = 0; i < n; ++i)
      x_[i] = delta0_[i] - stridedDot(&B_(i, 0), B_.outerStride(), lambda_.data(), 1, countOf(C, c));
  });
  x_.tail(c) = lambda_;
  return out;
}

template <class NK, class CK, bool kDiagonal>
bool LagrangianDel::stepReducedInPlace(VecX& q, VecX& p, int& iterations) {
  constexpr int kMaxN = lagrangian_limits::kMaxCoordinates, kMaxC = lagrangian_limits::kMaxConstraints;
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const int n = countOf(NK{}, eval_->n()), c = countOf(CK{}, eval_->c());
  const LagrangianProblem& P = eval_->problem();
  LagrangianEval& eval = *eval_;
  const double h = h_, a = weight(), w = h * (1 - a), zero = 0.0;
  const double tL = P.timeDependent ? sampleTime() : 0.0;  // the time L's programs see
  std::array<double, 2 * kMaxN + 1> vars;                  // (q, q̇, t) as LagrangianEval lays them out
  std::array<double, 2 * kMaxN> gradient;                  // L_q, L_q̇
  std::array<double, kMaxC + kMaxC * kMaxN> constraint;    // g, then Dg row by row
  std::array<double, kMaxC * kMaxN> G0, B;                 // Dg(q_k) by rows; B = J11⁻¹ Dg(q_k)ᵀ by columns
  std::array<double, kMaxN> delta0, rhs;
  std::array<double, kMaxC> lambda, dl;
  ConstraintBlock<CK> S;  // the reduced Newton matrix −Dg B
  ConstraintBlockLU<CK> slu;

  // Dg(q_k) (the last step's projection evaluated it: memoized), the sizes, λ's start.
  const double* o = eval.constraintOutputs(q.data());
  for (int k = 0; k < c * n; ++k) G0[k] = o[c + k];
  const double qScale = 1.0 + maxAbs<true>(n, [&](int i) { return q[i]; });
  const double pScale = 1.0 + maxAbs<true>(n, [&](int i) { return p[i]; });
  for (int j = 0; j < c; ++j) lambda[j] = previous_[n + j];

  // δ0 = −J11⁻¹ (p_k + D1 L_d(q_k, q_k)), B = J11⁻¹ Dg(q_k)ᵀ (solveReduced). With L_q
  // constant and ∂L/∂q̇ at rest formed once, L's gradient is known without running its
  // program, here and in stage 2: the same values (a program is a function of its
  // variables, and these outputs read none that change).
  const double* restMomentum = P.constantLq ? eval.restMomentum() : nullptr;
  if (restMomentum) {
    for (int k = 0; k < n; ++k) rhs[k] = p[k] + (w * P.Lq[k] - restMomentum[k]);
  } else {
    for (int i = 0; i < n; ++i) {
      vars[i] = q[i] + a * zero;
      vars[n + i] = zero / h;
    }
    vars[2 * n] = tL;
    eval.runAt(LagrangianWorkspace::kGradient, P.gradient, vars.data(), gradient.data());
    for (int k = 0; k < n; ++k) rhs[k] = p[k] + (w * gradient[k] - gradient[n + k]);
  }
  const SmallMat& Jinv = j11Inverse_;
  if constexpr (kDiagonal) {
    // The sums' bits (diagonalTimes). An rhs or a Dg(q_k) not finite gives a δ0 or a B
    // not finite either, which this step refuses as it refuses the sums' (in its
    // iteration, or at a q_{k+1} not finite).
    diagonalTimes(Jinv.data(), Jinv.outerStride(), j11ZerosSign_, rhs.data(), delta0.data(), n);
    for (int i = 0; i < n; ++i) delta0[i] = -delta0[i];
    for (int j = 0; j < c; ++j) diagonalTimes(Jinv.data(), Jinv.outerStride(), j11ZerosSign_, &G0[j * n], &B[j * n], n);
  } else {
    for (int i = 0; i < n; ++i) delta0[i] = -stridedDot(&Jinv(i, 0), Jinv.outerStride(), rhs.data(), 1, n);
    for (int j = 0; j < c; ++j)
      for (int i = 0; i < n; ++i) B[j * n + i] = stridedDot(&Jinv(i, 0), Jinv.outerStride(), &G0[j * n], 1, n);
  }

  // Newton on g(q_k + δ0 − Bλ) = 0 with the matrix −Dg(q_k + δ) B, as newtonIterate
  // runs it for solveReduced (full Newton, its stopping rule); anything else: false.
  const NewtonSettings settings;
  const double tol = settings.toleranceUlps * eps;
  double previous = std::numeric_limits<double>::infinity(), theta = 1;
  int growing = 0, k = 1;
  for (;; ++k) {
    if (k > settings.maxIterations) return false;
    // The constraints' variables: x = q_k + δ(λ), q̇ = 0, t = 0.
    for (int i = 0; i < n; ++i) {
      vars[i] = q[i] + (delta0[i] - stridedDot(&B[i], n, lambda.data(), 1, c));
      vars[n + i] = 0.0;
    }
    vars[2 * n] = 0.0;
    eval.runAt(LagrangianWorkspace::kConstraints, P.constraints, vars.data(), constraint.data());
    bool finite = true;
    for (int i = 0; i < c; ++i) {
      dl[i] = constraint[i];
      finite = finite && std::isfinite(constraint[i]);
    }
    if (!finite) return false;
    S.resize(c, c);
    for (int j = 0; j < c; ++j)
      for (int i = 0; i < c; ++i) S(i, j) = -stridedDot(&constraint[c + i * n], 1, &B[j * n], 1, n);
    if (!slu.compute(S)) return false;
    const double condition = slu.pivotRatio();
    if (!(condition <= limits::kSingularPivotRatio)) return false;
    slu.solveInPlace(Eigen::Map<ConstraintVector<CK>>(dl.data(), c));
    for (int i = 0; i < c; ++i) dl[i] = -dl[i];
    // Reduced::size: max_i |(B Δλ)_i| / qScale and max_i |(Dg(q_k)ᵀ Δλ)_i| / pScale.
    double dq = std::abs(stridedDot(&B[0], n, dl.data(), 1, c));
    double dp = std::abs(stridedDot(&G0[0], n, dl.data(), 1, c));
    for (int i = 1; i < n; ++i) {
      dq = maxMagnitude(dq, std::abs(stridedDot(&B[i], n, dl.data(), 1, c)));
      dp = maxMagnitude(dp, std::abs(stridedDot(&G0[i], n, dl.data(), 1, c)));
    }
    const double size = std::max(dq / qScale, dp / pScale);
    if (!std::isfinite(size)) return false;
    for (int i = 0; i < c; ++i) lambda[i] += dl[i];
    const double floor = settings.floorUlps * eps * (condition > 1 ? condition : 1.0);
    if (k > 1) theta = size / previous;
    if (size <= tol) break;
    if (k > 1 && theta < 1 && theta * theta * size <= settings.predictedUlps * eps) break;
    if (k > 1 && theta >= 0.5 && size <= floor) break;
    if (k > 1 && theta >= 1) {
      if (++growing >= 2) return false;
    } else {
      growing = 0;
    }
    previous = size;
  }

  // Stage 2 (step): δ, then p_{k+1} = p_k + h L_q(q_k + αδ, δ/h) + Dg(q_k)ᵀλ, projected.
  x_.resize(n + c);
  for (int i = 0; i < n; ++i) x_[i] = delta0[i] - stridedDot(&B[i], n, lambda.data(), 1, c);
  for (int j = 0; j < c; ++j) x_[n + j] = lambda[j];
  if (restMomentum) {
    for (int i = 0; i < n; ++i) gradient[i] = P.Lq[i];
  } else {
    for (int i = 0; i < n; ++i) {
      vars[n + i] = x_[i] / h;
      vars[i] = q[i] + a * x_[i];
    }
    vars[2 * n] = tL;
    eval.runAt(LagrangianWorkspace::kGradient, P.gradient, vars.data(), gradient.data());
  }
  q1_.resize(n);
  p1_.resize(n);
  bool finite = true;
  for (int i = 0; i < n; ++i) {
    q1_[i] = q[i] + x_[i];
    finite = finite && std::isfinite(q1_[i]);
    p1_[i] = p[i] + h * gradient[i];
    p1_[i] += stridedDot(&G0[i], n, lambda.data(), 1, c);
  }
  // The projection fails on a momentum that is not finite.
  if (!finite || !eval.projectMomentumKeepingEnergy(q1_.data(), p1_.data(), t_ + h_)) return false;
  q.swap(q1_);
  p.swap(p1_);
  previous_ = x_;
  iterations = k;
  ++stepsInPlace_;
  return true;
}

LagrangianDel::StepInPlace LagrangianDel::stepInPlaceFor(int n, int c, bool diagonal) {
  return withCoordinateAndConstraintCounts(n, c, [&](auto N, auto C) -> StepInPlace {
    // A diagonal J11⁻¹'s products by diagonalTimes; 2 × 2 and smaller gain nothing.
    if (diagonal && decltype(N)::value != 1 && decltype(N)::value != 2)
      return &LagrangianDel::stepReducedInPlace<decltype(N), decltype(C), true>;
    return &LagrangianDel::stepReducedInPlace<decltype(N), decltype(C), false>;
  });
}

// The reduced problem's products summed as lazyProduct sums them, on the constraints'
// outputs in place.
NewtonEval LagrangianDel::Reduced::evaluate(const SmallVec& lambda, SmallVec& r, bool linearize) {
  const int n = d.eval_->n(), c = d.eval_->c();
  const double* q0 = d.q0_->data();
  d.q1_.resize(n);
  withConstraintCount(c, [&](auto C) {
    const int count = countOf(C, c);
    for (int i = 0; i < n; ++i)
      d.q1_[i] = q0[i] + (d.delta0_[i] - stridedDot(&d.B_(i, 0), d.B_.outerStride(), lambda.data(), 1, count));
  });
  const double* o = d.eval_->constraintOutputs(d.q1_.data());
  r.resize(c);
  bool finite = true;
  for (int i = 0; i < c; ++i) {
    r[i] = o[i];
    finite = finite && std::isfinite(o[i]);
  }
  if (!finite) return NewtonEval::NonFinite;
  if (linearize) {
    const double* G1 = o + c;  // Dg(q_k + δ)(i, k) = G1[i * n + k]
    d.S_.resize(c, c);
    withCoordinateCount(n, [&](auto N) {
      for (int j = 0; j < c; ++j)
        for (int i = 0; i < c; ++i) d.S_(i, j) = -stridedDot(G1 + i * n, 1, &d.B_(0, j), 1, countOf(N, n));
    });
    const bool regular = d.slu_.compute(d.S_);
    d.ratio_ = d.slu_.pivotRatio();
    if (!regular) return NewtonEval::Singular;
  }
  return NewtonEval::Ok;
}

double LagrangianDel::Reduced::size(const SmallVec& dl) const {
  const int n = d.eval_->n(), c = d.eval_->c();
  // max_i |(B Δλ)_i| and max_i |(Dg(q_k)ᵀ Δλ)_i| in one pass, each as maxAbs reduces it.
  return withConstraintCount(c, [&](auto C) {
    const int count = countOf(C, c);
    const double* B = d.B_.data();    // n × c, by column: B(i, j) = B[i + j n]
    const double* G0 = d.G0_.data();  // c × n, by column: Dg(q_k)(j, i) = G0[j + i c]
    double dq = std::abs(stridedDot(B, n, dl.data(), 1, count));
    double dp = std::abs(stridedDot(G0, 1, dl.data(), 1, count));
    for (int i = 1; i < n; ++i) {
      dq = std::max(dq, std::abs(stridedDot(B + i, n, dl.data(), 1, count)));
      dp = std::max(dp, std::abs(stridedDot(G0 + i * count, 1, dl.data(), 1, count)));
    }
    return std::max(dq / d.qScale_, dp / d.pScale_);
  });
}

NewtonEval LagrangianDel::evaluate(const SmallVec& x, SmallVec& r, bool linearize) {
  const int n = eval_->n(), c = eval_->c();
  const VecX& q = *q0_;
  const SmallVec delta = x.head(n);
  r.resize(n + c);
  SmallVec d1(n);
  discreteDerivative(q, delta, d1, linearize ? &J11_ : nullptr);
  r.head(n) = Eigen::Map<const Eigen::VectorXd>(p0_->data(), n) + d1;
  if (c > 0) {
    r.head(n) += G0_.transpose().lazyProduct(x.tail(c));
    q1_ = q + delta;
    eval_->constraints(q1_.data(), g_, linearize ? &G1_ : nullptr);
    r.tail(c) = g_;
  }
  if (!r.allFinite()) return NewtonEval::NonFinite;
  if (linearize) {
    J_ = SmallMat::Zero(n + c, n + c);
    J_.topLeftCorner(n, n) = J11_;
    if (c > 0) {
      J_.topRightCorner(n, c) = G0_.transpose();
      J_.bottomLeftCorner(c, n) = G1_;
    }
    if (!J_.allFinite()) return NewtonEval::NonFinite;
    const bool regular = lu_.compute(J_);
    ratio_ = lu_.pivotRatio();
    if (!regular) return NewtonEval::Singular;
  }
  return NewtonEval::Ok;
}

double LagrangianDel::size(const SmallVec& dx) const {
  const int n = eval_->n(), c = eval_->c();
  double s = dx.head(n).cwiseAbs().maxCoeff() / qScale_;
  if (c > 0) s = std::max(s, SmallVec(G0_.transpose().lazyProduct(dx.tail(c))).cwiseAbs().maxCoeff() / pScale_);
  return s;
}

void LagrangianDel::discreteDerivative(const VecX& q, const SmallVec& delta, SmallVec& d1, SmallMat* jac) {
  const double h = h_;
  gradientsAt(q, delta);
  if (rule_.kind == Quadrature::Trapezoid) {
    d1 = (0.5 * h) * Lq_ - 0.5 * (Lv_ + Lv1_);
    if (jac) {
      eval_->hessian(xa_.data(), v_.data(), Lqq_, Lqv_, Lvv_, t_);
      eval_->hessian(xb_.data(), v_.data(), Lqq1_, Lqv1_, Lvv1_, t_ + h);
      *jac = 0.5 * Lqv_ - 0.5 * Lqv1_.transpose() - (Lvv_ + Lvv1_) / (2 * h);
    }
  } else {
    const double a = weight();
    const double w = h * (1 - a);
    const int n = static_cast<int>(Lq_.size());
    d1.resize(n);
    withCoordinateCount(n, [&](auto N) {
      for (int i = 0; i < countOf(N, n); ++i) d1[i] = w * Lq_[i] - Lv_[i];
    });
    if (jac) {
      eval_->hessian(xa_.data(), v_.data(), Lqq_, Lqv_, Lvv_, sampleTime());
      *jac = (h * a * (1 - a)) * Lqq_ + (1 - a) * Lqv_ - a * Lqv_.transpose() - Lvv_ / h;
    }
  }
  if (forced_) addForcing(q, delta, d1, jac);
}

void LagrangianDel::shift(const VecX& q, const SmallVec& delta, SmallVec& out) {
  gradientsAt(q, delta);
  if (rule_.kind == Quadrature::Trapezoid) {
    out = (0.5 * h_) * (Lq_ + Lq1_);
    return;
  }
  const int n = static_cast<int>(Lq_.size());
  out.resize(n);
  withCoordinateCount(n, [&](auto N) {
    for (int i = 0; i < countOf(N, n); ++i) out[i] = h_ * Lq_[i];
  });
}

void LagrangianDel::discreteForces(const VecX& q, const SmallVec& delta, SmallVec& fMinus, SmallVec& fPlus) {
  const int n = eval_->n();
  const SmallVec v = delta / h_;
  if (rule_.kind == Quadrature::Trapezoid) {
    const VecX q1 = q + delta;
    eval_->forces(q.data(), v.data(), t_, F_);
    eval_->forces(q1.data(), v.data(), t_ + h_, F1_);
    fMinus = (0.5 * h_) * F_;
    fPlus = (0.5 * h_) * F1_;
    if (split_ == ForceSplit::OneSided) {
      fMinus += fPlus;
      fPlus.setZero();
    }
    return;
  }
  const VecX x = q + weight() * delta;
  eval_->forces(x.data(), v.data(), sampleTime(), F_);
  if (split_ == ForceSplit::OneSided) {
    fMinus = h_ * F_;
    fPlus = SmallVec::Zero(n);
  } else {
    fMinus = (0.5 * h_) * F_;
    fPlus = fMinus;
  }
}

void LagrangianDel::gradientsAt(const VecX& q, const SmallVec& delta) {
  double t = sampleTime();
  if (rule_.kind == Quadrature::Trapezoid) {
    v_ = delta / h_;
    xa_ = q;
    xb_ = q + delta;
    eval_->gradient(xb_.data(), v_.data(), Lq1_, Lv1_, t_ + h_);
    t = t_;
  } else {
    // v = δ/h and the sample point q + a δ, in one pass.
    const int n = static_cast<int>(delta.size());
    const double a = weight();
    v_.resize(n);
    xa_.resize(n);
    withCoordinateCount(n, [&](auto N) {
      for (int i = 0; i < countOf(N, n); ++i) {
        v_[i] = delta[i] / h_;
        xa_[i] = q[i] + a * delta[i];
      }
    });
  }
  eval_->gradient(xa_.data(), v_.data(), Lq_, Lv_, t);
}

void LagrangianDel::addForcing(const VecX& q, const SmallVec& delta, SmallVec& d1, SmallMat* jac) {
  const double h = h_;
  const bool oneSided = split_ == ForceSplit::OneSided;
  if (!jac) {
    discreteForces(q, delta, fMinus_, fPlus_);
    d1 += fMinus_;
    return;
  }
  if (rule_.kind == Quadrature::Trapezoid) {
    eval_->forceJacobian(xa_.data(), v_.data(), t_, F_, Fq_, Fv_);
    d1 += (0.5 * h) * F_;
    *jac += 0.5 * Fv_;
    if (oneSided) {
      eval_->forceJacobian(xb_.data(), v_.data(), t_ + h, F1_, Fq1_, Fv1_);
      d1 += (0.5 * h) * F1_;
      *jac += 0.5 * (h * Fq1_ + Fv1_);
    }
    return;
  }
  const double a = weight(), s = oneSided ? 1.0 : 0.5;
  eval_->forceJacobian(xa_.data(), v_.data(), sampleTime(), F_, Fq_, Fv_);
  d1 += (s * h) * F_;
  *jac += s * ((h * a) * Fq_ + Fv_);
}
}  // namespace vilab
