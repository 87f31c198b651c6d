// Evaluation of a compiled Lagrangian (models/lagrangian.hpp): the hot path of every
// integrator on a system defined by data.
#include "vilab/models/lagrangian.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>

#include "vilab/json.hpp"
#include "vilab/limits.hpp"
#include "vilab/solver/newton.hpp"
#include "vilab/solver/strided_dot.hpp"
#include "vilab/types.hpp"

namespace vilab {

// The lean module (VILAB_LEAN) compiles no system defined by data, so nothing below is
// reached there; a throw at the top of each function lets whole-program optimization
// leave out this file's code and the expression programs it runs.
#ifdef VILAB_LEAN
#define VILAB_DATA_DEFINED_ONLY() throw NotInLeanBuild("system", "a system defined by data")
#else
#define VILAB_DATA_DEFINED_ONLY() (void)0
#endif

namespace {
// The time L's programs see: t when L uses it, else 0, so that a point's outputs are
// memoized whatever clock its callers pass (a step samples L at t_k + h/2, the model's
// velocity recovery at 0: both the same bits when L does not use t).
double timeOfL(const LagrangianProblem& P, double t) { return P.timeDependent ? t : 0.0; }
// A key of (q, p, t) equal for arguments that compare equal (== : −0 as +0), so that a
// slot whose key differs is not the answer; one whose key is equal is compared in full.
std::uint64_t velocityKey(const double* q, const double* p, int n, double t) {
  const auto bits = [](double x) {
    std::uint64_t b = 0;
    if (x != 0) std::memcpy(&b, &x, sizeof b);
    return b;
  };
  std::uint64_t key = bits(t);
  for (int i = 0; i < n; ++i) key = ((key << 7) | (key >> 57)) ^ bits(q[i]) ^ (bits(p[i]) << 1);
  return key;
}
// The same for the forces' programs.
double timeOfForces(const LagrangianProblem& P, double t) { return P.forcesUseTime ? t : 0.0; }
}  // namespace

void LagrangianEval::setVariables(const double* q, const double* v, double t) {
  VILAB_DATA_DEFINED_ONLY();
  const int n = problem_->n;
  double* vars = w_.vars.data();
  withCoordinateCount(n, [&](auto N) {
    const int size = countOf(N, n);
    for (int i = 0; i < size; ++i) {
      vars[i] = q[i];
      vars[size + i] = v ? v[i] : 0.0;
    }
    vars[2 * size] = t;
  });
}

const double* LagrangianEval::run(int which, const expr::Program& program, std::size_t outputs) {
  const int n = problem_->n;
  Memo& m = memo_[which];
  return withCoordinateCount(n, [&](auto N) {
    const std::size_t width = static_cast<std::size_t>(2 * countOf(N, n) + 1);
    if (m.valid && sameBits(w_.vars.data(), m.vars.data(), width)) return static_cast<const double*>(m.out.data());
    if (m.out.size() != outputs) m.out.resize(outputs);
    program.run(w_.vars.data(), m.out.data(), w_.registers[which]);
    for (std::size_t i = 0; i < width; ++i) m.vars[i] = w_.vars[i];
    m.valid = true;
    return static_cast<const double*>(m.out.data());
  });
}

void LagrangianEval::gradient(const double* q, const double* v, SmallVec& Lq, SmallVec& Lv, double t) {
  VILAB_DATA_DEFINED_ONLY();
  const int n = problem_->n;
  setVariables(q, v, timeOfL(*problem_, t));
  const double* o = run(LagrangianWorkspace::kGradient, problem_->gradient, static_cast<std::size_t>(2 * n));
  Lq.resize(n);
  Lv.resize(n);
  withCoordinateCount(n, [&](auto N) {
    const int size = countOf(N, n);
    for (int i = 0; i < size; ++i) {
      Lq[i] = o[i];
      Lv[i] = o[size + i];
    }
  });
}

void LagrangianEval::hessian(const double* q, const double* v, SmallMat& Lqq, SmallMat& Lqv, SmallMat& Lvv, double t) {
  VILAB_DATA_DEFINED_ONLY();
  const int n = problem_->n;
  setVariables(q, v, timeOfL(*problem_, t));
  const double* o = run(LagrangianWorkspace::kHessian, problem_->hessian, static_cast<std::size_t>(3 * n * n));
  Lqq.resize(n, n);
  Lqv.resize(n, n);
  Lvv.resize(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      Lqq(i, j) = o[i * n + j];
      Lqv(i, j) = o[n * n + i * n + j];
      Lvv(i, j) = o[2 * n * n + i * n + j];
    }
}

void LagrangianEval::constraints(const double* q, SmallVec& g, SmallMat* G) {
  VILAB_DATA_DEFINED_ONLY();
  const int n = problem_->n, c = problem_->c;
  g.resize(c);
  if (G) G->resize(c, n);
  if (c == 0) return;
  setVariables(q, nullptr, 0);
  const double* o = run(LagrangianWorkspace::kConstraints, problem_->constraints, static_cast<std::size_t>(c + c * n));
  for (int i = 0; i < c; ++i) g[i] = o[i];
  if (G)
    withCoordinateCount(n, [&](auto N) {
      const int size = countOf(N, n);
      for (int i = 0; i < c; ++i)
        for (int j = 0; j < size; ++j) (*G)(i, j) = o[c + i * size + j];
    });
}

const double* LagrangianEval::constraintOutputs(const double* q) {
  VILAB_DATA_DEFINED_ONLY();
  const int n = problem_->n, c = problem_->c;
  if (c == 0) return nullptr;
  // The constraints' memo is only ever filled at (q, 0, 0): q's bits decide (a step asks
  // for Dg(q_k) where its projection left it).
  const Memo& m = memo_[LagrangianWorkspace::kConstraints];
  if (m.valid && sameBits(q, m.vars.data(), static_cast<std::size_t>(n))) return m.out.data();
  setVariables(q, nullptr, 0);
  return run(LagrangianWorkspace::kConstraints, problem_->constraints, static_cast<std::size_t>(c + c * n));
}

double LagrangianEval::energyTerms(const double* q, const double* v, SmallVec& Lv, SmallMat& Lvv, double t) {
  VILAB_DATA_DEFINED_ONLY();
  const int n = problem_->n;
  setVariables(q, v, timeOfL(*problem_, t));
  const double* o =
      run(LagrangianWorkspace::kEnergyTerms, problem_->energyTerms, static_cast<std::size_t>(1 + n + n * n));
  Lv.resize(n);
  Lvv.resize(n, n);
  for (int i = 0; i < n; ++i) {
    Lv[i] = o[1 + i];
    for (int j = 0; j < n; ++j) Lvv(i, j) = o[1 + n + i * n + j];
  }
  return o[0];
}

void LagrangianEval::dynamics(const double* q, const double* v, SmallVec& f, SmallVec& w, double t) {
  VILAB_DATA_DEFINED_ONLY();
  const int n = problem_->n, c = problem_->c;
  setVariables(q, v, timeOfL(*problem_, t));
  const double* o = run(LagrangianWorkspace::kDynamics, problem_->dynamics, static_cast<std::size_t>(n + c));
  f.resize(n);
  w.resize(c);
  for (int i = 0; i < n; ++i) f[i] = o[i];
  for (int i = 0; i < c; ++i) w[i] = o[n + i];
}

void LagrangianEval::forces(const double* q, const double* v, double t, SmallVec& F) {
  VILAB_DATA_DEFINED_ONLY();
  const int n = problem_->n;
  F = SmallVec::Zero(n);
  if (!problem_->forced()) return;
  setVariables(q, v, timeOfForces(*problem_, t));
  const double* o = run(LagrangianWorkspace::kForces, problem_->forces, static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) F[i] = o[i];
}

void LagrangianEval::forceJacobian(const double* q, const double* v, double t, SmallVec& F, SmallMat& Fq,
                                   SmallMat& Fv) {
  VILAB_DATA_DEFINED_ONLY();
  const int n = problem_->n;
  F = SmallVec::Zero(n);
  Fq = SmallMat::Zero(n, n);
  Fv = SmallMat::Zero(n, n);
  if (!problem_->forced()) return;
  setVariables(q, v, timeOfForces(*problem_, t));
  const double* o =
      run(LagrangianWorkspace::kForceJacobian, problem_->forceJacobian, static_cast<std::size_t>(n + 2 * n * n));
  for (int i = 0; i < n; ++i) {
    F[i] = o[i];
    for (int j = 0; j < n; ++j) {
      Fq(i, j) = o[n + i * n + j];
      Fv(i, j) = o[n + n * n + i * n + j];
    }
  }
}

bool LagrangianEval::velocity(const double* q, const double* p, SmallVec& v, double t, const SmallVec* guess) {
  VILAB_DATA_DEFINED_ONLY();
  // With a constant mass matrix and a constant ∂L/∂q̇(q, 0), v = M⁻¹ (p − L_q̇(0)) is one
  // product of q and p's bits alone, cheaper than a look-up in the cache.
  if (restMomentumReady_) return solveVelocity(q, p, t, v, guess);
  const int n = problem_->n;
  // A recent answer, when asked again for the same (q, p, t): the simulation asks for the
  // energy, the step check and the diagnostics of each state. The time matters only
  // when L uses it.
  if (!problem_->timeDependent) t = 0;
  const int slots = problem_->quadratic ? kCachedVelocities : kCachedGuessedVelocities;
  const std::uint64_t key = velocityKey(q, p, n, t);
  for (int k = 0; k < slots; ++k) {
    const CachedVelocity& c = cache_[k];
    if (c.valid && c.key == key && c.t == t && std::equal(q, q + n, c.q.begin()) && std::equal(p, p + n, c.p.begin())) {
      v = c.v;
      return c.ok;
    }
  }
  const bool ok = solveVelocity(q, p, t, v, guess);
  CachedVelocity& c = cache_[cacheNext_];
  cacheNext_ = (cacheNext_ + 1) % slots;
  c.valid = true;
  c.ok = ok;
  c.key = key;
  c.t = t;
  for (int i = 0; i < n; ++i) {
    c.q[static_cast<std::size_t>(i)] = q[i];
    c.p[static_cast<std::size_t>(i)] = p[i];
  }
  c.v = v;
  return ok;
}

bool LagrangianEval::prepareConstantMass(const double* q) {
  VILAB_DATA_DEFINED_ONLY();
  if (!constantMassReady_) {
    SmallVec Lv;
    const SmallVec zero = SmallVec::Zero(problem_->n);
    energyTerms(q, zero.data(), Lv, constantMass_);
    constantMassRegular_ =
        constantMassLu_.compute(constantMass_) && constantMassLu_.regular(limits::kSingularPivotRatio);
    if (constantMassRegular_) constantMassInverse_ = constantMassLu_.inverse();
    massInverseZerosSign_ = constantMassRegular_ ? diagonalZerosSign(constantMassInverse_) : 0;
    constantMassReady_ = true;
  }
  return constantMassRegular_;
}

namespace {
// Newton's problem of the velocity recovery: unknowns v, residual ∂L/∂q̇(q, v, t) − p,
// Jacobian ∂²L/∂q̇². Its domain: L and its derivatives finite, and ∂²L/∂q̇² definite with
// the sign it has at the starting point (positive for a physical kinetic energy), so that
// the Legendre transform is invertible along the way (a trial point outside is halved
// back by the damped iteration).
struct VelocityRecovery {
  using Vector = SmallVec;
  LagrangianEval& eval;
  const double* q;
  const double* p;
  double t;
  int sign;  // +1, −1: ∂²L/∂q̇² must stay definite with this sign; 0: not definite at the start
  SmallVec Lv;
  SmallMat mass;
  SmallLU lu;
  Eigen::LLT<SmallMat> llt;
  double scale = 1;
  double ratio = 1;

  bool definite(int s) {
    llt.compute(s > 0 ? mass : SmallMat(-mass));
    return llt.info() == Eigen::Success;
  }
  NewtonEval evaluate(const SmallVec& v, SmallVec& r, bool linearize) {
    const int n = eval.n();
    eval.energyTerms(q, v.data(), Lv, mass, t);
    r = Lv - Eigen::Map<const Eigen::VectorXd>(p, n);
    if (!r.allFinite() || !mass.allFinite()) return NewtonEval::NonFinite;
    if (sign != 0 && !definite(sign)) return NewtonEval::OutsideDomain;
    scale = 1.0 + v.cwiseAbs().maxCoeff();
    if (linearize) {
      const bool regular = lu.compute(mass);
      ratio = lu.pivotRatio();
      if (!regular) return NewtonEval::Singular;
    }
    return NewtonEval::Ok;
  }
  double conditionEstimate() const { return ratio; }
  void solve(SmallVec& b) const { lu.solveInPlace(b); }
  double size(const SmallVec& dv) const { return dv.cwiseAbs().maxCoeff() / scale; }
};
}  // namespace

bool LagrangianEval::solveVelocity(const double* q, const double* p, double t, SmallVec& v, const SmallVec* guess) {
  VILAB_DATA_DEFINED_ONLY();
  // When L is quadratic in q̇ the equation is affine: one solve from v = 0 is the answer
  // (with a constant mass matrix its factorization is kept). Otherwise the one Newton,
  // globalized, from the caller's guess (a velocity of the same motion) or from v = 0.
  const int n = problem_->n;
  velocityFailure_.clear();
  if (problem_->constantMass) {
    if (!prepareConstantMass(q)) {
      v = SmallVec::Zero(n);
      return false;
    }
    v.resize(n);
    // v = M⁻¹ (p − L_q̇(q, 0)): the gradient's outputs read in place, M⁻¹'s rows summed
    // as lazyProduct sums them.
    // ∂L/∂q̇(q, 0, t) read in place; formed once when it reads neither q nor t (the same
    // program on the same constants: the same bits every time).
    const double* Lv0 = restMomentum_.data();
    if (!restMomentumReady_) {
      setVariables(q, nullptr, timeOfL(*problem_, t));
      Lv0 = run(LagrangianWorkspace::kGradient, problem_->gradient, static_cast<std::size_t>(2 * n)) + n;
      if (problem_->constantRestMomentum) {
        std::copy(Lv0, Lv0 + n, restMomentum_.begin());
        restMomentumReady_ = true;
      }
    }
    const SmallMat& Minv = constantMassInverse_;
    return withCoordinateCount(n, [&](auto N) {
      const int size = countOf(N, n);
      std::array<double, lagrangian_limits::kMaxCoordinates> r;
      for (int j = 0; j < size; ++j) r[static_cast<std::size_t>(j)] = p[j] - Lv0[j];
      bool finite = true;
      for (int i = 0; i < size; ++i) {
        v[i] = stridedDot(&Minv(i, 0), Minv.outerStride(), r.data(), 1, size);
        finite = finite && std::isfinite(v[i]);
      }
      return finite;
    });
  }
  v = SmallVec::Zero(n);
  SmallVec Lv, r;
  if (problem_->quadratic) {
    energyTerms(q, v.data(), Lv, w_.mass, t);
    r = Lv - Eigen::Map<const Eigen::VectorXd>(p, n);
    if (!w_.lu.compute(w_.mass) || !w_.lu.regular(limits::kSingularPivotRatio)) return false;
    v -= w_.lu.solve(r);
    return v.allFinite();
  }
  VelocityRecovery recovery{*this, q, p, t, 0, {}, {}, {}, {}, 1, 1};
  if (guess && guess->size() == n && guess->allFinite()) v = *guess;
  // The sign of ∂²L/∂q̇² at the start: the domain keeps it (0 when it is not definite).
  energyTerms(q, v.data(), Lv, recovery.mass, t);
  if (recovery.mass.allFinite()) recovery.sign = recovery.definite(1) ? 1 : (recovery.definite(-1) ? -1 : 0);
  NewtonSettings settings;
  settings.what = "the velocities with ∂L/∂q̇ = p";
  settings.globalize = globalized_;
  const StepOutcome out = solveNewton(recovery, v, settings);
  if (!out.ok) velocityFailure_ = out.refusal.reason;
  return out.ok && v.allFinite();
}

double LagrangianEval::energy(const double* q, const double* p, double t) {
  VILAB_DATA_DEFINED_ONLY();
  const int n = problem_->n;
  SmallVec v;
  if (!velocity(q, p, v, t)) return std::numeric_limits<double>::quiet_NaN();
  // L alone (energyTerms' first output: its ∂L/∂q̇ and mass matrix are not needed here).
  setVariables(q, v.data(), timeOfL(*problem_, t));
  const double L = run(LagrangianWorkspace::kLagrangian, problem_->lagrangian, 1)[0];
  double vp = 0;
  for (int i = 0; i < n; ++i) vp += v[i] * p[i];
  return vp - L;
}

double LagrangianEval::kinetic(const double* q, const double* v, double t) {
  VILAB_DATA_DEFINED_ONLY();
  const Eigen::Map<const Eigen::VectorXd> vv(v, problem_->n);
  if (problem_->constantMass && prepareConstantMass(q)) return 0.5 * vv.dot(SmallVec(constantMass_.lazyProduct(vv)));
  SmallVec Lv;
  energyTerms(q, v, Lv, w_.mass, t);
  return 0.5 * vv.dot(SmallVec(w_.mass.lazyProduct(vv)));
}

namespace {
// Newton's problem of projectPositions: unknowns μ, residual g(q̃ − Dg(q̃)ᵀμ).
struct PositionProjection {
  using Vector = SmallVec;
  LagrangianEval& eval;
  const SmallVec& start;  // q̃
  const SmallMat& G0;     // Dg(q̃)
  double scale;
  SmallVec q;
  SmallMat G;
  SmallLU lu;
  NewtonEval evaluate(const SmallVec& mu, SmallVec& r, bool linearize) {
    q = start - G0.transpose().lazyProduct(mu);
    eval.constraints(q.data(), r, linearize ? &G : nullptr);
    if (!r.allFinite()) return NewtonEval::NonFinite;
    if (linearize && !lu.compute(SmallMat(-G.lazyProduct(G0.transpose())))) return NewtonEval::Singular;
    return NewtonEval::Ok;
  }
  double conditionEstimate() const { return lu.pivotRatio(); }
  void solve(SmallVec& b) const { lu.solveInPlace(b); }
  double size(const SmallVec& dmu) const {
    return SmallVec(G0.transpose().lazyProduct(dmu)).cwiseAbs().maxCoeff() / scale;
  }
};
}  // namespace

StepOutcome LagrangianEval::projectPositions(double* q) {
  VILAB_DATA_DEFINED_ONLY();
  const int n = problem_->n, c = problem_->c;
  if (c == 0) return {};
  SmallVec g;
  SmallMat G0;
  constraints(q, g, &G0);
  const SmallVec start = Eigen::Map<const Eigen::VectorXd>(q, n);
  PositionProjection projection{*this, start, G0, 1.0 + start.cwiseAbs().maxCoeff(), {}, {}, {}};
  SmallVec mu = SmallVec::Zero(c);
  NewtonSettings settings;
  settings.what = "the projection onto the constraints";
  const StepOutcome out = solveNewton(projection, mu, settings);
  if (out.ok) Eigen::Map<Eigen::VectorXd>(q, n) = start - G0.transpose().lazyProduct(mu);
  return out;
}

bool LagrangianEval::projectMomentum(const double* q, double* p, double t, const SmallVec* guess) {
  VILAB_DATA_DEFINED_ONLY();
  const int n = problem_->n, c = problem_->c;
  if (c == 0) return true;
  if (problem_->constantMass && problem_->quadratic) return projectTangent(q, p, t);
  SmallVec g, v, Lv, nu;
  SmallMat G, S;
  constraints(q, g, &G);
  Eigen::Map<Eigen::VectorXd> pm(p, n);
  // ν = (Dg M⁻¹ Dgᵀ)⁻¹ Dg v; exact in one pass when L is quadratic in q̇ (v is affine
  // in p), a few passes otherwise.
  const int passes = problem_->quadratic ? 1 : 3;
  for (int k = 0; k < passes; ++k) {
    // Each pass starts from the velocity before it (the first from the caller's guess).
    const SmallVec start = k == 0 && guess ? *guess : v;
    if (!velocity(q, p, v, t, k == 0 && !guess ? nullptr : &start)) return false;
    ConstraintLU& slu = projectionLu_;
    if (problem_->constantMass) {
      // velocity() prepared M⁻¹; Dg M⁻¹ Dgᵀ depends on q alone: factorized once per q.
      if (!projectionReady_ || !sameBits(q, projectionQ_.data(), static_cast<std::size_t>(n))) {
        S = G.lazyProduct(SmallMat(constantMassInverse_.lazyProduct(G.transpose())));
        projectionRegular_ = slu.compute(S) && slu.regular(limits::kSingularPivotRatio);
        std::copy(q, q + n, projectionQ_.begin());
        projectionReady_ = true;
      }
      if (!projectionRegular_) return false;
    } else {
      energyTerms(q, v.data(), Lv, w_.mass, t);
      w_.lu.compute(w_.mass);
      const SmallMat MinvGt = w_.lu.solve(SmallMat(G.transpose()));
      S = G.lazyProduct(MinvGt);
      if (!slu.compute(S) || !slu.regular(limits::kSingularPivotRatio)) return false;
    }
    nu = slu.solve(SmallVec(G.lazyProduct(v)));
    pm -= G.transpose().lazyProduct(nu);
  }
  return pm.allFinite();
}

bool LagrangianEval::projectTangent(const double* q, double* p, double t) {
  VILAB_DATA_DEFINED_ONLY();
  const int n = problem_->n, c = problem_->c;
  const double* G = constraintOutputs(q) + c;  // Dg(i, j) = G[i * n + j]
  SmallVec v;
  if (!velocity(q, p, v, t)) return false;  // M⁻¹ (p − L_q̇(q, 0)): no guess needed
  if (!factorizeProjection(q, G)) return false;
  return withCoordinateAndConstraintCounts(n, c, [&](auto N, auto C) {
    return removeNormalMomentum<decltype(N), decltype(C)>(projectionLu_, G, v.data(), p);
  });
}

template <class NK, class CK, class LU>
bool LagrangianEval::removeNormalMomentum(const LU& lu, const double* G, const double* v, double* p) {
  const int n = countOf(NK{}, problem_->n), c = countOf(CK{}, problem_->c);
  // ν = (Dg M⁻¹ Dgᵀ)⁻¹ Dg v, p −= Dgᵀν: each sum from its first term, as lazyProduct.
  std::array<double, lagrangian_limits::kMaxConstraints> nu;
  for (int i = 0; i < c; ++i) nu[i] = stridedDot(G + i * n, 1, v, 1, n);
  lu.solveInPlace(Eigen::Map<ConstraintVector<CK>>(nu.data(), c));
  bool finite = true;
  for (int j = 0; j < n; ++j) {
    p[j] -= stridedDot(G + j, n, nu.data(), 1, c);
    finite = finite && std::isfinite(p[j]);
  }
  return finite;
}

bool LagrangianEval::factorizeProjection(const double* q, const double* G) {
  const int n = problem_->n, c = problem_->c;
  // velocity() prepared M⁻¹; Dg M⁻¹ Dgᵀ depends on q alone: factorized once per q.
  if (!projectionReady_ || !sameBits(q, projectionQ_.data(), static_cast<std::size_t>(n))) {
    SmallMat S(c, c);
    withCoordinateCount(n, [&](auto N) { projectionMatrix<decltype(N), false>(G, S); });
    projectionRegular_ = projectionLu_.compute(S) && projectionLu_.regular(limits::kSingularPivotRatio);
    std::copy(q, q + n, projectionQ_.begin());
    projectionReady_ = true;
  }
  return projectionRegular_;
}

template <class NK, bool kDiagonal, class Matrix>
void LagrangianEval::projectionMatrix(const double* G, Matrix& S) const {
  const int n = countOf(NK{}, problem_->n), c = problem_->c;
  // S = Dg (M⁻¹ Dgᵀ), both products summed as lazyProduct sums them (kDiagonal: a
  // diagonal M⁻¹'s by diagonalTimes; a G not finite then makes S not finite as well).
  const SmallMat& Minv = constantMassInverse_;
  std::array<double, lagrangian_limits::kMaxCoordinates * lagrangian_limits::kMaxConstraints> MinvGt;  // by columns
  for (int j = 0; j < c; ++j) {  // G + j n: column j of Dgᵀ
    if constexpr (kDiagonal) {
      diagonalTimes(Minv.data(), Minv.outerStride(), massInverseZerosSign_, G + j * n, &MinvGt[j * n], n);
    } else {
      for (int i = 0; i < n; ++i) MinvGt[j * n + i] = stridedDot(&Minv(i, 0), Minv.outerStride(), G + j * n, 1, n);
    }
  }
  for (int j = 0; j < c; ++j)
    for (int i = 0; i < c; ++i) S(i, j) = stridedDot(G + i * n, 1, &MinvGt[j * n], 1, n);
}

// projectTangent, then physicalEnergy's projection and energy, with v = M⁻¹ (p − b) as
// solveVelocity forms it (b = ∂L/∂q̇ at rest): the same operations in the same order.
template <class NK, class CK, bool kDiagonal>
bool LagrangianEval::projectKeepingEnergy(const double* q, double* p) {
  constexpr int kMaxN = lagrangian_limits::kMaxCoordinates;
  const int n = countOf(NK{}, problem_->n), c = countOf(CK{}, problem_->c);
  const double* G = constraintOutputs(q) + c;  // Dg(i, j) = G[i * n + j]
  const SmallMat& Minv = constantMassInverse_;
  std::array<double, kMaxN> v, r;
  const auto velocityOf = [&](const double* momentum) __attribute__((always_inline)) {
    for (int j = 0; j < n; ++j) r[j] = momentum[j] - restMomentum_[j];
    bool finite = true;
    if constexpr (kDiagonal) {  // r not finite: v is not either, as the sums' would be
      diagonalTimes(Minv.data(), Minv.outerStride(), massInverseZerosSign_, r.data(), v.data(), n);
      for (int i = 0; i < n; ++i) finite = finite & std::isfinite(v[i]);
      return finite;
    }
    for (int i = 0; i < n; ++i) {
      v[i] = stridedDot(&Minv(i, 0), Minv.outerStride(), r.data(), 1, n);
      finite = finite && std::isfinite(v[i]);
    }
    return finite;
  };
  // Dg M⁻¹ Dgᵀ at q_{k+1}, new at every step: factorized on the stack as
  // factorizeProjection does, its memo left for the other callers.
  ConstraintBlock<CK> S(c, c);
  ConstraintBlockLU<CK> lu;
  if (!velocityOf(p)) return false;
  projectionMatrix<NK, kDiagonal>(G, S);
  if (!lu.compute(S) || !lu.regular(limits::kSingularPivotRatio) || !removeNormalMomentum<NK, CK>(lu, G, v.data(), p))
    return false;
  if (problem_->timeDependent) return true;
  // physicalEnergy(q, p): p projected again (the factorization kept), then H = v·p − L.
  std::array<double, kMaxN> tangent;
  for (int i = 0; i < n; ++i) tangent[i] = p[i];
  if (!velocityOf(tangent.data()) || !removeNormalMomentum<NK, CK>(lu, G, v.data(), tangent.data()))
    for (int i = 0; i < n; ++i) tangent[i] = p[i];
  double energy = std::numeric_limits<double>::quiet_NaN();
  if (velocityOf(tangent.data())) {
    std::array<double, 2 * kMaxN + 1> vars;
    for (int i = 0; i < n; ++i) {
      vars[i] = q[i];
      vars[n + i] = v[i];
    }
    vars[2 * n] = 0.0;
    double L;
    runAt(LagrangianWorkspace::kLagrangian, problem_->lagrangian, vars.data(), &L);
    double vp = 0;
    for (int i = 0; i < n; ++i) vp += v[i] * tangent[i];
    energy = vp - L;
  }
  keptEnergy_.valid = true;
  for (int i = 0; i < n; ++i) {
    keptEnergy_.q[i] = q[i];
    keptEnergy_.p[i] = p[i];
  }
  keptEnergy_.energy = energy;
  return true;
}

LagrangianEval::ProjectKeepingEnergy LagrangianEval::projectKeepingEnergyFor(int n, int c, bool diagonal) {
  return withCoordinateAndConstraintCounts(n, c, [&](auto N, auto C) -> ProjectKeepingEnergy {
    // A diagonal M⁻¹'s products by diagonalTimes; 2 × 2 and smaller gain nothing.
    if (diagonal && decltype(N)::value != 1 && decltype(N)::value != 2)
      return &LagrangianEval::projectKeepingEnergy<decltype(N), decltype(C), true>;
    return &LagrangianEval::projectKeepingEnergy<decltype(N), decltype(C), false>;
  });
}

void LagrangianEval::quantities(const double* q, const double* p, double t, double* conserved, double* momenta) {
  VILAB_DATA_DEFINED_ONLY();
  const LagrangianProblem& P = *problem_;
  const int n = P.n;
  const int m = static_cast<int>(P.conservedNames.size()), s = static_cast<int>(P.symmetryNames.size());
  if (m + s == 0) return;
  // Only the conserved quantities read q̇ (a symmetry's generator is ξ(q)): without them,
  // no velocity is recovered (the program's outputs do not depend on it).
  SmallVec v;
  const bool haveVelocity = m > 0 && velocity(q, p, v, t);
  setVariables(q, haveVelocity ? v.data() : nullptr, t);
  const double* o = run(LagrangianWorkspace::kQuantities, P.quantities, static_cast<std::size_t>(m + s * n));
  for (int i = 0; i < m; ++i) conserved[i] = haveVelocity ? o[i] : std::numeric_limits<double>::quiet_NaN();
  for (int k = 0; k < s; ++k) {
    double J = 0;
    for (int i = 0; i < n; ++i) J += p[i] * o[m + k * n + i];
    momenta[k] = J;
  }
}

void LagrangianEval::momentumMaps(const double* q, const double* p, SmallMat& xi, SmallMat& dJdq) {
  VILAB_DATA_DEFINED_ONLY();
  const int n = problem_->n, s = static_cast<int>(problem_->symmetryNames.size());
  setVariables(q, p, 0.0);
  const double* o =
      run(LagrangianWorkspace::kMomentumMaps, problem_->momentumMaps, static_cast<std::size_t>(2 * s * n));
  xi.resize(s, n);
  dJdq.resize(s, n);
  for (int a = 0; a < s; ++a)
    for (int i = 0; i < n; ++i) {
      xi(a, i) = o[2 * a * n + i];
      dJdq(a, i) = o[2 * a * n + n + i];
    }
}

void LagrangianEval::positions(const double* q, double t, std::vector<double>& out) {
  VILAB_DATA_DEFINED_ONLY();
  setVariables(q, nullptr, t);
  out.resize(static_cast<std::size_t>(problem_->visualSize));
  problem_->positions.run(w_.vars.data(), out.data(), w_.registers[LagrangianWorkspace::kPositions]);
}

std::string LagrangianModel::badPosition(const State& s, double t, std::vector<double>& out) const {
  if (problem->bodies.empty()) return "";
  eval->positions(s.q.data(), t, out);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (std::abs(out[i]) <= limits::kMaxMagnitude) continue;
    const std::string& text = problem->visualTexts[i];
    const double x = out[i];
    const std::string value = std::isnan(x)   ? "NaN"
                              : std::isinf(x) ? (x > 0 ? "Infinity" : "-Infinity")
                                              : formatNumber(x);
    return problem->visualFields[i] + " = " + cutForMessage(text) + " is " + value;
  }
  return "";
}

double LagrangianModel::physicalEnergy(const State& s, double t) const {
  VILAB_DATA_DEFINED_ONLY();
  if (problem->c == 0) return eval->energy(s.q.data(), s.p.data(), t);
  double kept;
  if (eval->keptEnergy(s.q.data(), s.p.data(), kept)) return kept;  // the step formed it
  // A momentum that cannot be projected (dependent constraints) leaves H(q, p).
  SmallVec tangent = s.p;  // no heap: this runs at every step
  if (!eval->projectMomentum(s.q.data(), tangent.data(), t)) tangent = s.p;
  return eval->energy(s.q.data(), tangent.data(), t);
}

Diagnostics LagrangianModel::diagnostics(const State& s, double t) const {
  Diagnostics d;
  diagnosticsInto(s, t, d);
  return d;
}

void LagrangianModel::diagnosticsInto(const State& s, double t, Diagnostics& d) const {
  VILAB_DATA_DEFINED_ONLY();
  const LagrangianProblem& P = *problem;
  d.energy = diagnosticsEnergy(s, t);
  d.momentumSize = static_cast<int>(P.symmetryNames.size());
  d.conservedSize = static_cast<int>(P.conservedNames.size());
  eval->quantities(s.q.data(), s.p.data(), t, d.conserved.data(), d.momentum.data());
  d.constraint = 0;
  if (P.c > 0) {
    SmallVec g;
    eval->constraints(s.q.data(), g);
    d.constraint = g.cwiseAbs().maxCoeff();
  }
}

bool LagrangianModel::stepSurelyAccepted(const State& b, double energyA, double t, double& energy) const {
  VILAB_DATA_DEFINED_ONLY();
  energy = diagnosticsEnergy(b, t);
  return std::isfinite(energy) && jumpWithinQuarter(energyA, energy) && rowSurelyRepresentable(b, t, energy);
}

bool LagrangianModel::rowSurelyRepresentable(const State& s, double t, double energy) const {
  VILAB_DATA_DEFINED_ONLY();
  const LagrangianProblem& P = *problem;
  if (!P.rowBounded || !(std::abs(energy) <= limits::kMaxMagnitude) || !(std::abs(t) <= limits::kMaxMagnitude))
    return false;
  // The programs' variables: q and t (q̇ is read by none of them). Sums of |q_i| and
  // |p_i| stand for their maxima (a sum of terms ≥ 0 rounds to no less than any of them):
  // no branch on the data, which V8 compiles std::max to.
  // The sums within ±kMaxMagnitude also put every |q_i| and |p_i| there (NaN fails).
  double m = 1 + std::abs(t), pMax = 1;
  const double* q = s.q.data();
  const double* p = s.p.data();
  withCoordinateCount(P.n, [&](auto N) {
    for (int i = 0; i < countOf(N, P.n); ++i) {
      m += std::abs(q[i]);
      pMax += std::abs(p[i]);
    }
  });
  if (!(m <= limits::kMaxMagnitude && pMax <= limits::kMaxMagnitude)) return false;
  // The row's constraint column is max_i |g_i|, its momentum columns Σ_i p_i ξ_i (each at
  // most Σ_i |p_i| max|ξ_i|, times 1 + nε); the drawing is the positions' outputs.
  constexpr double kLimit = 1e290;
  return P.constraintBound.surelyWithin(m, kLimit) && P.generatorBound.surelyWithin(m, kLimit / pMax) &&
         P.positionBound.surelyWithin(m, kLimit);
}

std::string LagrangianModel::implausibleStep(const State& a, const State& b, double energyA, double energyB,
                                             double) const {
  VILAB_DATA_DEFINED_ONLY();
  const bool conservative = !problem->usesTime() && !problem->forced();
  const double energyJump = std::abs(energyB - energyA);
  if (conservative && jumpWithinQuarter(energyA, energyB)) return "";
  SmallVec v;
  double kinetic = 0;
  const bool haveVelocity = eval->velocity(a.q.data(), a.p.data(), v);
  if (haveVelocity) kinetic = std::abs(eval->kinetic(a.q.data(), v.data()));
  const double size = std::abs(energyA) + kinetic;
  if (conservative) {
    const double allowed = 0.25 * size + 1e-9 * scale;
    if (energyJump <= allowed) return "";
    return "the step changed the energy by " + scientific(energyJump) + " J, more than a quarter of its size (" +
           scientific(size) +
           " J): the implicit equations converged to a spurious solution, or h is too large to resolve the motion";
  }
  // A driven or forced system's energy is not conserved: the work done in one step may
  // exceed a quarter of it while the step is accurate. The velocity jump is measured
  // instead: ½ ΔvᵀM Δv = O(h²) for a resolved step, against a quarter of the largest
  // |E| + T met so far; a spurious root or an unresolved step jumps by far more.
  scale = std::max(scale, size);
  SmallVec vb, Lv;
  SmallMat M;
  if (!haveVelocity || !eval->velocity(b.q.data(), b.p.data(), vb)) return "";  // the energy is then NaN: refused
  const SmallVec dv = vb - v;
  eval->energyTerms(a.q.data(), v.data(), Lv, M);
  const double jump = std::abs(0.5 * dv.dot(SmallVec(M.lazyProduct(dv))));
  if (jump <= 0.25 * scale) return "";
  return "the step changed the velocities by Δq' with ½ Δq'ᵀM Δq' = " + scientific(jump) +
         " J, more than a quarter of the largest energy met (" + scientific(scale) +
         " J): the implicit equations converged to a spurious solution, or h is too large to resolve the motion";
}

void LagrangianModel::project(State& s, const StateRules& rules, const std::string& qField,
                              const std::string& pField) const {
  VILAB_DATA_DEFINED_ONLY();
  const LagrangianProblem& P = *problem;
  if (P.c == 0 || !rules.positionsOnManifold) return;
  LagrangianEval& e = *eval;
  SmallVec g;
  SmallMat G;
  e.constraints(s.q.data(), g, &G);
  for (int i = 0; i < P.c; ++i)
    if (!(std::abs(g[i]) <= limits::kManifoldTolerance))
      throw InputError(InputErrorCode::OffManifold, qField,
                       "off the constraint manifold: |g" + std::to_string(i + 1) + "(q)| = " +
                           formatNumber(std::abs(g[i])) + " > 1e-9 (params.constraints[" + std::to_string(i) + "])");
  const StepOutcome projected = e.projectPositions(s.q.data());
  if (!projected.ok)
    throw InputError(InputErrorCode::Invalid, "params.constraints",
                     "cannot project " + qField + " onto the constraints (" + projected.refusal.reason +
                         "; are they independent there?)");
  if (!rules.tangentMomentum) return;
  SmallVec v;
  if (!e.velocity(s.q.data(), s.p.data(), v))
    throw InputError(InputErrorCode::Invalid, pField,
                     "the velocities cannot be recovered from these momenta (singular ∂²L/∂q̇²)");
  e.constraints(s.q.data(), g, &G);
  const SmallVec rate = G.lazyProduct(v);
  const double size = 1.0 + v.cwiseAbs().maxCoeff();
  for (int i = 0; i < P.c; ++i)
    if (!(std::abs(rate[i]) <= limits::kManifoldTolerance * size))
      throw InputError(InputErrorCode::OffManifold, pField,
                       "not tangent to the constraints: d/dt g" + std::to_string(i + 1) + " = " +
                           formatNumber(rate[i]) + " (tolerance 1e-9)");
  if (!e.projectMomentum(s.q.data(), s.p.data()))
    throw InputError(InputErrorCode::Invalid, pField,
                     "the momenta cannot be projected onto the constraints (singular Dg M⁻¹ Dgᵀ)");
}

}  // namespace vilab
