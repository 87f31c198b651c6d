// A system defined by data: coordinates q, named constants, a Lagrangian L(q, q̇, t) typed
// as an expression, holonomic constraints g(q) = 0, generalized forces outside L
// (damping −c q̇ and Q(q, q̇, t)), conserved quantities, symmetry generators ξ(q) and
// bodies to draw (the scenario's `params` of system "lagrangian").
//
// Canonical state: q = the coordinates, p = ∂L/∂q̇ (for the variational integrators the
// discrete Legendre transform D2 L_d, W–M §2, plus f_d^+ when forced, M–W §3.2),
// projected onto the momenta whose velocities are tangent to the constraints. Energy
// H(q, p, t) = q̇·∂L/∂q̇ − L with q̇ recovered from p at time t; momentum components are
// the discrete Noether momenta p·ξ(q) of the declared symmetries (W–M §3.3);
// `conserved` are the user's expressions in q, q̇ and t.
//
// Time (M–W Part 4): L may use t (a time-dependent Lagrangian); the constraints and
// symmetry generators may not. Every evaluation below takes t (default 0, the start
// of a run), and the integrators pass the times their quadrature samples.
//
// The expressions are compiled once (expr/graph.hpp): every derivative the integrators
// need is a straight-line program over the variables [q, q̇, t].
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "vilab/expr/graph.hpp"
#include "vilab/json.hpp"
#include "vilab/outcome.hpp"
#include "vilab/solver/small_lu.hpp"
#include "vilab/state.hpp"

namespace vilab {

namespace lagrangian_limits {
constexpr int kMaxCoordinates = 16;
constexpr int kMaxConstraints = 16;
constexpr int kMaxConstants = 64;
constexpr int kMaxConserved = 16;
constexpr int kMaxSymmetries = 8;
constexpr int kMaxBodies = 32;
constexpr int kMaxFurniturePoints = 128;  // a wire's points or a curve's samples
}  // namespace lagrangian_limits

static_assert(lagrangian_limits::kMaxCoordinates + lagrangian_limits::kMaxConstraints <= kMaxSmallSize,
              "the Newton unknowns (δ, λ) must fit the small matrices");

// A c×c block of the constraints (the reduced Newton matrix, Dg M⁻¹ Dgᵀ) on the stack,
// CK: c as a constant, or 0 for c at run time (withCoordinateAndConstraintCounts); its
// LU divides by the pivots as ConstraintLU does, so it gives ConstraintLU's bits.
template <class CK>
constexpr int kConstraintRows = CK::value > 0 ? CK::value : Eigen::Dynamic;
template <class CK>
constexpr int kMaxConstraintRows = CK::value > 0 ? CK::value : lagrangian_limits::kMaxConstraints;
template <class CK>
using ConstraintBlock =
    Eigen::Matrix<double, kConstraintRows<CK>, kConstraintRows<CK>, 0, kMaxConstraintRows<CK>, kMaxConstraintRows<CK>>;
template <class CK>
using ConstraintBlockLU = PivotedLU<ConstraintBlock<CK>, true, true>;
// A vector of c entries, for maps of the blocks' right-hand sides.
template <class CK>
using ConstraintVector = Eigen::Matrix<double, kConstraintRows<CK>, 1>;

// An entry of `bodies`: a body (a sphere on its link) or furniture (kind hoop, pulley,
// wire, curve, floor, wall: drawn only, never part of the dynamics).
struct LagrangianBody {
  enum class Anchor { None, Point, Body };
  std::string kind = "body";
  Anchor anchor = Anchor::None;
  Vec3 point = Vec3::Zero();
  int body = -1;
  std::string link = "none";  // rod, spring, none
  double radius = 0;          // 0: the page chooses
  int points = 0;             // a wire's points or a curve's samples
};

// The compiled definition: immutable, shared by the model, its integrators and copies.
class LagrangianProblem {
 public:
  int n = 0;  // coordinates
  int c = 0;  // constraints
  std::vector<std::string> coordinates, conservedNames, symmetryNames;
  std::vector<LagrangianBody> bodies;
  // The visual state: 3 per entry of `bodies` (a body's or furniture's position), then
  // per furniture entry its angle, a hoop's or pulley's radius, and 3 per point of a
  // wire or curve.
  int visualSize = 0;
  // Each entry of the visual state: its field (bodies[b].position[k], bodies[b].angle, …)
  // and its expression as written, for messages.
  std::vector<std::string> visualFields, visualTexts;
  bool quadratic = false;     // ∂²L/∂q̇² does not depend on q̇ (so H is a quadratic form in p)
  bool constantMass = false;  // ∂²L/∂q̇² is constant
  // ∂L/∂q̇ reads neither q nor t (L = ½ q̇ᵀMq̇ + b·q̇ − V(q) with M and b constant): with a
  // constant mass matrix v = M⁻¹ (p − b), b formed once.
  bool constantRestMomentum = false;
  bool constantHessian = false;  // every second derivative is constant: D1 L_d is affine in q_{k+1}
  // L_q is constant (V linear in q, as gravity in Cartesian coordinates, and nothing else
  // reads q): then Lq holds its values, the gradient program's first n outputs wherever
  // it runs (else it is empty).
  bool constantLq = false;
  std::vector<double> Lq;
  bool timeDependent = false;  // L uses t (M–W Part 4): the integrators sample it at their quadrature times
  // L_qq̇ is not identically zero: velocity-linear (gyroscopic) terms, which a method for
  // M q̈ = f(q) such as Newmark does not integrate symplectically.
  bool gyroscopic = false;
  // Every symmetry generator ξ(q) is affine in q, so each momentum map J = p·ξ(q) is
  // bilinear in (q, p): J(z₁) − J(z₀) = ∇J(z̄)·(z₁ − z₀) exactly.
  bool affineSymmetries = true;
  // Forcing (Lagrange–d'Alembert, M–W §3.2): F(q, q̇, t) = Q(q, q̇, t) − c q̇.
  double damping = 0;                   // c ≥ 0
  bool hasForces = false;               // `forces` Q given (one expression per coordinate)
  bool forcesUseTime = false;           // Q uses t
  bool constantForceJacobian = true;    // ∂F/∂q and ∂F/∂q̇ constant (F affine in q, q̇)
  std::vector<std::string> forceLatex;  // Q, for the editor
  std::string definitionJson;           // the normalized params (echo)
  std::vector<std::string> latex;       // L, then constraints (for the editor)

  // Programs over the variables [q (n), q̇ (n), t]:
  expr::Program gradient;     // L_q (n), L_q̇ (n)
  expr::Program hessian;      // L_qq (n×n), L_qq̇ (n×n: (i, j) = ∂²L/∂q_i∂q̇_j), L_q̇q̇ (n×n), row-major
  expr::Program energyTerms;  // L, L_q̇ (n), L_q̇q̇ (n×n)
  expr::Program lagrangian;   // L alone (the energy v·p − L): energyTerms' first output, the same bits
  expr::Program constraints;  // g (c), Dg (c×n)
  expr::Program dynamics;     // f = L_q − L_q̇q q̇ (n), q̇ᵀ∇²g_i q̇ (c)
  expr::Program quantities;   // conserved (m), then ξ (s×n)
  // Over [q, p, t] (p in the velocities' slots): per symmetry ξ (n), then ∂(p·ξ)/∂q (n).
  expr::Program momentumMaps;
  expr::Program positions;      // 3 per body
  expr::Program symmetryCheck;  // per symmetry: δL along ξ, then Dg ξ (c): checked at the initial state
  expr::Program forces;         // F (n), damping included
  expr::Program forceJacobian;  // F (n), F_q (n×n: (i, j) = ∂F_i/∂q_j), F_q̇ (n×n), row-major

  // What an unrecorded step's checks may take from bounds instead of evaluating
  // (expr::magnitudeBound over q and t): the constraints g, the symmetry generators ξ and
  // the positions drawn. Set only when all three have one, no conserved quantity is
  // given (those read q̇) and L is quadratic in q̇ (so that no velocity recovery depends
  // on what was asked before): LagrangianModel::rowSurelyRepresentable.
  bool rowBounded = false;
  expr::MagnitudeBound constraintBound, generatorBound, positionBound;

  // Forces outside L: damping or a given Q (even Q ≡ 0).
  bool forced() const { return damping != 0 || hasForces; }
  // Anything depends on t: the integrators need the clock.
  bool usesTime() const { return timeDependent || forcesUseTime; }
};

// Scratch space of evaluations (registers, matrices): one per evaluator, used within a
// call (an evaluator shared by a model and its integrator is used by one at a time).
struct LagrangianWorkspace {
  enum {
    kGradient,
    kHessian,
    kEnergyTerms,
    kLagrangian,
    kConstraints,
    kDynamics,
    kQuantities,
    kMomentumMaps,
    kPositions,
    kForces,
    kForceJacobian,
    kPrograms
  };
  std::vector<double> registers[kPrograms];  // one register file per program
  std::array<double, 2 * lagrangian_limits::kMaxCoordinates + 1> vars{};
  SmallMat mass;
  SmallLU lu;
};

// Whether two arrays of doubles hold the same bits (−0 ≠ +0, a NaN equals itself), a
// word at a time: wasm's memcmp compares byte by byte.
inline bool sameBits(const double* a, const double* b, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t x, y;
    std::memcpy(&x, a + i, sizeof x);
    std::memcpy(&y, b + i, sizeof y);
    if (x != y) return false;
  }
  return true;
}

// Evaluation of a compiled problem: the pieces every integrator and the model need.
class LagrangianEval {
 public:
  explicit LagrangianEval(std::shared_ptr<const LagrangianProblem> problem) : problem_(std::move(problem)) {}
  const LagrangianProblem& problem() const { return *problem_; }
  const std::shared_ptr<const LagrangianProblem>& problemHandle() const { return problem_; }
  int n() const { return problem_->n; }
  int c() const { return problem_->c; }

  // L_q and L_q̇ at (q, v, t).
  void gradient(const double* q, const double* v, SmallVec& Lq, SmallVec& Lv, double t = 0);
  // L_qq, L_qq̇, L_q̇q̇ at (q, v, t).
  void hessian(const double* q, const double* v, SmallMat& Lqq, SmallMat& Lqv, SmallMat& Lvv, double t = 0);
  // g(q) and Dg(q) (c×n).
  void constraints(const double* q, SmallVec& g, SmallMat* G = nullptr);
  // The same outputs in place, not copied: g (c), then Dg row by row (c×n); valid until
  // the constraints are next evaluated at another q.
  const double* constraintOutputs(const double* q);
  // L, L_q̇ and L_q̇q̇ at (q, v, t).
  double energyTerms(const double* q, const double* v, SmallVec& Lv, SmallMat& Lvv, double t = 0);
  // f = L_q − L_q̇q q̇ − L_q̇t and w_i = q̇ᵀ∇²g_i q̇ at (q, v, t): M q̈ = f + F + Dgᵀλ,
  // Dg q̈ + w = 0.
  void dynamics(const double* q, const double* v, SmallVec& f, SmallVec& w, double t = 0);
  // The generalized force F(q, v, t) = Q − c v (zero when the system is not forced).
  void forces(const double* q, const double* v, double t, SmallVec& F);
  // F and its Jacobians F_q, F_q̇ at (q, v, t).
  void forceJacobian(const double* q, const double* v, double t, SmallVec& F, SmallMat& Fq, SmallMat& Fv);
  // The velocity with ∂L/∂q̇(q, v, t) = p: one solve when L is quadratic in q̇, else the
  // globalized Newton (solver/newton.hpp) from `guess` (a velocity of the same motion,
  // e.g. the step's δ/h) or from v = 0, kept where L and its derivatives are finite and
  // ∂²L/∂q̇² keeps its sign. Returns false when it does not exist or Newton fails
  // (velocityFailure() then says why). The model's own evaluations pass no guess, so
  // what they report is a function of (q, p, t) alone.
  bool velocity(const double* q, const double* p, SmallVec& v, double t = 0, const SmallVec* guess = nullptr);
  // Why the last velocity recovery of a non-quadratic L failed ("" when it did not).
  const std::string& velocityFailure() const { return velocityFailure_; }
  // The Newton policy of this evaluator's solves: globalized (the default) or plain
  // (tests' negative control: the undamped Newton of before).
  void setGlobalized(bool on) {
    globalized_ = on;
    for (CachedVelocity& c : cache_) c.valid = false;
  }
  bool globalized() const { return globalized_; }
  // H = v·p − L at the velocity of (q, p, t); NaN when the velocity cannot be recovered.
  double energy(const double* q, const double* p, double t = 0);
  // ½ vᵀ L_q̇q̇ v at (q, v, t).
  double kinetic(const double* q, const double* v, double t = 0);
  // q ← q − Dg(q̃)ᵀμ with g(q) = 0 (q̃ the given q: the minimum-norm correction), by
  // the one Newton. Refused when the constraints are dependent or Newton fails.
  StepOutcome projectPositions(double* q);
  // p ← p − Dg(q)ᵀν with Dg(q) v(q, p, t) = 0: the momentum whose velocity is tangent to
  // the constraints (M-orthogonal projection). False when Dg M⁻¹ Dgᵀ is singular. `guess`:
  // a velocity near v(q, p, t), for the recovery of a non-quadratic L.
  bool projectMomentum(const double* q, double* p, double t = 0, const SmallVec* guess = nullptr);
  // projectMomentum at the end of a step of a system with M and ∂L/∂q̇ at rest constant
  // (LagrangianDel's step in place): the same bits, with the counts as constants for
  // the small systems; when L does not read t, the energy physicalEnergy gives at the
  // projected (q, p) is formed beside it, from the same factorization, and kept for it
  // (keptEnergy). Elsewhere projectMomentum itself. Inline, as keptEnergy: a small
  // system's step costs little more than its calls.
  [[gnu::always_inline]] bool projectMomentumKeepingEnergy(const double* q, double* p, double t) {
    const int n = problem_->n, c = problem_->c;
    keptEnergy_.valid = false;
    if (c == 0 || !restMomentumReady_ || !problem_->constantMass || !problem_->quadratic)
      return projectMomentum(q, p, t);
    if (!projectKeepingEnergy_) projectKeepingEnergy_ = projectKeepingEnergyFor(n, c, massInverseZerosSign_ != 0);
    return (this->*projectKeepingEnergy_)(q, p);
  }
  // ∂L/∂q̇(q, 0, t) once formed when it reads neither q nor t (constantRestMomentum), else
  // null: the gradient program's last n outputs at q̇ = 0, the same bits wherever it runs.
  const double* restMomentum() const { return restMomentumReady_ ? restMomentum_.data() : nullptr; }
  // The energy kept for exactly these bits of (q, p), if any (L does not read t).
  bool keptEnergy(const double* q, const double* p, double& energy) const {
    const std::size_t n = static_cast<std::size_t>(problem_->n);
    if (!keptEnergy_.valid || !sameBits(q, keptEnergy_.q.data(), n) || !sameBits(p, keptEnergy_.p.data(), n))
      return false;
    energy = keptEnergy_.energy;
    return true;
  }
  // Conserved quantities (m) and Noether momenta p·ξ(q) (s) at (q, p, t).
  void quantities(const double* q, const double* p, double t, double* conserved, double* momenta);
  // Per declared symmetry a, row a of xi is ξ_a(q) = ∂J_a/∂p and row a of dJdq is
  // ∂J_a/∂q = Dξ_a(q)ᵀp, J_a = p·ξ_a(q) its momentum map.
  void momentumMaps(const double* q, const double* p, SmallMat& xi, SmallMat& dJdq);
  // Body positions, 3 per body.
  void positions(const double* q, double t, std::vector<double>& out);
  // Program `which` at variables the caller laid out as setVariables does (q, q̇, t),
  // into `out`, not memoized: for a step that keeps its own variables in locals
  // (LagrangianDel's reduced step). The memos stay valid: a program is a function of its
  // variables.
  [[gnu::always_inline]] void runAt(int which, const expr::Program& program, const double* vars, double* out) {
    program.run(vars, out, w_.registers[which]);
  }

 private:
  void setVariables(const double* q, const double* v, double t);
  // The outputs of program `which` at the variables setVariables left: its previous
  // outputs when those variables are the same bits (a program is a function of its
  // variables, and a step asks for the same point's constraints, gradient and energy
  // terms several times), else a run. Valid until that program runs again.
  const double* run(int which, const expr::Program& program, std::size_t outputs);
  struct Memo {
    bool valid = false;
    std::array<double, 2 * lagrangian_limits::kMaxCoordinates + 1> vars{};  // fixed: no copy call per run
    std::vector<double> out;
  };
  Memo memo_[LagrangianWorkspace::kPrograms];
  bool solveVelocity(const double* q, const double* p, double t, SmallVec& v, const SmallVec* guess);
  // projectMomentum with a constant mass matrix (one pass), on the constraints' outputs in place.
  bool projectTangent(const double* q, double* p, double t);
  // Dg M⁻¹ Dgᵀ at q factorized (G: Dg(q) row by row), unless it already is for q's bits;
  // false when it is singular.
  bool factorizeProjection(const double* q, const double* G);
  // S = Dg M⁻¹ Dgᵀ (G: Dg row by row). NK: n as a constant (withCoordinateCount).
  // kDiagonal: M⁻¹ diagonal (massInverseZerosSign_), its products by diagonalTimes.
  template <class NK, bool kDiagonal, class Matrix>
  void projectionMatrix(const double* G, Matrix& S) const;
  // p ← p − Dgᵀν with ν = (Dg M⁻¹ Dgᵀ)⁻¹ Dg v (lu: its factorization); false when p is
  // not finite. NK, CK: the counts as constants (withCoordinateAndConstraintCounts).
  template <class NK, class CK, class LU>
  bool removeNormalMomentum(const LU& lu, const double* G, const double* v, double* p);
  template <class NK, class CK, bool kDiagonal>
  bool projectKeepingEnergy(const double* q, double* p);
  // projectKeepingEnergy for this system's counts, chosen at its first use and called
  // through the pointer, so that each copy stays a function of its own (as
  // LagrangianDel's step in place).
  using ProjectKeepingEnergy = bool (LagrangianEval::*)(const double*, double*);
  static ProjectKeepingEnergy projectKeepingEnergyFor(int n, int c, bool diagonal);
  ProjectKeepingEnergy projectKeepingEnergy_ = nullptr;
  struct KeptEnergy {
    bool valid = false;
    std::array<double, lagrangian_limits::kMaxCoordinates> q{}, p{};
    double energy = 0;
  };
  KeptEnergy keptEnergy_;
  bool globalized_ = true;
  std::string velocityFailure_;
  std::shared_ptr<const LagrangianProblem> problem_;
  LagrangianWorkspace w_;
  struct CachedVelocity {
    bool valid = false, ok = false;
    std::uint64_t key = 0;  // velocityKey of (q, p, t): most slots are passed over on it alone
    double t = 0;
    std::array<double, lagrangian_limits::kMaxCoordinates> q{}, p{};
    SmallVec v;
  };
  // The latest answers, oldest replaced first. A constrained step asks for three new
  // ones (its end with the momentum as the step formed it, as projected, and as
  // projected again for the energy) and then for its start's again (the plausibility
  // check): eight slots keep the start. A recovery that depends on its starting guess (L
  // not quadratic in q̇) keeps four, as before: there which calls hit decides the bits.
  // With M and ∂L/∂q̇(q, 0) constant (restMomentumReady_) none: v = M⁻¹ (p − b) costs
  // less than a look-up.
  static constexpr int kCachedVelocities = 8, kCachedGuessedVelocities = 4;
  CachedVelocity cache_[kCachedVelocities];
  int cacheNext_ = 0;
  bool constantMassReady_ = false, constantMassRegular_ = false;
  SmallMat constantMass_, constantMassInverse_;
  // M⁻¹ diagonal (point masses in Cartesian coordinates): the sign of its zeros, else 0
  // (diagonalZerosSign). The step's projection then takes its products by diagonalTimes.
  int massInverseZerosSign_ = 0;
  // ∂L/∂q̇(q, 0, t) when it is constant (constantRestMomentum), from its first evaluation.
  bool restMomentumReady_ = false;
  std::array<double, lagrangian_limits::kMaxCoordinates> restMomentum_{};
  SmallLU constantMassLu_;
  ConstraintLU projectionLu_;  // projectMomentum's Dg M⁻¹ Dgᵀ (a member: no 8 KB object built per call)
  // With a constant mass matrix the factorization of Dg M⁻¹ Dgᵀ is a function of q alone:
  // kept for the latest q (a step projects at q_{k+1}, then the model's energy there).
  bool projectionReady_ = false, projectionRegular_ = false;
  std::array<double, lagrangian_limits::kMaxCoordinates> projectionQ_{};
  bool prepareConstantMass(const double* q);
};

// The explicit predictor of the implicit steps after a load, from (q_k, p_k, t_k) alone:
// the velocity q̇_k recovered from p_k and, when Lq is given, ∂L/∂q(q_k, q̇_k). A step
// starts its Newton from δ = c h q̇_k (a node at time c h) and Δp = h ∂L/∂q, within O(h²)
// of the solution. False (start from zero) when q̇_k cannot be recovered or is not finite.
inline bool explicitPredictor(LagrangianEval& eval, const VecX& q, const VecX& p, double t, SmallVec& v,
                              SmallVec* Lq = nullptr) {
  if (!eval.velocity(q.data(), p.data(), v, t) || !v.allFinite()) return false;
  if (Lq) {
    SmallVec Lv;
    eval.gradient(q.data(), v.data(), *Lq, Lv, t);
  }
  return true;
}

struct LagrangianModel;

// An integrator's evaluator: the model's own when L is quadratic in q̇, else one of its
// own. With L quadratic in q̇ every answer an evaluator keeps (program outputs, velocities,
// factorizations) is a function of its arguments alone, whoever asked first, so the
// step's end-state quantities (velocities at q_{k+1}, Dg there, L's parts) serve the
// model's energy and diagnostics without a second evaluation, with the same bits. A
// non-quadratic velocity recovery starts from the caller's guess: a shared cache would
// hand the model an answer from the integrator's start, so each keeps its own (and a copy
// of the integrator copies it, as before).
class SharedEval {
 public:
  explicit SharedEval(std::shared_ptr<const LagrangianProblem> problem)
      : eval_(std::make_shared<LagrangianEval>(std::move(problem))) {}
  explicit SharedEval(const LagrangianModel& model);
  SharedEval(const SharedEval& o) : eval_(o.shared() ? o.eval_ : std::make_shared<LagrangianEval>(*o.eval_)) {}
  SharedEval& operator=(const SharedEval& o) {
    if (this != &o) eval_ = o.shared() ? o.eval_ : std::make_shared<LagrangianEval>(*o.eval_);
    return *this;
  }
  LagrangianEval* operator->() const { return eval_.get(); }
  LagrangianEval& operator*() const { return *eval_; }
  // As a new evaluator would answer: kept where every answer is a function of its
  // arguments alone, replaced by a new one where an answer depends on who asked first.
  void renew() {
    if (!shared()) eval_ = std::make_shared<LagrangianEval>(eval_->problemHandle());
  }

 private:
  bool shared() const { return eval_->problem().quadratic; }
  std::shared_ptr<LagrangianEval> eval_;
};

struct LagrangianModel {
  std::shared_ptr<const LagrangianProblem> problem;
  std::shared_ptr<LagrangianEval> eval;  // scratch of the model's own evaluations
  // An energy scale: |E| + T of the initial state; for a driven or forced system the
  // largest met so far (implausibleStep updates it).
  mutable double scale = 1;

  explicit LagrangianModel(std::shared_ptr<const LagrangianProblem> p)
      : problem(p), eval(std::make_shared<LagrangianEval>(p)) {}
  LagrangianModel(const LagrangianModel& o)
      : problem(o.problem), eval(std::make_shared<LagrangianEval>(o.problem)), scale(o.scale) {}
  LagrangianModel& operator=(const LagrangianModel& o) {
    problem = o.problem;
    eval = std::make_shared<LagrangianEval>(o.problem);
    scale = o.scale;
    return *this;
  }

  // The physical energy at t = 0 (the step checks): H at the momentum projected onto
  // the hidden constraints Dg(q) v = 0, the energy of the tangent motion (H itself
  // without constraints); diagnostics() gives it at the simulation's time.
  double energy(const State& s) const { return physicalEnergy(s, 0.0); }
  double physicalEnergy(const State& s, double t) const;
  // Forces outside L (damping, a driving force Q): damping ≠ 0 or `forces` given.
  bool forced() const { return problem->forced(); }
  Diagnostics diagnostics(const State& s, double t) const;
  // The same into d, writing only the fields a system defined by data sets (the rest keep
  // what d holds): the per-step checks reuse one Diagnostics instead of zeroing a new one
  // and copying it (29 numbers: a memset and a memcpy, 4 % of the pendulum as data).
  void diagnosticsInto(const State& s, double t, Diagnostics& d) const;
  // The energy diagnosticsInto(s, t, d) gives (the same bits): at t when L uses it, else
  // at 0.
  double diagnosticsEnergy(const State& s, double t) const {
    return physicalEnergy(s, problem->timeDependent ? t : 0.0);
  }
  // True only when every number of the diagnostics row of (s, t) with this energy and
  // every position drawn are surely finite and within ±kMaxMagnitude, from the problem's
  // bounds (rowBounded), 1 + |t| + Σ|q_i| and Σ|p_i|, which must be within
  // ±kMaxMagnitude too (so is then every number of s): a fixed step that is not recorded
  // then forms none of them (the accepted states, the refusals and their reasons are the
  // same either way).
  bool rowSurelyRepresentable(const State& s, double t, double energy) const;
  // Whether a conservative system's energy jumped by at most a quarter of |E_a| (and
  // 1e-9 of the scale): implausibleStep's first test, which passes the step.
  bool jumpWithinQuarter(double energyA, double energyB) const {
    return std::abs(energyB - energyA) <= 0.25 * std::abs(energyA) + 1e-9 * scale;
  }
  // The checks of an unrecorded fixed step of a conservative system with bounded rows
  // (rowBounded), from a step whose state had energy energyA to b at t, in one pass: true
  // only when each would pass (a state and energy within ±kMaxMagnitude, the energy jump
  // within a quarter, the row and drawing surely representable); `energy` is then b's,
  // the checks' bits. Otherwise the general checks decide, with the same outcome as ever.
  bool stepSurelyAccepted(const State& b, double energyA, double t, double& energy) const;
  void visual(const State& s, double t, std::vector<double>& out) const { eval->positions(s.q.data(), t, out); }
  // The first body position at (s, t) that is not finite or beyond ±kMaxMagnitude, as
  // "bodies[i].position[k] = <expression> is <value>", or "" (out: a scratch buffer).
  std::string badPosition(const State& s, double t, std::vector<double>& out) const;
  // A step is implausible when its energy jumps by more than a quarter of the energy's
  // size (|E| plus the kinetic energy; for a driven or forced system, whose energy is
  // not conserved, when ½ ΔvᵀMΔv exceeds a quarter of the largest size met so far):
  // the variational methods keep E within O(h²)
  // and the explicit ones change it by O(h^{r+1}) per step, while a Newton root far from
  // the motion (or an unresolved step) moves it by far more. Returns why, or "".
  std::string implausibleStep(const State& a, const State& b, double energyA, double energyB, double h) const;
  // Checks q against the constraints (within kManifoldTolerance) and projects onto them;
  // momenta onto the tangent ones (when the integrator's rules ask).
  void project(State& s, const StateRules& rules, const std::string& qField, const std::string& pField) const;
};

inline SharedEval::SharedEval(const LagrangianModel& model)
    : eval_(model.problem->quadratic ? model.eval : std::make_shared<LagrangianEval>(model.problem)) {}

// Validates and compiles the `params` of system "lagrangian" (core/src/systems/
// lagrangian_system.cpp); `normalized` receives them with every field present.
// Throws InputError (or expr::ExpressionError, with the column) naming the field.
std::shared_ptr<const LagrangianProblem> compileLagrangian(const Json& params, Json& normalized);
// The same checks and LaTeX without building any program (the editor's preview).
std::shared_ptr<const LagrangianProblem> inspectLagrangian(const Json& params, Json& normalized);
// The same definition with the constraints replaced by the penalty −(μ/2) Σ g_i² in L.
std::shared_ptr<const LagrangianProblem> penalizedLagrangian(const LagrangianProblem& problem, double mu);

}  // namespace vilab
