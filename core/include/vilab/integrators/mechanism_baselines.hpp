// What a user would otherwise run on a mechanism: explicit Runge–Kutta methods on the
// index-1 equations of motion (models/mechanism_dynamics.hpp), set up to do their best.
//
// The orientation is carried as a unit quaternion q with q̇ = ½ q ⊗ (0, ω), and the
// methods run on the vector (x, q, p, Π) per body, q normalized after each step. This is
// the common choice for a general-purpose solver, and for a reason that matters here:
// it is classical Runge–Kutta on an ordinary ODE in ℝ^13 per body, so it
// keeps its order (4, 5 or 8) with no Lie-algebra corrections, whereas Runge–Kutta–Munthe-Kaas
// with stage exponentials needs the dexp⁻¹ series to the method's order to keep it
// (Hairer, Lubich & Wanner, Geometric Numerical Integration, §IV.8.2). The exact flow keeps
// |q| = 1, so normalizing changes a step by no more than its error.
//
// After each (sub)step both are projected back onto the constraint manifold:
//   the configuration onto g(x, R) = 0 by Gauss–Newton in the mass-weighted metric,
//     (δx, η) = −M⁻¹Gᵀ (G M⁻¹ Gᵀ)⁻¹ g,  x ↦ x + δx,  R ↦ R exp(η̂),
//   iterated while it lowers |g| (to rounding, a few iterations);
//   the momenta onto G v = 0, orthogonally in the same metric (kinetic energy),
//     v ↦ v − M⁻¹Gᵀ (G M⁻¹ Gᵀ)⁻¹ G v
// (Hairer, Lubich & Wanner §IV.4, standard projection; §VII.2 for constrained systems).
// Neither projection preserves energy: what is left is the method's energy drift.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <vector>

#include "vilab/detmath.hpp"
#include "vilab/models/mechanism_dynamics.hpp"

namespace vilab {

// exp(½ η̂) as a unit quaternion: the rotation by the angle |η| about η.
inline Vec4 quaternionExp(const Vec3& eta) {
  const double angle = dm::sqrt(eta.squaredNorm());
  if (angle < 1e-8) {
    // cos and sin(θ/2)/θ to rounding at this size.
    const Vec4 q(1 - angle * angle / 8, 0.5 * eta[0], 0.5 * eta[1], 0.5 * eta[2]);
    return q / dm::sqrt(q.squaredNorm());
  }
  double s = 0, c = 0;
  dm::sincos(0.5 * angle, s, c);
  const Vec3 axis = eta * (s / angle);
  return Vec4(c, axis[0], axis[1], axis[2]);
}

// The state of a mechanism as one vector, 13 entries per body: x, q, p, Π; then, for a
// mechanism whose loads depend on t, t itself (the clock, ṫ = 1).
class MechanismVector {
 public:
  static constexpr int kPerBody = 13;

  static VecX pack(const MechanismState& s, bool clock = false) {
    VecX y(kPerBody * s.x.size() + (clock ? 1 : 0));
    if (clock) y[y.size() - 1] = s.t;
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      y.segment<3>(kPerBody * i) = s.x[i];
      y.segment<4>(kPerBody * i + 3) = quat::fromMatrix(s.R[i]);
      y.segment<3>(kPerBody * i + 7) = s.p[i];
      y.segment<3>(kPerBody * i + 10) = s.Pi[i];
    }
    return y;
  }

  // The state held by y (q normalized into R; t from the clock if y has one).
  static void unpack(const VecX& y, MechanismState& s) {
    const std::size_t n = y.size() / kPerBody;
    if (y.size() % kPerBody == 1) s.t = y[y.size() - 1];
    s.x.resize(n);
    s.R.resize(n);
    s.p.resize(n);
    s.Pi.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      s.x[i] = y.segment<3>(kPerBody * i);
      s.R[i] = rotation(y.segment<4>(kPerBody * i + 3));
      s.p[i] = y.segment<3>(kPerBody * i + 7);
      s.Pi[i] = y.segment<3>(kPerBody * i + 10);
    }
  }

  static Mat3 rotation(const Vec4& q) { return quat::matrix(Vec4(q / dm::sqrt(q.squaredNorm()))); }
};

// The equations of motion on the packed vector, and the projections onto the manifold.
class MechanismOde {
 public:
  explicit MechanismOde(const MechanismModel& model) : dynamics_(model), clock_(model.usesTime()) {}

  const MechanismDynamics& dynamics() const { return dynamics_; }
  // Whether y ends with t (the loads depend on it).
  bool clock() const { return clock_; }
  int size() const { return MechanismVector::kPerBody * dynamics_.bodyCount() + (clock_ ? 1 : 0); }

  // dy/dt at y; false where the reactions are undefined.
  bool rhs(const VecX& y, VecX& dy) const {
    MechanismVector::unpack(y, scratch_);
    if (!dynamics_.rates(scratch_.x, scratch_.R, scratch_.p, scratch_.Pi, scratch_.t, rates_)) return false;
    dy.resize(y.size());
    if (clock_) dy[y.size() - 1] = 1;
    for (int i = 0; i < dynamics_.bodyCount(); ++i) {
      const int k = MechanismVector::kPerBody * i;
      dy.segment<3>(k) = rates_.xdot[i];
      dy.segment<4>(k + 3) = 0.5 * quat::mul(Vec4(y.segment<4>(k + 3)), quat::pure(rates_.omega[i]));
      dy.segment<3>(k + 7) = rates_.pdot[i];
      dy.segment<3>(k + 10) = rates_.Pidot[i];
    }
    return dy.allFinite();
  }

  // Normalizes each q, then projects the configuration and the momenta (see the header).
  // Returns the Gauss–Newton iterations taken.
  int project(VecX& y) const {
    const int n = dynamics_.bodyCount();
    for (int i = 0; i < n; ++i) {
      auto q = y.segment<4>(MechanismVector::kPerBody * i + 3);
      q /= dm::sqrt(q.squaredNorm());
    }
    const MechanismModel& model = dynamics_.model();
    if (model.constraintCount() == 0) return 0;
    MechanismVector::unpack(y, scratch_);
    const int iterations = projectConfiguration(scratch_.x, scratch_.R, y);
    projectMomenta(scratch_.x, scratch_.R, y);
    return iterations;
  }

 private:
  static constexpr int kMaxGaussNewton = 12;

  // M⁻¹Gᵀ (G M⁻¹ Gᵀ)⁻¹ r at (x, R) (the dynamics' reaction factorization).
  VecX weightedCorrection(const std::vector<Vec3>& x, const std::vector<Mat3>& R, const VecX& r) const {
    dynamics_.factorReactions(x, R);
    return dynamics_.inverseMassJacobianT() * dynamics_.reactionFactor().solve(r);
  }

  // Gauss–Newton onto g = 0, each iteration kept only when it lowers |g|∞ (so it stops
  // at rounding); writes x and q back into y.
  int projectConfiguration(std::vector<Vec3>& x, std::vector<Mat3>& R, VecX& y) const {
    const MechanismModel& model = dynamics_.model();
    const int m = model.constraintCount(), n = dynamics_.bodyCount();
    VecX g(m);
    std::vector<Vec4> q(n);
    for (int i = 0; i < n; ++i) q[i] = y.segment<4>(MechanismVector::kPerBody * i + 3);
    model.constraints(x, R, g);
    double err = g.cwiseAbs().maxCoeff();
    int it = 0;
    for (; it < kMaxGaussNewton && err > 0; ++it) {
      const VecX delta = -weightedCorrection(x, R, g);
      std::vector<Vec3> xTrial = x;
      std::vector<Mat3> RTrial = R;
      std::vector<Vec4> qTrial = q;
      for (int i = 0; i < n; ++i) {
        xTrial[i] += delta.segment<3>(6 * i);
        qTrial[i] = quat::mul(q[i], quaternionExp(delta.segment<3>(6 * i + 3)));
        qTrial[i] /= dm::sqrt(qTrial[i].squaredNorm());
        RTrial[i] = quat::matrix(qTrial[i]);
      }
      VecX gTrial(m);
      model.constraints(xTrial, RTrial, gTrial);
      const double errTrial = gTrial.cwiseAbs().maxCoeff();
      if (!(errTrial < err)) break;
      x.swap(xTrial);
      R.swap(RTrial);
      q.swap(qTrial);
      g = gTrial;
      err = errTrial;
    }
    for (int i = 0; i < n; ++i) {
      y.segment<3>(MechanismVector::kPerBody * i) = x[i];
      y.segment<4>(MechanismVector::kPerBody * i + 3) = q[i];
    }
    return it;
  }

  // v ↦ v − M⁻¹Gᵀ (G M⁻¹ Gᵀ)⁻¹ G v at R; writes p = m ẋ and Π = J ω back into y.
  void projectMomenta(const std::vector<Vec3>& x, const std::vector<Mat3>& R, VecX& y) const {
    const MechanismModel& model = dynamics_.model();
    const int n = dynamics_.bodyCount();
    std::vector<Vec3> p(n), Pi(n);
    for (int i = 0; i < n; ++i) {
      p[i] = y.segment<3>(MechanismVector::kPerBody * i + 7);
      Pi[i] = y.segment<3>(MechanismVector::kPerBody * i + 10);
    }
    const VecX v = dynamics_.velocities(p, Pi);
    dynamics_.factorReactions(x, R);
    const VecX Gv = dynamics_.jacobian() * v;
    const VecX w = v - dynamics_.inverseMassJacobianT() * dynamics_.reactionFactor().solve(Gv);
    for (int i = 0; i < n; ++i) {
      y.segment<3>(MechanismVector::kPerBody * i + 7) = model.bodies[i].mass * w.segment<3>(6 * i);
      y.segment<3>(MechanismVector::kPerBody * i + 10) = model.bodies[i].inertia * w.segment<3>(6 * i + 3);
    }
  }

  MechanismDynamics dynamics_;
  bool clock_;
  mutable MechanismState scratch_;
  mutable MechanismRates rates_;
};

// Classical RK4 with a fixed step h, projected after each step.
class MechanismProjectedRk4 {
 public:
  MechanismProjectedRk4(const MechanismModel& model, double h) : ode_(model), h_(h) {
    if (!(std::isfinite(h) && h > 0))
      throw InputError(InputErrorCode::Range, "h", "must be a finite positive step: " + formatNumber(h));
  }

  void load(const MechanismState& s) {
    y_ = MechanismVector::pack(s, ode_.clock());
    t_ = s.t;
  }
  void store(MechanismState& s) const {
    MechanismVector::unpack(y_, s);
    s.t = t_;
  }
  double time() const { return t_; }

  // One step; false (the state kept) where a stage is undefined.
  bool step() {
    const VecX& y = y_;
    if (!ode_.rhs(y, k1_)) return false;
    stage_ = y + (0.5 * h_) * k1_;
    if (!ode_.rhs(stage_, k2_)) return false;
    stage_ = y + (0.5 * h_) * k2_;
    if (!ode_.rhs(stage_, k3_)) return false;
    stage_ = y + h_ * k3_;
    if (!ode_.rhs(stage_, k4_)) return false;
    stage_ = y + (h_ / 6) * (k1_ + 2 * k2_ + 2 * k3_ + k4_);
    ode_.project(stage_);
    if (!stage_.allFinite()) return false;
    y_.swap(stage_);
    t_ += h_;
    return true;
  }

 private:
  MechanismOde ode_;
  double h_, t_ = 0;
  VecX y_, stage_, k1_, k2_, k3_, k4_;
};

// One substep of DOP853, the explicit Runge–Kutta method of order 8 of Dormand & Prince
// (Hairer, Nørsett & Wanner §II.10; the coefficients of Hairer's dop853): twelve stages,
// and Hairer's error estimate combining the embedded orders 5 and 3,
//   err = |ê₅|² / sqrt(|ê₅|² + 0.01 |ê₃|²) (RMS norms over sc), which behaves as O(h⁸).
struct Dop853Tableau {
  static constexpr int kStages = 12;
  static constexpr double kErrorOrder = 8;

  static bool substep(const MechanismOde& ode, const VecX& y0, double hs, VecX (&k)[kStages], VecX& y1, VecX& e) {
    static constexpr double A[kStages + 1][kStages] = {
        {},
        {5.26001519587677318785587544488e-2},
        {1.97250569845378994544595329183e-2, 5.91751709536136983633785987549e-2},
        {2.95875854768068491816892993775e-2, 0, 8.87627564304205475450678981324e-2},
        {2.41365134159266685502369798665e-1, 0, -8.84549479328286085344864962717e-1,
         9.24834003261792003115737966543e-1},
        {3.7037037037037037037037037037e-2, 0, 0, 1.70828608729473871279604482173e-1,
         1.25467687566822425016691814123e-1},
        {3.7109375e-2, 0, 0, 1.70252211019544039314978060272e-1, 6.02165389804559606850219397283e-2, -1.7578125e-2},
        {3.70920001185047927108779319836e-2, 0, 0, 1.70383925712239993810214054705e-1,
         1.07262030446373284651809199168e-1, -1.53194377486244017527936158236e-2, 8.27378916381402288758473766002e-3},
        {6.24110958716075717114429577812e-1, 0, 0, -3.36089262944694129406857109825,
         -8.68219346841726006818189891453e-1, 2.75920996994467083049415600797e1, 2.01540675504778934086186788979e1,
         -4.34898841810699588477366255144e1},
        {4.77662536438264365890433908527e-1, 0, 0, -2.48811461997166764192642586468,
         -5.90290826836842996371446475743e-1, 2.12300514481811942347288949897e1, 1.52792336328824235832596922938e1,
         -3.32882109689848629194453265587e1, -2.03312017085086261358222928593e-2},
        {-9.3714243008598732571704021658e-1, 0, 0, 5.18637242884406370830023853209, 1.09143734899672957818500254654,
         -8.14978701074692612513997267357, -1.85200656599969598641566180701e1, 2.27394870993505042818970056734e1,
         2.49360555267965238987089396762, -3.0467644718982195003823669022},
        {2.27331014751653820792359768449, 0, 0, -1.05344954667372501984066689879e1, -2.00087205822486249909675718444,
         -1.79589318631187989172765950534e1, 2.79488845294199600508499808837e1, -2.85899827713502369474065508674,
         -8.87285693353062954433549289258, 1.23605671757943030647266201528e1, 6.43392746015763530355970484046e-1},
        // b: the eighth-order weights.
        {5.42937341165687622380535766363e-2, 0, 0, 0, 0, 4.45031289275240888144113950566,
         1.89151789931450038304281599044, -5.8012039600105847814672114227, 3.1116436695781989440891606237e-1,
         -1.52160949662516078556178806805e-1, 2.01365400804030348374776537501e-1, 4.47106157277725905176885569043e-2}};
    static constexpr double E5[kStages] = {0.1312004499419488073250102996e-1,
                                           0,
                                           0,
                                           0,
                                           0,
                                           -0.1225156446376204440720569753e1,
                                           -0.4957589496572501915214079952,
                                           0.1664377182454986536961530415e1,
                                           -0.3503288487499736816886487290,
                                           0.3341791187130174790297318841,
                                           0.8192320648511571246570742613e-1,
                                           -0.2235530786388629525884427845e-1};
    // ê₃ = b − (b with 0.244…, 0.733…, 0.0220… taken from stages 1, 9, 12).
    static constexpr double bhh1 = 0.244094488188976377952755905512, bhh2 = 0.733846688281611857341361741547,
                            bhh3 = 0.220588235294117647058823529412e-1;
    VecX stage;
    for (int s = 0; s < kStages; ++s) {
      stage = y0;
      for (int j = 0; j < s; ++j)
        if (A[s][j] != 0) stage += (hs * A[s][j]) * k[j];
      if (!ode.rhs(stage, k[s])) return false;
    }
    y1 = y0;
    VecX e5 = VecX::Zero(y0.size());
    for (int j = 0; j < kStages; ++j) {
      if (A[kStages][j] != 0) y1 += (hs * A[kStages][j]) * k[j];
      if (E5[j] != 0) e5 += (hs * E5[j]) * k[j];
    }
    VecX e3 = y1 - y0;
    e3 -= hs * (bhh1 * k[0] + bhh2 * k[8] + bhh3 * k[11]);
    // e packs both estimates, ê₅ then ê₃, for errorNorm.
    e.resize(2 * y0.size());
    e << e5, e3;
    return true;
  }

  static double errorNorm(const VecX& e, const VecX& scale) {
    const Eigen::Index n = scale.size();
    const double e5 = e.head(n).cwiseQuotient(scale).squaredNorm(), e3 = e.tail(n).cwiseQuotient(scale).squaredNorm();
    if (e5 == 0 && e3 == 0) return 0;
    return e5 / dm::sqrt((e5 + 0.01 * e3) * static_cast<double>(n));
  }
};

// Adaptive explicit Runge–Kutta with the controller of integrators/runge_kutta.hpp
// (Hairer, Nørsett & Wanner §II.4): err from ê over sc_i = atol + rtol · max(|y0_i|,
// |y1_i|), accepted at err ≤ 1, next substep h · min(facmax, max(0.2, 0.9 err^(−1/q))),
// q the error's order, facmax = 10 (1 right after a rejection). Each accepted substep is
// projected (unless `projects` is false, to measure the bare equations' drift);
// advance(h) ends exactly at t + h and the proposal carries over.
template <class Tableau>
class MechanismAdaptiveRungeKutta {
 public:
  MechanismAdaptiveRungeKutta(const MechanismModel& model, double rtol, double atol, bool projects = true)
      : ode_(model), rtol_(rtol), atol_(atol), projects_(projects) {
    // A zero tolerance can never be met; atol = 0 alone is pure relative control.
    if (!(std::isfinite(rtol) && rtol > 0))
      throw InputError(InputErrorCode::Range, "rtol", "must be a finite positive tolerance: " + formatNumber(rtol));
    if (!(std::isfinite(atol) && atol >= 0))
      throw InputError(InputErrorCode::Range, "atol", "must be finite and not negative: " + formatNumber(atol));
  }

  void load(const MechanismState& s) {
    y_ = MechanismVector::pack(s, ode_.clock());
    t_ = s.t;
    proposal_ = 0;
  }
  void store(MechanismState& s) const {
    MechanismVector::unpack(y_, s);
    s.t = t_;
  }
  double time() const { return t_; }
  long acceptedSubsteps() const { return accepted_; }
  long rejectedSubsteps() const { return rejected_; }

  // Advances by h; false (the state kept) when a stage is undefined or the substep
  // collapses.
  bool advance(double h) {
    if (!(std::isfinite(h) && h > 0)) return false;
    VecX y = y_;
    double tau = 0, proposal = proposal_ > 0 ? proposal_ : h;
    bool afterRejection = false;
    long accepted = 0, rejected = 0;
    while (true) {
      const double remaining = h - tau;
      // Stretch by up to 1% rather than leave a sliver (as in Hairer's codes).
      const bool last = 1.01 * proposal >= remaining;
      const double hs = last ? remaining : proposal;
      if (!(hs > 1e-14 * h) || accepted + rejected > limits::kMaxSubstepsPerStep) return false;
      double err = 0;
      VecX next;
      const bool fine = trySubstep(y, hs, next, err);
      if (fine && err <= 1) {
        if (projects_) ode_.project(next);
        y.swap(next);
        ++accepted;
        const double grow = afterRejection ? 1.0 : 10.0;
        const double factor = std::min(grow, std::max(0.2, 0.9 * errorFactor(err)));
        // A shortened last substep keeps the proposal it was cut from.
        proposal = last && hs < proposal ? std::max(proposal, hs * factor) : hs * factor;
        afterRejection = false;
        if (last) break;
        tau += hs;
        continue;
      }
      ++rejected;
      afterRejection = true;
      proposal = hs * (fine ? std::min(1.0, std::max(0.2, 0.9 * errorFactor(err))) : 0.2);
    }
    if (!y.allFinite()) return false;
    y_.swap(y);
    t_ += h;
    proposal_ = proposal;
    accepted_ += accepted;
    rejected_ += rejected;
    return true;
  }

 private:
  // err^(−1/q), through the deterministic log and exp.
  static double errorFactor(double err) { return err > 0 ? dm::exp(-dm::log(err) / Tableau::kErrorOrder) : 10.0; }

  bool trySubstep(const VecX& y0, double hs, VecX& y1, double& err) {
    if (!Tableau::substep(ode_, y0, hs, k_, y1, e_)) return false;
    scale_.resize(y0.size());
    for (Eigen::Index i = 0; i < y0.size(); ++i) scale_[i] = atol_ + rtol_ * std::max(std::abs(y0[i]), std::abs(y1[i]));
    err = Tableau::errorNorm(e_, scale_);
    return std::isfinite(err) && y1.allFinite();
  }

  MechanismOde ode_;
  double rtol_, atol_;
  bool projects_;
  double t_ = 0, proposal_ = 0;
  long accepted_ = 0, rejected_ = 0;
  VecX y_, e_, scale_;
  VecX k_[Tableau::kStages];
};

using MechanismDop853 = MechanismAdaptiveRungeKutta<Dop853Tableau>;

// The fine reference for order tests: `state` advanced by `duration` with the projected
// DOP853 at rtol = atol = 1e-13 (the tests check it against the run at 1e-12 and against
// the registry's DOPRI5 at 1e-13). False, `state` kept, when it fails.
inline bool integrateFinely(const MechanismModel& model, MechanismState& state, double duration) {
  MechanismDop853 fine(model, 1e-13, 1e-13);
  fine.load(state);
  if (!fine.advance(duration)) return false;
  fine.store(state);
  return true;
}

// The registry's baselines on a mechanism (`rk4`, `dopri5`): the ODE above in the form
// the generic explicit Runge–Kutta integrators take (integrators/runge_kutta.hpp), on the
// canonical state (per body x and the quaternion, p and Π), projected after every
// (sub)step as above.
class MechanismCanonicalOde {
 public:
  static constexpr bool kProjects = true;
  // projects = false leaves the bare equations (tests measure their drift).
  explicit MechanismCanonicalOde(const MechanismModel& model, bool projects = true)
      : ode_(model), bodies_(model.bodyCount()), projects_(projects) {}
  int positions() const { return 7 * bodies_; }
  int size() const { return ode_.size(); }
  // The clock, when the loads depend on t: set to t_k before every step.
  bool setClock(VecX& y, double t) const {
    if (!ode_.clock() || y[y.size() - 1] == t) return false;
    y[y.size() - 1] = t;
    return true;
  }
  bool rhs(const VecX& y, VecX& dy) const { return ode_.rhs(y, dy); }
  const char* undefined() const { return "the joints' reactions are undefined (their constraints are singular)"; }
  StepOutcome project(VecX& y) const {
    if (projects_) ode_.project(y);
    if (!y.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the projection onto the joints is not finite",
                                 Suggestion::reduceH());
    return {};
  }
  bool fromState(const State& s, VecX& y) const {
    y.resize(size());
    if (ode_.clock()) y[size() - 1] = 0;
    for (int i = 0; i < bodies_; ++i) {
      const int k = MechanismVector::kPerBody * i;
      y.segment<7>(k) = s.q.segment<7>(7 * i);
      y.segment<6>(k + 7) = s.p.segment<6>(6 * i);
    }
    return y.allFinite();
  }
  void toState(const VecX& y, State& s) const {
    s.q.resize(7 * bodies_);
    s.p.resize(6 * bodies_);
    for (int i = 0; i < bodies_; ++i) {
      const int k = MechanismVector::kPerBody * i;
      s.q.segment<7>(7 * i) = y.segment<7>(k);
      s.p.segment<6>(6 * i) = y.segment<6>(k + 7);
    }
  }

 private:
  MechanismOde ode_;
  int bodies_;
  bool projects_;
};

}  // namespace vilab
