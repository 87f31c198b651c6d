#include "vilab/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <limits>
#include <utility>

#include "vilab/chain_linearization.hpp"
#include "vilab/hash.hpp"
#include "vilab/integrators/chain_multiplier.hpp"
#include "vilab/integrators/lagrangian_del.hpp"

namespace vilab {

namespace {
// The blocks of finished histories, by size, for the next ones on this thread: glibc gives
// a freed run of small blocks back to the system, and a new ring would then fault in fresh
// pages (about 1 ms for the default ring natively); a ring of one buffer kept them only by
// raising glibc's thresholds. At most kPooledDoubles are kept: none in wasm, whose memory
// is never given back (the freed blocks are reused as they are) and whose heap must stay
// flat across creating and disposing simulations.
class BlockPool {
 public:
#ifdef __EMSCRIPTEN__
  static constexpr std::size_t kPooledDoubles = 0;
#else
  static constexpr std::size_t kPooledDoubles = std::size_t{1} << 19;  // 4 MiB
#endif
  ~BlockPool() { gone = true; }
  std::unique_ptr<double[]> take(std::size_t size) {
    for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it)
      if (it->first == size) {
        std::unique_ptr<double[]> block = std::move(it->second);
        blocks_.erase(std::next(it).base());
        held_ -= size;
        return block;
      }
    return std::unique_ptr<double[]>(new double[size]);
  }
  void give(std::size_t size, std::unique_ptr<double[]> block) {
    if (held_ + size > kPooledDoubles) return;
    held_ += size;
    blocks_.emplace_back(size, std::move(block));
  }
  // Set when the thread's pool is destroyed (a history destroyed later frees its blocks).
  static thread_local bool gone;

 private:
  std::vector<std::pair<std::size_t, std::unique_ptr<double[]>>> blocks_;
  std::size_t held_ = 0;
};
thread_local bool BlockPool::gone = false;
thread_local BlockPool blockPool;
}  // namespace

History::~History() { reset(); }

void History::configure(std::vector<std::string> columns, int stride, int capacity) {
  reset();  // first: the blocks go back by their sizes
  columns_ = std::move(columns);
  stride_ = std::max(1, stride);
  capacity_ = std::max(1, capacity);
  deferred_ = -1;
  linkLengths_.clear();
}

void History::deferLinkLengthError(int column, std::vector<double> lengths) {
  reset();
  deferred_ = column;
  linkLengths_ = std::move(lengths);
}

void History::reset() {
  if constexpr (BlockPool::kPooledDoubles > 0)
    for (std::size_t b = 0; b < blocks_.size() && !BlockPool::gone; ++b)
      blockPool.give(rowsOf(b) * width(), std::move(blocks_[b]));
  blocks_.clear();
  clear();
}

void History::nextBlock() {
  const std::size_t blocks = (static_cast<std::size_t>(capacity_) + kBlockRows - 1) / kBlockRows;
  block_ = next_ == nullptr || block_ + 1 == blocks ? 0 : block_ + 1;
  blockRows_ = rowsOf(block_);
  if (block_ == blocks_.size()) {
    const std::size_t size = blockRows_ * width();
    if (BlockPool::kPooledDoubles == 0 || BlockPool::gone)
      blocks_.emplace_back(new double[size]);
    else
      blocks_.push_back(blockPool.take(size));
  }
  next_ = blocks_[block_].get();
  end_ = next_ + blockRows_;
}

void History::record(const double* row, const double* raw) {
  double* at = cell();
  for (std::size_t c = 0; c < columns_.size(); ++c) at[c * blockRows_] = row[c];
  for (std::size_t r = 0; r < linkLengths_.size(); ++r) at[(columns_.size() + r) * blockRows_] = raw[r];
  commit();
}

void History::finishLinkLengthError(const double* block, std::size_t rows, std::size_t from, std::size_t count,
                                    double* out) const {
  const double* raw = block + columns_.size() * rows + from;
  for (std::size_t k = 0; k < count; ++k) {
    double worst = 0;
    for (std::size_t i = 0; i < linkLengths_.size(); ++i)
      worst = std::max(worst, std::abs(std::sqrt(raw[i * rows + k]) - linkLengths_[i]));
    out[k] = worst;
  }
}

std::uint64_t History::read(std::uint64_t from, std::vector<double>& out, std::uint64_t& count) const {
  const std::uint64_t start = std::max(from, oldest());
  count = total_ > start ? total_ - start : 0;
  const std::size_t cols = columns_.size();
  out.resize(count * cols);
  // The samples are the ring's rows from start mod capacity on, wrapping at the capacity:
  // runs within one block at a time.
  std::size_t row = static_cast<std::size_t>(start % static_cast<std::uint64_t>(capacity_));
  for (std::size_t done = 0; done < count;) {
    const std::size_t b = row / kBlockRows, at = row % kBlockRows, rows = rowsOf(b);
    const std::size_t run = std::min<std::size_t>(rows - at, count - done);
    const double* block = blocks_[b].get();
    for (std::size_t c = 0; c < cols; ++c)
      if (static_cast<int>(c) != deferred_)  // finished below
        std::copy_n(block + c * rows + at, run, out.data() + c * count + done);
    if (deferred_ >= 0)
      finishLinkLengthError(block, rows, at, run, out.data() + static_cast<std::size_t>(deferred_) * count + done);
    done += run;
    row = row + run == static_cast<std::size_t>(capacity_) ? 0 : row + run;
  }
  return start;
}

// Whether this build runs mechanisms, fields and systems defined by data (defined in
// table.cpp: false in the lean module, whose parser refuses them). Under whole-program
// optimization the constants leave those models' code out of the lean module.
extern const bool kMechanismsInThisBuild;
extern const bool kFieldsInThisBuild;
extern const bool kDataDefinedInThisBuild;

namespace {
// f(the model), one case per kind of the Model variant (model.hpp checks the order).
template <class F>
decltype(auto) onModel(const Model& m, F&& f) {
  switch (kindOf(m)) {
    case ModelKind::Oscillator: return f(*std::get_if<OscillatorModel>(&m));
    case ModelKind::Chain: return f(*std::get_if<ChainModel>(&m));
    case ModelKind::RigidBody: return f(*std::get_if<RigidBodyModel>(&m));
    case ModelKind::Lagrangian:
      // The lean module's parser refuses these systems, and its evaluator throws this.
      if (!kDataDefinedInThisBuild) throw NotInLeanBuild("system", "a system defined by data");
      return f(*std::get_if<LagrangianModel>(&m));
    case ModelKind::Mechanism:
      // In the lean module the constant is false: what follows is left out.
      if (!kMechanismsInThisBuild) throw NotInLeanBuild("system", "a mechanism");
      return f(*std::get_if<MechanismModel>(&m));
    case ModelKind::Field: break;
  }
  if (!kFieldsInThisBuild) throw NotInLeanBuild("system", "a field");
  return f(*std::get_if<FieldModel>(&m));
}

// Models with time-dependent output (bodies and conserved quantities of a system defined
// by data, a mechanism's potential V(x, R, t)) take t; the others do not.
template <class M>
Diagnostics diagnosticsOf(const M& m, const State& s, double t) {
  if constexpr (std::is_same<M, LagrangianModel>::value || std::is_same<M, MechanismModel>::value)
    return m.diagnostics(s, t);
  else
    return m.diagnostics(s);
}

// diagnosticsOf(m, s, t) into d: in place for the models whose diagnosticsInto(s, t, d)
// writes only their fields (systems defined by data, mechanisms), anew for the others.
template <class M>
void diagnosticsInto(const M& m, const State& s, double t, Diagnostics& d) {
  if constexpr (std::is_same<M, LagrangianModel>::value || std::is_same<M, MechanismModel>::value)
    m.diagnosticsInto(s, t, d);
  else
    d = diagnosticsOf(m, s, t);
}

// Models whose diagnosticsInto() fills a reused Diagnostics and carries their energy()
// bit for bit (the same function on the same state): a step then computes the energy
// once, inside the diagnostics.
template <class M>
constexpr bool kDiagnosticsInPlace = std::is_same<M, ChainModel>::value || std::is_same<M, OscillatorModel>::value;
// Models whose diagnostics() carry their energy() bit for bit, returned anew: a step
// takes its energy from them. A field's energy is O(N) (the canonical state to (u, u̇)
// and a sum over nodes and cells); computed once, a leapfrog step costs 0.6× as much.
template <class M>
constexpr bool kDiagnosticsCarryEnergy = std::is_same<M, FieldModel>::value;
// The same at run time: a system defined by data whose L does not use t, where energy()
// and diagnostics() both take physicalEnergy(s, 0) (else diagnostics() takes it at t).
// A mechanism's diagnostics(s, t) carry energy(s) at t: its potential V(x, R, t) is then
// checked at the step's time, not at t = 0.
// Models whose diagnostics(s, within) also say whether every number of s is finite and
// within ±kMaxMagnitude: a field's from its energy's pass over the nodes, so that a step
// reads its O(N) state once for both (the leapfrog on N = 1024: 1.16× faster natively and
// in wasm).
template <class M>
constexpr bool kDiagnosticsBoundState = std::is_same<M, FieldModel>::value;
template <class M>
bool diagnosticsCarryEnergy(const M& m) {
  if constexpr (std::is_same<M, LagrangianModel>::value)
    return !m.problem->timeDependent;
  else
    return kDiagnosticsCarryEnergy<M> || std::is_same<M, MechanismModel>::value;
}

// A chain's mean kinetic energy (ChainModel::meanKineticEnergy) with v̄ = δ·(1/h)
// instead of δ/h: one division instead of one per coordinate. Every term is ≥ 0, so
// both sums are within (N + 10) ulp of the exact one (≤ 2e-14 relative for N ≤ 64),
// and a margin of 1e-12 proves the exact value ≤ allowed too; otherwise (or when not
// finite) the exact one decides.
template <class M>
bool surelyWithin(const M& m, const State& a, const State& b, double h, double allowed) {
  if constexpr (std::is_same<M, ChainModel>::value) {
    const double invH = 1.0 / h;
    double T = 0;
    for (int i = 0; i < m.bobs(); ++i) {
      double v2 = 0;
      for (int c = 0; c < 3; ++c) {
        const double v = (b.q[3 * i + c] - a.q[3 * i + c]) * invH;
        v2 += v * v;
      }
      T += 0.5 * m.masses[static_cast<std::size_t>(i)] * v2;
    }
    return T <= allowed * (1 - 1e-12);
  } else {
    (void)m, (void)a, (void)b, (void)h, (void)allowed;
    return false;
  }
}

// Whether a step that Newton accepted is plausible; when it is not, `why` says why. The
// models with a potential ≥ 0: the mean kinetic energy ½ v̄ᵀM v̄ of the step, v̄ =
// (q_{k+1} − q_k)/h, is at most the energy for the physical motion, up to the method's
// O(h²) error; four times the energy means Newton converged to a spurious root of the
// implicit equations, or h is far too large to resolve the motion. Systems defined by
// data may have negative potentials and judge by the energy jump instead. The message
// is only formed for a refusal: nothing is allocated on the accepted path.
template <class M>
bool plausibleStep(const M& m, const State& a, const State& b, double energyA, double energyB, double h,
                   std::string& why) {
  if constexpr (std::is_same<M, LagrangianModel>::value || std::is_same<M, MechanismModel>::value ||
                std::is_same<M, FieldModel>::value) {
    why = m.implausibleStep(a, b, energyA, energyB, h);
    return why.empty();
  } else {
    (void)energyB;
    // A chain's reported energy is the tangent motion's; the motion along the links (the
    // penalty methods' springs, a momentum off the hidden constraint) moves the bobs too.
    double energy = energyA;
    if constexpr (std::is_same<M, ChainModel>::value) energy = m.hamiltonian(a);
    const double allowed = 4.0 * energy + 1e-9 * m.energyScale();
    if (surelyWithin(m, a, b, h, allowed)) return true;
    const double moved = m.meanKineticEnergy(a, b, h);
    if (moved <= allowed) return true;
    why = "the step moved the system farther than its energy allows (mean kinetic energy " + scientific(moved) +
          " J against an energy of " + scientific(energy) +
          " J): the implicit equations converged to a spurious solution, or h is too large to resolve the motion";
    return false;
  }
}

// setState takes what initial data may give, no more (core/src/systems/*: the same
// limits), so that no state enters that the scenario parser would refuse for size.
void checkMagnitudes(const OscillatorModel& m, const State& s) {
  if (!(std::abs(s.q[0]) <= limits::kMaxCoordinate))
    throw InputError(InputErrorCode::Range, "q[0]",
                     "must be at most 1e6 m in magnitude (as initial.position), got " + formatNumber(s.q[0]));
  const double v = s.p[0] / m.mass;
  if (!(std::abs(v) <= limits::kMaxCoordinate))
    throw InputError(
        InputErrorCode::Range, "p[0]",
        "the velocity p/m must be at most 1e6 m/s in magnitude (as initial.velocity), got " + formatNumber(v));
}

void checkMagnitudes(const ChainModel& m, const State& s) {
  // Initial data allows 1e4 m/s per component, or 1e4 rad/s on every angle: a bob then
  // moves at up to √2·1e4 rad/s times the chain's length down to it.
  double reach = 0;
  for (int i = 0; i < m.bobs(); ++i) {
    reach += m.lengths[static_cast<std::size_t>(i)];
    const double maxSpeed = std::max(limits::kMaxSpeed, std::sqrt(2.0) * limits::kMaxRate * reach);
    for (int c = 0; c < 3; ++c) {
      const int k = 3 * i + c;
      if (!(std::abs(s.q[k]) <= limits::kMaxCoordinate))
        throw InputError(InputErrorCode::Range, "q[" + std::to_string(k) + "]",
                         "must be at most 1e6 m in magnitude, got " + formatNumber(s.q[k]));
      const double v = s.p[k] / m.masses[static_cast<std::size_t>(i)];
      if (!(std::abs(v) <= maxSpeed))
        throw InputError(InputErrorCode::Range, "p[" + std::to_string(k) + "]",
                         "the velocity p/m must be at most " + formatNumber(maxSpeed) +
                             " m/s in magnitude (what initial data may give), got " + formatNumber(v));
    }
  }
}

void checkMagnitudes(const RigidBodyModel& m, const State& s) {
  for (int i = 0; i < 3; ++i) {
    const double w = s.p[i] / m.inertia[i];
    if (!(std::abs(w) <= limits::kMaxRate))
      throw InputError(
          InputErrorCode::Range, "p[" + std::to_string(i) + "]",
          "the angular velocity Π/I must be at most 1e4 rad/s in magnitude (as initial.omega), got " + formatNumber(w));
  }
}

void checkMagnitudes(const LagrangianModel& m, const State& s) {
  const int n = m.problem->n;
  for (int i = 0; i < n; ++i)
    if (!(std::abs(s.q[i]) <= limits::kMaxCoordinate))
      throw InputError(InputErrorCode::Range, "q[" + std::to_string(i) + "]",
                       "must be at most 1e6 in magnitude (as initial.q), got " + formatNumber(s.q[i]));
  SmallVec v;
  if (!m.eval->velocity(s.q.data(), s.p.data(), v))
    throw InputError(InputErrorCode::Invalid, "p",
                     "the velocities cannot be recovered from these momenta (singular ∂²L/∂q'²)");
  for (int i = 0; i < n; ++i)
    if (!(std::abs(v[i]) <= limits::kMaxCoordinate))
      throw InputError(InputErrorCode::Range, "p[" + std::to_string(i) + "]",
                       "the velocity must be at most 1e6 in magnitude (as initial.qdot), got " + formatNumber(v[i]));
}

void checkMagnitudes(const MechanismModel& m, const State& s) {
  for (int i = 0; i < m.bodyCount(); ++i) {
    for (int c = 0; c < 3; ++c) {
      const int k = 7 * i + c;
      if (!(std::abs(s.q[k]) <= limits::kMaxCoordinate))
        throw InputError(InputErrorCode::Range, "q[" + std::to_string(k) + "]",
                         "must be at most 1e6 m in magnitude (as a body's position), got " + formatNumber(s.q[k]));
    }
    const Vec3 v = s.p.segment<3>(6 * i) / m.bodies[static_cast<std::size_t>(i)].mass;
    const Vec3 w = m.bodies[static_cast<std::size_t>(i)].inverseInertia() * Vec3(s.p.segment<3>(6 * i + 3));
    if (!(v.cwiseAbs().maxCoeff() <= limits::kMaxSpeed))
      throw InputError(InputErrorCode::Range, "p[" + std::to_string(6 * i) + "]",
                       "the velocity p/m must be at most 1e4 m/s in magnitude (as a body's velocity)");
    if (!(w.cwiseAbs().maxCoeff() <= limits::kMaxRate))
      throw InputError(InputErrorCode::Range, "p[" + std::to_string(6 * i + 3) + "]",
                       "the angular velocity J⁻¹Π must be at most 1e4 rad/s in magnitude (as a body's omega)");
  }
}

// Several components: every q within 1e6, and each node's velocities recovered within 1e6.
void checkMagnitudesMulti(const FieldModel& m, const State& s) {
  for (int k = 0; k < m.size(); ++k)
    if (!(std::abs(s.q[k]) <= limits::kMaxCoordinate))
      throw InputError(InputErrorCode::Range, "q[" + std::to_string(k) + "]",
                       "must be at most 1e6 in magnitude (as the initial displacements), got " + formatNumber(s.q[k]));
  field::State f;
  const int bad = m.toFieldMultiAt(s, f);
  if (bad >= 0)
    throw InputError(InputErrorCode::Invalid, "p[" + std::to_string(bad) + "]",
                     "no velocities have these momenta at this node (∂ℒ/∂u_t cannot be inverted here)");
  for (int k = 0; k < m.size(); ++k)
    if (!(std::abs(f.v[static_cast<std::size_t>(k)]) <= limits::kMaxCoordinate))
      throw InputError(
          InputErrorCode::Range, "p[" + std::to_string(k) + "]",
          "the velocity must be at most 1e6 in magnitude, got " + formatNumber(f.v[static_cast<std::size_t>(k)]));
}

void checkMagnitudes(const FieldModel& m, const State& s) {
  if (m.multi) return checkMagnitudesMulti(m, s);
  for (int i = 0; i < m.points(); ++i) {
    if (!(std::abs(s.q[i]) <= limits::kMaxCoordinate))
      throw InputError(InputErrorCode::Range, "q[" + std::to_string(i) + "]",
                       "must be at most 1e6 in magnitude (as initial.u), got " + formatNumber(s.q[i]));
    double v = 0;
    if (!m.velocity(s.q, s.p[i], i, v))
      throw InputError(InputErrorCode::Invalid, "p[" + std::to_string(i) + "]",
                       "no velocity u_t has this momentum (∂ℒ/∂u_t cannot be inverted here)");
    if (!(std::abs(v) <= limits::kMaxCoordinate))
      throw InputError(InputErrorCode::Range, "p[" + std::to_string(i) + "]",
                       "the velocity must be at most 1e6 in magnitude (as initial.ut), got " + formatNumber(v));
  }
}

// Chains of up to this many bobs (the fixed-size steps) record |d_i|² in raw history
// columns, the constraint finished on read; longer ones form it every recorded step.
constexpr int kDeferredLinksMax = 3;

// |d_i|² of bobs n of positions q: the squaredNorm() whose square root is
// ChainModel::linkLengthError's norm(), so the same bits once finished.
void squaredLinkLengths(const double* q, int n, double* out) {
  for (int i = 0; i < n; ++i) out[i] = chainLink(q, i).squaredNorm();
}

// A short chain's recorded numbers that depend on the state, for N bobs fixed at compile
// time (unrolled): J_z (ChainModel::verticalMomentum's sum, in its order) into *momentum
// unless planar, and |d_i|² into raw[i · stride]: those given in squared (the step's check
// formed them, with the same operations), else formed here.
template <int N>
void shortChainSample(const double* q, const double* p, bool planar, double* momentum, double* raw, std::size_t stride,
                      const double* squared = nullptr) {
  double J = 0;
  for (int i = 0; i < N; ++i) {
    J += q[3 * i] * p[3 * i + 1] - q[3 * i + 1] * p[3 * i];
    raw[static_cast<std::size_t>(i) * stride] = squared ? squared[i] : chainLink(q, i).squaredNorm();
  }
  if (!planar) *momentum = J;
}

// A chain's diagnostics row (t, energy, constraint, iterations, J_z) is finite and
// within ±kMaxMagnitude whenever its energy is and every |q_i|, |p_i| ≤ 1e100: J_z
// ≤ 2N·1e200 and a link length error ≤ 4e100 + l_i. Such a step need not form the row
// through Diagnostics: unrecorded, it forms none; recorded, it writes its numbers in
// place (the accepted states, the history and diagnostics() are the same bits either way).
bool chainRowSurelyRepresentable(const State& s, double energy) {
  constexpr double kSafe = 1e100;
  bool ok = std::abs(energy) <= limits::kMaxMagnitude;
  for (Eigen::Index i = 0; i < s.q.size(); ++i) ok &= std::abs(s.q[i]) <= kSafe;
  for (Eigen::Index i = 0; i < s.p.size(); ++i) ok &= std::abs(s.p[i]) <= kSafe;
  return ok;
}

// ---- a chain's energy without square roots or divisions -------------------------------
// ChainModel::energy is (T − r) + V with r = radialKinetic: the kinetic energy of the
// momenta's part along the links' length rates. A multiplier step's tangent projection
// leaves that part at rounding level (r ~ ε² T), and when r is below half the gap under T
// (r ≤ 2⁻⁵⁵ T suffices for T normal), T − r rounds to T: the energy is T + V, the same
// bits, without radialKinetic's square roots and divisions. A bound on the r it would
// compute decides; when the bound cannot (or a number is not finite), radialKinetic does.
//
// The bound, by standard rounding error analysis (Higham, Accuracy and Stability, §3.1):
// with ṽ_j = p_j · fl(1/m_j), w̃_i = ṽ_i − ṽ_{i−1}, U_i = Σ_c |ṽ_{i,c}| + |ṽ_{i−1,c}|,
// and the link vector d_i formed as radialKinetic forms it,
//  - if |d_i|² ≥ l_i²/4, its rate fl(e_i·w_i) (e_i = d_i/|d_i|, w_i = M⁻¹p across link i)
//    is at most β_i = 2.01 |d_i·w̃_i| fl(1/l_i) + 16 ε U_i (the rounding of |d_i|, e_i,
//    w_i and both dot products: 15.4 ε U_i);
//  - its pivots are at least (1 − δ_i)/m_i (ChainEnergyBound: the masses' condition);
//    with every δ_i ≤ 1e-6 the elimination ratios are at most 1 + 3e-6 in size,
//  - so the forward-substituted rates are at most R_i = (1 + 1e-5)(β_i + R_{i−1}) ≤
//    1.001 Σ_{j≤i} β_j (N ≤ 64), and r ≤ ½ (1 + 2e-6) Σ m_i R_i².
// With (a + b)² ≤ 2a² + 2b² the two parts of β separate. The rounding part: by
// Cauchy–Schwarz (Σ_j U_j)² ≤ 12N Σ_j |ṽ_j|² ≤ 24N T/m_min, so it adds at most
// 6160 ε² N (M/m_min) T to r (M = Σ m_i), below 2⁻⁵⁶ T when N M/m_min ≤ 1e10
// (ChainEnergyBound's second condition): nothing to compute per step. The rates' part
// adds at most 1.0023 M (2.01 A)², A = Σ_i |d_i·w̃_i| fl(1/l_i); the test takes
// 4.1 M A² ≤ 2⁻⁵⁶ T, with 2⁻¹⁰⁰⁰ added for what underflow may lose.
//
// ChainModel::energy(s, linkNorms), the same bits: T + V when the bound proves that
// radialKinetic could not change them (with linkNorms, the link lengths as radialKinetic
// forms them), else ChainModel::energy itself. One pass over the bobs, with the chain's
// constants formed once (ChainEnergyBound), each sum in the order of the function it
// stands for (kinetic<N>, potential<N>, the bound's A; the first term of a sum taken as
// it is: 0 + x is x for the terms here, none of which is −0), so the same bits; each
// bob's |d_i|² also goes to perBob(i, |d_i|²) (the step check's other sums, below), and
// kinetic gets T. N > 0 fixes the bobs at compile time (unrolled); N = 0 takes them from
// the model.
template <int N, class PerBob>
[[gnu::always_inline]] inline double chainEnergyN(const ChainModel& m, const ChainEnergyBound& bound, const State& s,
                                                  double* linkNorms, bool* shortcut, double& kinetic,
                                                  const PerBob& perBob) {
  const int n = N > 0 ? N : m.bobs();
  const double* q = s.q.data();
  const double* p = s.p.data();
  double T = 0, V = 0;             // kinetic<N>, potential<N>
  double A = 0;                    // the bound's
  double previous[3] = {0, 0, 0};  // ṽ_{i−1}
  bool radialOk = bound.usable;
  for (int i = 0; i < n; ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    const double* qi = q + 3 * i;
    const double* pi = p + 3 * i;
    const double bobKinetic =
        overMass(0.5 * (pi[0] * pi[0] + pi[1] * pi[1] + pi[2] * pi[2]), m.masses[k], bound.exactInverseMass[k]);
    const double potential = bound.weight[k] * (qi[2] + bound.depth[k]);
    T = i > 0 ? T + bobKinetic : bobKinetic;
    V = i > 0 ? V + potential : potential;
    const Vec3 d = chainLink(q, i);
    double v[3];
    for (int c = 0; c < 3; ++c) v[c] = pi[c] * bound.inverseMass[k];
    double rate = d[0] * (v[0] - previous[0]);  // d_i·w̃_i
    rate += d[1] * (v[1] - previous[1]);
    rate += d[2] * (v[2] - previous[2]);
    for (int c = 0; c < 3; ++c) previous[c] = v[c];
    const double squaredLength = d.squaredNorm();
    radialOk &= squaredLength >= bound.quarterSquaredLength[k];
    const double part = std::abs(rate) * bound.inverseLength[k];
    A = i > 0 ? A + part : part;
    perBob(i, squaredLength);
  }
  kinetic = T;
  const bool negligible = radialOk && 4.1 * bound.totalMass * (A * A) + 0x1p-1000 <= T * 0x1p-56;
  if (shortcut) *shortcut = negligible;
  if (!negligible) return m.energy(s, linkNorms);
  if (linkNorms)
    for (int i = 0; i < n; ++i) linkNorms[i] = chainLink(q, i).norm();
  return T + V;
}

// The checks of an unrecorded chain step, for a fixed h: the energy (chainEnergyN,
// ChainModel::energy's bits), the surely-representable bound (which implies finite) and
// the surely-plausible bound (surelyWithin, with 1/h and energyScale() formed once per
// simulation). True only when each of those checks would pass; otherwise the general
// checks decide, so a step is accepted or refused, with the same reason, exactly as before.
//
// A chain of N bobs fixed at compile time (1–3) takes them in chainEnergyN's one unrolled
// pass, which also sums the magnitudes and the step's kinetic energy:
//  - |q_c| ≤ 1e100: Σ_i fl(|d_i|²) ≤ 1e190 (a sum of terms ≥ 0 rounds to no less than
//    any of them, and NaN fails) gives |d_i| ≤ 1.0001e95 with their rounding, so
//    |q_i| ≤ Σ_{j≤i} |d_j| < 1e100 for any N ≤ 64.
//  - |p_c| ≤ 1e100: every term of the computed T is ≥ p_c² (1 − 4ε) / (2 m_i), so
//    T ≤ 1e200 / (4 max m_i) gives p_c² ≤ ½ 1e200 (1 + 5ε).
//  - The step's kinetic energy as surelyWithin forms it, with δ·(1/h) squared once per
//    bob: ½ (1/h)² Σ m_i |δ_i|², within (3N + 8) ulp of the exact value (every term ≥ 0),
//    which the margin of 1e-12 covers as it covers surelyWithin's own rounding.
template <int N>
[[gnu::always_inline]] inline bool chainOnePassN(const ChainModel& m, const ChainEnergyBound& bound, const State& a,
                                                 const State& b, double energyA, double invH, double energyScale,
                                                 double& energy, double* linkNorms, double* squaredLinks = nullptr) {
  static_assert(N > 0 && N <= 64, "the one pass is for chains of a size fixed at compile time");
  const double* qa = a.q.data();
  const double* qb = b.q.data();
  const double* masses = m.masses.data();
  double T = 0;
  double moved = 0, links = 0;  // Σ m_i |δ_i|², Σ |d_i|²
  energy = chainEnergyN<N>(m, bound, b, linkNorms, nullptr, T, [&](int i, double squaredLength) {
    links += squaredLength;
    if (squaredLinks) squaredLinks[i] = squaredLength;
    double step[3];
    for (int c = 0; c < 3; ++c) step[c] = qb[3 * i + c] - qa[3 * i + c];
    moved += masses[i] * (step[0] * step[0] + step[1] * step[1] + step[2] * step[2]);
  });
  const double allowed = 4.0 * energyA + 1e-9 * energyScale;
  return links <= 1e190 && T <= bound.momentumBound && std::abs(energy) <= limits::kMaxMagnitude &&
         moved * (0.5 * (invH * invH)) <= allowed * (1 - 1e-12);
}

// The same checks for a chain sized at run time, the bobs in a loop.
bool chainStepSurelyAcceptedAnyN(const ChainModel& m, const ChainEnergyBound& bound, const State& a, const State& b,
                                 double energyA, double invH, double energyScale, double& energy, double* linkNorms) {
  constexpr double kSafe = 1e100;
  const int n = m.bobs();
  const double* qa = a.q.data();
  const double* qb = b.q.data();
  const double* pb = b.p.data();
  const double* masses = m.masses.data();
  double kinetic;
  energy = chainEnergyN<0>(m, bound, b, linkNorms, nullptr, kinetic, [](int, double) {});
  double moved = 0;
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    double v2 = 0;
    for (int c = 0; c < 3; ++c) {
      const double v = (qb[3 * i + c] - qa[3 * i + c]) * invH;
      v2 += v * v;
      ok &= std::abs(qb[3 * i + c]) <= kSafe;
      ok &= std::abs(pb[3 * i + c]) <= kSafe;
    }
    moved += 0.5 * masses[i] * v2;
  }
  const double allowed = 4.0 * energyA + 1e-9 * energyScale;
  return ok && std::abs(energy) <= limits::kMaxMagnitude && moved <= allowed * (1 - 1e-12);
}

// Whether a number of a state or of a diagnostics row is not finite or beyond
// ±kMaxMagnitude (the per-step test; firstOverflow then says which).
[[gnu::noinline]] bool anyOverflow(const std::vector<double>& row) {
  bool out = false;
  for (double x : row) out |= !(std::abs(x) <= limits::kMaxMagnitude);
  return out;
}

}  // namespace

// One pass that answers both the finite and the overflow checks of a step's state. Not
// inlined: one copy, not one in every model's checkStep (1.4 KB of the page's first-load
// wasm).
[[gnu::noinline]] bool withinMagnitude(const State& s) {
  bool in = true;
  for (Eigen::Index i = 0; i < s.q.size(); ++i) in &= std::abs(s.q[i]) <= limits::kMaxMagnitude;
  for (Eigen::Index i = 0; i < s.p.size(); ++i) in &= std::abs(s.p[i]) <= limits::kMaxMagnitude;
  return in;
}

namespace {

bool anyOverflow(const State& s, const std::vector<double>& row) { return !withinMagnitude(s) || anyOverflow(row); }

// The first number of a state, or of a diagnostics row (named by `columns`), that is
// not finite or beyond ±kMaxMagnitude: "" when there is none, else what and its value.
std::string firstOverflow(const State& s, const std::vector<double>& row, const std::vector<std::string>& columns) {
  const auto bad = [](double x) { return !(std::abs(x) <= limits::kMaxMagnitude); };
  const auto at = [](const char* name, Eigen::Index i, double x) {
    return std::string(name) + "[" + std::to_string(i) + "] = " + formatNumber(x);
  };
  for (Eigen::Index i = 0; i < s.q.size(); ++i)
    if (bad(s.q[i])) return at("q", i, s.q[i]);
  for (Eigen::Index i = 0; i < s.p.size(); ++i)
    if (bad(s.p[i])) return at("p", i, s.p[i]);
  for (std::size_t c = 0; c < row.size(); ++c)
    if (bad(row[c])) return columns[c] + " = " + formatNumber(row[c]);
  return "";
}
// A chain link shorter than this fraction of its length has no direction: the natural
// variables (its angles and their rates, sim.variables()) divide by its length. Only
// integrators whose positions leave the manifold (penalty springs) can come near it.
constexpr double kMinLinkFraction = 1e-9;

// The first link of a chain whose length is below kMinLinkFraction of its rest length
// (in the x–z plane for the planar pendulum, as its angle is measured), or −1.
int collapsedLink(const ChainModel& m, const State& s) {
  double px = 0, py = 0, pz = 0;
  for (int i = 0; i < m.bobs(); ++i) {
    const double dx = s.q[3 * i] - px, dy = m.planar ? 0.0 : s.q[3 * i + 1] - py, dz = s.q[3 * i + 2] - pz;
    const double l = m.lengths[static_cast<std::size_t>(i)];
    if (std::sqrt(dx * dx + dy * dy + dz * dz) < kMinLinkFraction * l) return i;  // NaN: left to the finiteness check
    px = s.q[3 * i], py = s.q[3 * i + 1], pz = s.q[3 * i + 2];
  }
  return -1;
}

// Why a state's drawn or natural variables would not be finite: a body of a system defined
// by data whose position is not finite, a chain link collapsed onto the bob above it;
// "" when there is none. `scratch` holds the body positions.
template <class M>
std::string undrawable(const M& m, const State& s, double t, bool offManifold, std::vector<double>& scratch) {
  if constexpr (std::is_same<M, LagrangianModel>::value) {
    (void)offManifold;
    return m.badPosition(s, t, scratch);
  } else if constexpr (std::is_same<M, ChainModel>::value) {
    (void)t, (void)scratch;
    const int i = offManifold ? collapsedLink(m, s) : -1;
    if (i < 0) return "";
    return "link " + std::to_string(i + 1) + " has collapsed (bob " + std::to_string(i + 1) +
           (i == 0 ? " is on the pivot" : " is on the bob above it") + "): its angles are not defined";
  } else {
    (void)m, (void)s, (void)t, (void)offManifold, (void)scratch;
    return "";
  }
}

// Why a state or its energy is not finite: for a system defined by data whose state is
// finite, that its velocities cannot be recovered from its momenta (and why).
template <class M>
std::string undefinedState(const M& m, const State& s) {
  if constexpr (std::is_same<M, LagrangianModel>::value) {
    if (s.q.allFinite() && s.p.allFinite()) {
      const std::string& why = m.eval->velocityFailure();
      return "the energy of the new state is not defined: its velocities cannot be recovered from its momenta" +
             (why.empty() ? std::string() : " (" + why + ")");
    }
  }
  (void)m, (void)s;
  return "the new state is not finite";
}

// False, with the refusal, when the new state cannot be drawn (undrawable()).
template <class M>
bool refuseUndrawable(const M& m, const State& next, double t, Refusal& refusal) {
  static thread_local std::vector<double> scratch;
  const std::string why = undrawable(m, next, t, true, scratch);
  if (why.empty()) return true;
  refusal = Refusal::of(RefusalCode::NonFinite, "the new state cannot be drawn: " + why,
                        Suggestion::reduceH("reduce h, or define the positions for every state the motion reaches"));
  return false;
}
}  // namespace

// The pivots of radialKinetic's elimination of A = G M⁻¹ Gᵀ: the Schur complement keeps
// 1/m_i exactly (link i alone moves bob i), and rounding takes at most 23ε/m_{i−1} per
// link, so the computed pivot_i ≥ (1 − δ_i)/m_i with δ_0 = 2ε, δ_i = 4ε + ρ_i (δ_{i−1} +
// 32ε)(1 + 2δ_{i−1}), ρ_i = m_i/m_{i−1}. The bound is used when every δ_i ≤ 1e-6 (masses
// that do not grow by large ratios down the chain; any equal masses up to 64 bobs), N ≤ 64
// and N Σ m_i / min m_i ≤ 1e10 (chainEnergyN's rounding part).
ChainEnergyBound::ChainEnergyBound(const ChainModel& m) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const std::size_t n = static_cast<std::size_t>(m.bobs());
  inverseMass.resize(n);
  inverseLength.resize(n);
  double delta = 2 * eps, total = 0, lightest = m.masses.empty() ? 0.0 : m.masses[0];
  usable = true;
  for (std::size_t i = 0; i < n; ++i) {
    total += m.masses[i];
    lightest = std::min(lightest, m.masses[i]);
    inverseMass[i] = 1.0 / m.masses[i];
    inverseLength[i] = 1.0 / m.lengths[i];
    if (i > 0) delta = 4 * eps + (m.masses[i] / m.masses[i - 1]) * (delta + 32 * eps) * (1 + 2 * delta);
    usable &= delta <= 1e-6 && std::isfinite(inverseMass[i]) && std::isfinite(inverseLength[i]);
  }
  usable &= n <= 64 && static_cast<double>(n) * total <= 1e10 * lightest;
  // The one pass's constants (chainOnePassN), in ChainModel::kinetic's and potential's order.
  exactInverseMass.resize(n);
  weight.resize(n);
  depth.resize(n);
  quarterSquaredLength.resize(n);
  double heaviest = 0, below = 0;
  for (std::size_t i = 0; i < n; ++i) {
    exactInverseMass[i] = exactInverse(m.masses[i]);
    weight[i] = m.masses[i] * m.g;
    below += m.lengths[i];
    depth[i] = below;
    quarterSquaredLength[i] = 0.25 * (m.lengths[i] * m.lengths[i]);
    heaviest = std::max(heaviest, m.masses[i]);
  }
  totalMass = total;
  momentumBound = heaviest > 0 && std::isfinite(heaviest) ? 1e200 / (4 * heaviest) : -1;
}

double chainEnergy(const ChainModel& m, const ChainEnergyBound& bound, const State& s, double* linkNorms,
                   bool* shortcut) {
  double kinetic;
  const auto noSums = [](int, double) {};
  switch (m.bobs()) {
    case 1: return chainEnergyN<1>(m, bound, s, linkNorms, shortcut, kinetic, noSums);
    case 2: return chainEnergyN<2>(m, bound, s, linkNorms, shortcut, kinetic, noSums);
    case 3: return chainEnergyN<3>(m, bound, s, linkNorms, shortcut, kinetic, noSums);
    default: return chainEnergyN<0>(m, bound, s, linkNorms, shortcut, kinetic, noSums);
  }
}

namespace {
// chainStepSurelyAccepted, inlined where the step loops call it: for Bobs > 0 bobs fixed at
// compile time (the chain's own loop, Simulation::chainSteps), else the model's.
template <int Bobs>
[[gnu::always_inline]] inline bool surelyAccepted(const ChainModel& m, const ChainEnergyBound& bound, const State& a,
                                                  const State& b, double energyA, double invH, double energyScale,
                                                  double& energy, double* linkNorms, double* squaredLinks = nullptr) {
  if constexpr (Bobs > 0)
    return chainOnePassN<Bobs>(m, bound, a, b, energyA, invH, energyScale, energy, linkNorms, squaredLinks);
  switch (m.bobs()) {
    case 1: return chainOnePassN<1>(m, bound, a, b, energyA, invH, energyScale, energy, linkNorms);
    case 2: return chainOnePassN<2>(m, bound, a, b, energyA, invH, energyScale, energy, linkNorms);
    case 3: return chainOnePassN<3>(m, bound, a, b, energyA, invH, energyScale, energy, linkNorms);
    default: return chainStepSurelyAcceptedAnyN(m, bound, a, b, energyA, invH, energyScale, energy, linkNorms);
  }
}
}  // namespace

bool chainStepSurelyAccepted(const ChainModel& m, const ChainEnergyBound& bound, const State& a, const State& b,
                             double energyA, double invH, double energyScale, double& energy, double* linkNorms) {
  return surelyAccepted<0>(m, bound, a, b, energyA, invH, energyScale, energy, linkNorms);
}

Simulation::Simulation(const Scenario& scenario, SimulationOptions options) : scenario_(scenario) {
  if (options.historyStride < limits::kMinHistoryStride || options.historyStride > limits::kMaxHistoryStride)
    throw InputError(InputErrorCode::Range, "historyStride", "must be an integer in [1, 1000000]");
  if (options.historyCapacity < limits::kMinHistoryCapacity || options.historyCapacity > limits::kMaxHistoryCapacity)
    throw InputError(InputErrorCode::Range, "historyCapacity", "must be an integer in [1, 1048576]");
  integrator_ = makeIntegrator(scenario_);
  storeOverwrites_ = integrator_->storeOverwrites();
  readsTime_ = integrator_->readsTime();
  state_ = scenario_.initial;
  next_ = state_;
  energy_ = energyOf(state_);
  invH_ = 1.0 / scenario_.h;
  if (const auto* chain = std::get_if<ChainModel>(&scenario_.model)) {
    energyScale_ = chain->energyScale();
    chainBound_ = ChainEnergyBound(*chain);
    linkNorms_.assign(static_cast<std::size_t>(chain->bobs()), 0.0);
    earlyChainAccept_ = !scenario_.integrator->variableStep;
  }
  if (const auto* data = std::get_if<LagrangianModel>(&scenario_.model)) {
    const LagrangianProblem& P = *data->problem;
    earlyDataAccept_ = !scenario_.integrator->variableStep && P.rowBounded && !P.usesTime() && !P.forced();
  }
  std::vector<std::string> columns = {"t", "energy", "constraint", "iterations"};
  const Diagnostics d = diagnostics();
  static const char* axes[] = {"x", "y", "z"};
  const auto* fm = std::get_if<FieldModel>(&scenario_.model);
  if (const auto* lm = std::get_if<LagrangianModel>(&scenario_.model)) {
    for (const auto& name : lm->problem->symmetryNames) columns.push_back("momentum." + name);
    for (const auto& name : lm->problem->conservedNames) columns.push_back("conserved." + name);
  } else if (fm != nullptr && fm->multi) {
    for (const auto& symmetry : fm->multi->symmetries) columns.push_back("momentum." + symmetry.name);
  } else {
    if (d.momentumSize == 1) columns.push_back("momentum");
    if (d.momentumSize == 3)
      for (const char* a : axes) columns.push_back(std::string("momentum.") + a);
  }
  if (d.hasBodyMomentum)
    for (const char* a : axes) columns.push_back(std::string("bodyMomentum.") + a);
  if (scenario_.integrator->variableStep) columns.push_back("dt");
  history_.configure(columns, options.historyStride, options.historyCapacity);
  // A short chain (the fixed-size steps) records |d_i|², its constraint column finished on read.
  if (const auto* chain = std::get_if<ChainModel>(&scenario_.model); chain && chain->bobs() <= kDeferredLinksMax) {
    history_.deferLinkLengthError(2, chain->lengths);
    rawRow_.resize(chain->lengths.size());
  }
  untilRecord_ = history_.stride();
  row_.resize(columns.size());
  fillRow(diagnostics(), time(), lastDt_);
  // Initial data is bounded, but a definition's conserved quantity or momentum may
  // still not be finite there (1/q at q = 0).
  const std::string overflow = firstOverflow(state_, row_, history_.columns());
  if (!overflow.empty())
    throw InputError(InputErrorCode::Range, scenario_.system->parseParams ? "params" : "initial",
                     "the initial state's " + overflow + " is not finite or beyond ±1e300");
  checkDrawable(state_, time(), true);
  recordRow();
}

double Simulation::energyOf(const State& s) const {
  return onModel(scenario_.model, [&](const auto& m) { return m.energy(s); });
}

Diagnostics Simulation::diagnostics() const {
  Diagnostics d = onModel(scenario_.model, [&](const auto& m) { return diagnosticsOf(m, state_, time()); });
  d.iterations = iterations_;
  return d;
}

void Simulation::visualState(std::vector<double>& out) const {
  onModel(scenario_.model, [&](const auto& m) {
    if constexpr (std::is_same<std::decay_t<decltype(m)>, LagrangianModel>::value)
      m.visual(state_, time(), out);
    else
      m.visual(state_, out);
  });
}

template <int Bobs>
[[gnu::always_inline]] inline bool Simulation::checkAndCommit(int iterations, Refusal& refusal) {
  // Stage 2: the checks. A fixed-step chain's step skips the general ones when it is
  // surely accepted and its row surely representable (chainStepSurelyAccepted): its
  // energy is all they need. Taken here, so that the general checks stay out of line.
  bool accepted = false;
  if (Bobs > 0 || earlyChainAccept_) {
    const ChainModel& chain = *std::get_if<ChainModel>(&scenario_.model);
    // The natural variables must be defined first: a penalty link collapsed onto the
    // bob above it has no angles (a chain's own loop keeps its positions on the manifold).
    if (Bobs == 0 && !scenario_.integrator->stateRules.positionsOnManifold &&
        !refuseUndrawable(chain, next_, static_cast<double>(step_ + 1) * scenario_.h, refusal))
      return rejectStep(refusal);
    // Recorded or not: a recorded step's row then is written in place from what this
    // step computed (recordChainSample), with the same bits as fillRow's.
    double energy;
    accepted =
        surelyAccepted<Bobs>(chain, chainBound_, state_, next_, energy_, invH_, energyScale_, energy,
                             Bobs == 0 && untilRecord_ == 1 && history_.rawCount() == 0 ? linkNorms_.data() : nullptr,
                             Bobs > 0 ? squaredLinks_.data() : nullptr);
    if (accepted) {
      energy_ = energy;
      rowFilled_ = false;
    }
  }
  if (Bobs == 0 && earlyDataAccept_ && untilRecord_ != 1) {
    // The same for a system defined by data: its energy is all an unrecorded step's
    // checks need when its row's bounds vouch for the rest (checkStep's lazy row).
    double energy;
    accepted = std::get_if<LagrangianModel>(&scenario_.model)
                   ->stepSurelyAccepted(next_, energy_, static_cast<double>(step_ + 1) * scenario_.h, energy);
    if (accepted) energy_ = energy;
  }
  if (!accepted && !checkModelStep(iterations, refusal)) return rejectStep(refusal);
  // Stage 3: the step is committed (a chain's own loop steps by a fixed h).
  commitStep<Bobs>(iterations);
  return true;
}

bool Simulation::stepOnce(Refusal& refusal) {
  // Stage 1: the integrator's step, the new state in next_; then its checks and commit.
  if (readsTime_) integrator_->setTime(time_);
  const StepOutcome o = integrator_->stepAndStore(next_);
  if (!o.ok) return refuseStep(o.refusal, refusal);
  return checkAndCommit<0>(o.iterations, refusal);
}

namespace {
// Up to n steps in calls of `batch` (its argument: how many, at most 256), `taken`
// counting the accepted ones. V8 replaces a wasm function's baseline code with its
// optimized code only at its next call (it has no on-stack replacement for wasm), so one
// call of a million steps would run them all on the baseline tier.
template <class Batch>
bool inBatches(std::uint64_t n, const std::uint64_t& taken, Batch batch) {
  constexpr std::uint64_t kBatch = 256;
  while (taken < n)
    if (!batch(std::min(n - taken, kBatch))) return false;
  return true;
}
}  // namespace

template <int N>
bool Simulation::chainSteps(ChainMultiplierIntegratorT<N>& core, State& own, std::uint64_t n, std::uint64_t& taken,
                            Refusal& refusal) {
  return inBatches(n, taken, [&](std::uint64_t k) { return chainBatch(core, own, k, taken, refusal); });
}

template <int N>
bool Simulation::chainBatch(ChainMultiplierIntegratorT<N>& core, State& own, std::uint64_t n, std::uint64_t& taken,
                            Refusal& refusal) {
  // stepOnce's stages, each step's in the chain's loop: the step writes the new state into
  // the integrator's own and into next_ as stepAndStore does, then checkAndCommit as there.
  bool rejected = false;
  std::uint64_t accepted = 0;
  const StepOutcome o = core.steps(
      own.q, own.p, next_, n, [&](int iterations) __attribute__((always_inline)) {
        if (!checkAndCommit<N>(iterations, refusal)) {
          rejected = true;
          return false;
        }
        ++accepted;
        return true;
      });
  taken += accepted;
  if (!o.ok) return refuseStep(o.refusal, refusal);
  return !rejected;
}

bool Simulation::lagrangianBatch(LagrangianDel& core, State& own, std::uint64_t n, std::uint64_t& taken,
                                 Refusal& refusal) {
  // stepOnce with CanonicalIntegrator's setTime, step and store written out.
  for (std::uint64_t i = 0; i < n; ++i) {
    core.setTime(time_);
    const StepOutcome o = core.step(own.q, own.p);
    if (!o.ok) return refuseStep(o.refusal, refusal);
    next_.q = own.q;
    next_.p = own.p;
    if (!checkAndCommit<0>(o.iterations, refusal)) return false;
    ++taken;
  }
  return true;
}

bool Simulation::takeSteps(std::uint64_t n, std::uint64_t& taken, Refusal& refusal) {
  taken = 0;
  if (kDataDefinedInThisBuild) {  // the lean module leaves the DEL's loop out
    const LagrangianSteps data = integrator_->lagrangianSteps();
    if (data.core)
      return inBatches(n, taken,
                       [&](std::uint64_t k) { return lagrangianBatch(*data.core, *data.state, k, taken, refusal); });
  }
  // A fixed-step chain of 1–3 bobs whose step reads no clock and keeps its positions on
  // the manifold: its steps in its own loop.
  if (earlyChainAccept_ && !readsTime_ && scenario_.integrator->stateRules.positionsOnManifold) {
    FixedChainSteps chain = integrator_->fixedChainSteps();
    if (auto* core = std::get_if<ChainMultiplierIntegratorT<1>*>(&chain.core))
      return chainSteps(**core, *chain.state, n, taken, refusal);
    if (auto* core = std::get_if<ChainMultiplierIntegratorT<2>*>(&chain.core))
      return chainSteps(**core, *chain.state, n, taken, refusal);
    if (auto* core = std::get_if<ChainMultiplierIntegratorT<3>*>(&chain.core))
      return chainSteps(**core, *chain.state, n, taken, refusal);
  }
  for (; taken < n; ++taken)
    if (!stepOnce(refusal)) return false;
  return true;
}

bool Simulation::checkModelStep(int iterations, Refusal& refusal) {
  return onModel(scenario_.model, [&](const auto& m) { return checkStep(m, iterations, refusal); });
}

bool Simulation::refuseStep(const Refusal& why, Refusal& refusal) const {
  refusal = why;
  measureAdvice(refusal);
  return false;
}

bool Simulation::rejectStep(Refusal& refusal) {
  integrator_->load(state_);  // back to the last good step
  measureAdvice(refusal);
  return false;
}

template <int Bobs>
void Simulation::commitStep(int iterations) {
  swap(state_, next_);
  // store() may read the previous state (quaternion sign): next_ then needs it; a
  // store that overwrites whatever it is given does not.
  if (!storeOverwrites_) next_ = state_;
  iterations_ = iterations;
  ++step_;
  // A fixed step's clock is step × h (no rounding accumulates); a variable one sums.
  if (Bobs == 0 && scenario_.integrator->variableStep) {
    lastDt_ = integrator_->lastStep();
    time_ += lastDt_;
  } else {
    time_ = static_cast<double>(step_) * scenario_.h;
  }
  // Records every stride-th step (step_ % stride == 0), counted down: no division.
  if (--untilRecord_ == 0) {
    untilRecord_ = history_.stride();
    if (rowFilled_)
      recordRow();
    else
      recordChainSample<Bobs>(std::get<ChainModel>(scenario_.model));
  }
}

template <int Bobs>
void Simulation::recordChainSample(const ChainModel& m) {
  // ChainModel::diagnosticsInto's numbers in writeRow's columns (a fixed step: no dt),
  // written in place: the energy is the one the step's checks computed; the constraint
  // is finished on read from |d_i|² (a short chain) or formed from the link lengths the
  // energy computed.
  double* cell = history_.cell();
  const std::size_t column = history_.columnStride();
  cell[0] = time_;
  cell[column] = energy_;
  cell[3 * column] = iterations_;
  const double* q = state_.q.data();
  double* raw = cell + history_.columnCount() * column;
  if constexpr (Bobs > 0) {
    shortChainSample<Bobs>(q, state_.p.data(), m.planar, cell + 4 * column, raw, column, squaredLinks_.data());
    history_.commit();
    return;
  }
  switch (history_.rawCount()) {
    case 1: shortChainSample<1>(q, state_.p.data(), m.planar, cell + 4 * column, raw, column); break;
    case 2: shortChainSample<2>(q, state_.p.data(), m.planar, cell + 4 * column, raw, column); break;
    case 3: shortChainSample<3>(q, state_.p.data(), m.planar, cell + 4 * column, raw, column); break;
    default:
      cell[2 * column] = m.linkLengthErrorOf(linkNorms_.data(), q);
      if (!m.planar) cell[4 * column] = m.verticalMomentum(state_);
  }
  history_.commit();
}

void Simulation::recordRow() {
  if (history_.rawCount() > 0) squaredLinkLengths(state_.q.data(), history_.rawCount(), rawRow_.data());
  history_.record(row_.data(), rawRow_.data());
}

void Simulation::measureAdvice(Refusal& refusal) const {
  // Measured on systems defined by data with an implicit integrator: there the equations
  // may have no root for any h (the motion leaves L's domain). The built-in systems keep
  // "reduce h" (their largest h is measured per pair), and so do the explicit baselines.
  if (!kDataDefinedInThisBuild || refusal.action != SuggestionAction::ReduceH || scenario_.integrator->variableStep ||
      scenario_.integrator->family == IntegratorFamily::Baseline ||
      !std::holds_alternative<LagrangianModel>(scenario_.model))
    return;
  const double half = 0.5 * scenario_.h;
  std::unique_ptr<Integrator> trial;
  try {
    trial = scenario_.pairing->make(scenario_.model, scenario_.options, half);
  } catch (const std::exception&) {
    return;  // no integrator at h/2 to measure with: the advice stays
  }
  trial->load(state_);
  State s = state_;
  std::string why;
  for (int k = 0; k < 2 && why.empty(); ++k) {
    trial->setTime(time_ + k * half);
    const StepOutcome o = trial->step();
    if (!o.ok) {
      why = o.refusal.reason;
      break;
    }
    trial->store(s);
    if (!s.q.allFinite() || !s.p.allFinite() || !std::isfinite(energyOf(s)))
      why = onModel(scenario_.model, [&](const auto& m) { return undefinedState(m, s); });
  }
  if (why.empty()) return;  // two steps of h/2 succeed: "reduce h" is the measured advice
  refusal.action = SuggestionAction::ChangeScenario;
  refusal.suggestion = "a smaller h does not help (two steps of h/2 from step " + std::to_string(step_) +
                       " are refused too: " + why + "); change the initial state or the system";
}

template <class M>
bool Simulation::checkStep(const M& m, int iterations, Refusal& refusal) {
  // Every step is checked the same way, whatever the integrator: a state or energy
  // that is not finite never leaves the core, and a step the model finds implausible
  // (plausibleStep: a spurious root of the implicit equations, or an unresolved step)
  // is refused. Each quantity is computed once.
  const bool variable = scenario_.integrator->variableStep;
  const double h = variable ? integrator_->lastStep() : scenario_.h;
  const double dt = variable ? integrator_->lastStep() : lastDt_;
  const double tNext = variable ? time_ + dt : static_cast<double>(step_ + 1) * scenario_.h;
  // A chain's row is filled only for a recorded step: an unrecorded one whose row is surely
  // representable skips it (chainRowSurelyRepresentable below). The steps that are surely
  // accepted never come here (stepOnce's early accept).
  constexpr bool lazyRow = std::is_same<M, ChainModel>::value;
  const bool recorded = untilRecord_ == 1;
  // A system defined by data whose row has bounds (LagrangianModel::rowSurelyRepresentable)
  // forms the energy alone for an unrecorded fixed step: the rest of its row and its
  // drawing only when the bounds cannot vouch for them.
  bool lazyData = false;
  if constexpr (std::is_same<M, LagrangianModel>::value) lazyData = !recorded && !variable && m.problem->rowBounded;
  Diagnostics& d = stepDiagnostics_;
  double energy;
  bool bounded = false;
  // The natural variables must be defined too: a penalty link collapsed onto the bob
  // above it has no angles (for a fixed step, checked already by stepOnce).
  if constexpr (std::is_same<M, ChainModel>::value) {
    if (variable && !scenario_.integrator->stateRules.positionsOnManifold &&
        !refuseUndrawable(m, next_, tNext, refusal))
      return false;
  }
  if constexpr (kDiagnosticsInPlace<M> && !lazyRow) {
    m.diagnosticsInto(next_, d);
    energy = d.energy;
  } else if constexpr (kDiagnosticsBoundState<M>) {
    d = m.diagnostics(next_, bounded);
    energy = d.energy;
  } else if (diagnosticsCarryEnergy(m)) {
    if constexpr (std::is_same<M, LagrangianModel>::value) {
      if (lazyData) {
        energy = m.diagnosticsEnergy(next_, tNext);
      } else {
        diagnosticsInto(m, next_, tNext, d);
        energy = d.energy;
      }
    } else {
      diagnosticsInto(m, next_, tNext, d);
      energy = d.energy;
    }
  } else {
    energy = m.energy(next_);  // the function diagnostics() uses: the same bits
  }
  // Almost always the one pass decides both state checks; else they run one by one.
  if constexpr (!kDiagnosticsBoundState<M>) bounded = withinMagnitude(next_);
  const bool finite = (bounded || (next_.q.allFinite() && next_.p.allFinite())) && std::isfinite(energy);
  if constexpr (std::is_same<M, MechanismModel>::value) {
    // A finite state whose energy is not: V(x, R, t) is not defined at the step's time,
    // and no smaller h reaches past it.
    if (!std::isfinite(energy) && next_.q.allFinite() && next_.p.allFinite()) {
      refusal = Refusal::of(
          RefusalCode::NonFinite,
          "the potential is not finite at t = " + formatNumber(tNext) + " (energy = " + formatNumber(energy) + ")",
          Suggestion::changeScenario("change the potential, or end the run before that time"));
      return false;
    }
  }
  if (!finite) {
    refusal = Refusal::of(RefusalCode::NonFinite, undefinedState(m, next_), Suggestion::reduceH());
    return false;
  }
  std::string why;
  if (!plausibleStep(m, state_, next_, energy_, energy, h, why)) {
    refusal = Refusal::of(RefusalCode::SpuriousRoot, why, Suggestion::reduceH());
    return false;
  }
  // Every number that leaves the core (state, diagnostics, history, CSV) is finite and
  // within ±kMaxMagnitude, so that the sums and squares readers form stay finite too.
  if constexpr (lazyRow) {
    if (!recorded && chainRowSurelyRepresentable(next_, energy)) {
      energy_ = energy;
      return true;
    }
    m.diagnosticsInto(next_, d);
  } else if constexpr (std::is_same<M, LagrangianModel>::value) {
    if (lazyData && bounded && m.rowSurelyRepresentable(next_, tNext, energy)) {
      energy_ = energy;
      return true;
    }
    if (lazyData || !diagnosticsCarryEnergy(m)) diagnosticsInto(m, next_, tNext, d);
  } else if constexpr (!kDiagnosticsInPlace<M>) {
    if (!diagnosticsCarryEnergy(m)) diagnosticsInto(m, next_, tNext, d);
  }
  d.iterations = iterations;
  fillRow(d, tNext, dt);
  rowFilled_ = true;
  if (bounded ? anyOverflow(row_) : anyOverflow(next_, row_)) {
    refusal =
        Refusal::of(RefusalCode::NonFinite,
                    "the new state overflows (" + firstOverflow(next_, row_, history_.columns()) + ", beyond ±1e300)",
                    Suggestion::reduceH());
    return false;
  }
  // What is drawn must be finite too: a body's position expression outside its domain.
  if constexpr (std::is_same<M, LagrangianModel>::value) {
    if (!refuseUndrawable(m, next_, tNext, refusal)) return false;
  }
  energy_ = energy;
  return true;
}

void Simulation::advance(std::uint64_t n) {
  Refusal refusal;
  std::uint64_t taken;
  if (!takeSteps(n, taken, refusal)) throw StepFailure(step_ + 1, refusal, taken);
}

AdvanceProgress Simulation::advanceFor(std::uint64_t maxSteps, double budgetMs) {
  if (!(budgetMs >= limits::kMinBudgetMs && budgetMs <= limits::kMaxBudgetMs))
    throw InputError(InputErrorCode::Range, "budgetMs",
                     "must be a number in [0.1, 60000], got " + formatNumber(budgetMs));
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  AdvanceProgress progress;
  std::uint64_t chunk = 1;
  Refusal refusal;
  while (progress.steps < maxSteps) {
    const std::uint64_t todo = std::min(chunk, maxSteps - progress.steps);
    std::uint64_t taken;
    const bool ok = takeSteps(todo, taken, refusal);
    progress.steps += taken;
    if (!ok) throw StepFailure(step_ + 1, refusal, progress.steps);
    const double elapsed = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (elapsed >= budgetMs) break;
    // Next chunk: about 1 ms of steps at the measured rate (at least 1, at most 1e6).
    const double perStep = elapsed / static_cast<double>(progress.steps);
    chunk = perStep > 0 ? static_cast<std::uint64_t>(std::max(1.0, std::min(1e6, 1.0 / perStep))) : chunk * 2;
  }
  progress.done = progress.steps == maxSteps;
  return progress;
}

namespace {
// A history row (Simulation's columns) of diagnostics d at time t; dt: the last step.
void writeRow(const Diagnostics& d, double t, double dt, bool variableStep, double* row) {
  std::size_t c = 0;
  row[c++] = t;
  row[c++] = d.energy;
  row[c++] = d.constraint;
  row[c++] = d.iterations;
  for (int i = 0; i < d.momentumSize; ++i) row[c++] = d.momentum[i];
  for (int i = 0; i < d.conservedSize; ++i) row[c++] = d.conserved[i];
  if (d.hasBodyMomentum)
    for (int i = 0; i < 3; ++i) row[c++] = d.bodyMomentum[i];
  if (variableStep) row[c++] = dt;
}
}  // namespace

void Simulation::fillRow(const Diagnostics& d, double t, double dt) {
  writeRow(d, t, dt, scenario_.integrator->variableStep, row_.data());
}

void Simulation::diagnosticsRow(std::vector<double>& out) const {
  out.resize(static_cast<std::size_t>(history_.columnCount()));
  writeRow(diagnostics(), time_, lastDt_, scenario_.integrator->variableStep, out.data());
}

Eigen::MatrixXd Simulation::linearize() {
  const IntegratorEntry& integrator = *scenario_.integrator;
  if (!integrator.linearizesOn(scenario_.system->model))
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "'" + integrator.id + "' does not give the Jacobian of its step on '" + scenario_.system->id +
                         "' (the registry's `linearizes` lists where it does)");
  Eigen::MatrixXd jacobian;
  std::string why;
  // A chain's multiplier steps (midpoint, trapezoid, RATTLE: one map for uniform gravity)
  // are differentiated from the model's constraints, about the step a fresh copy takes,
  // and written in a symplectic basis of the tangent space of T*N (chain_linearization.hpp).
  if (const auto* chain = std::get_if<ChainModel>(&scenario_.model)) {
    auto work = makeIntegrator(scenario_);
    work->load(state_);
    work->setTime(time_);
    const StepOutcome out = work->step();
    State next = state_;
    if (out.ok) work->store(next);
    Eigen::MatrixXd ambient;
    if (!out.ok) why = "the step from this state is refused: " + out.refusal.reason;
    if (out.ok && chainStepJacobian(*chain, scenario_.h, state_, next, ambient, why))
      return chainTangentCoordinates(chainTangentBasis(*chain, next), ambient * chainTangentBasis(*chain, state_));
    throw InputError(InputErrorCode::Invalid, "state",
                     "no Jacobian of the step at step " + std::to_string(step_) + ": " + why);
  }
  integrator_->setTime(time_);
  if (!integrator_->linearize(jacobian, why))
    throw InputError(InputErrorCode::Invalid, "state",
                     "no Jacobian of the step at step " + std::to_string(step_) + ": " + why);
  return jacobian;
}

std::vector<double> Simulation::multisymplecticResiduals(std::string& law) {
  std::vector<double> perNode;
  std::string why;
  integrator_->setTime(time_);
  if (!integrator_->multisymplecticResiduals(perNode, law, why))
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "'" + scenario_.integrator->id + "' gives no multisymplectic residual on '" +
                         scenario_.system->id + "': " + why);
  return perNode;
}

void Simulation::setState(const State& s) {
  State checked = s;
  const auto size = [](const VecX& a, Eigen::Index n, const char* field) {
    if (a.size() != n)
      throw InputError(InputErrorCode::Length, field,
                       "expected " + std::to_string(n) + " numbers, got " + std::to_string(a.size()));
    for (Eigen::Index i = 0; i < a.size(); ++i)
      if (!std::isfinite(a[i]))
        throw InputError(InputErrorCode::Range, std::string(field) + "[" + std::to_string(i) + "]", "must be finite");
  };
  size(checked.q, state_.q.size(), "q");
  size(checked.p, state_.p.size(), "p");
  onModel(scenario_.model, [&](const auto& m) { checkMagnitudes(m, checked); });
  onModel(scenario_.model, [&](const auto& m) { m.project(checked, scenario_.integrator->stateRules, "q", "p"); });
  const double energy = energyOf(checked);
  if (!std::isfinite(energy)) throw InputError(InputErrorCode::Range, "p", "the state's energy is not finite");
  // Its diagnostics must be as representable as a step's (a conserved quantity of a
  // definition may not be finite there).
  Diagnostics d = onModel(scenario_.model, [&](const auto& m) { return diagnosticsOf(m, checked, 0.0); });
  d.iterations = 0;
  fillRow(d, 0.0, 0.0);
  const std::string overflow = firstOverflow(checked, row_, history_.columns());
  if (!overflow.empty())
    throw InputError(InputErrorCode::Range, "state", "its " + overflow + " is not finite or beyond ±1e300");
  checkDrawable(checked, 0.0, false);
  integrator_->load(checked);
  state_ = checked;
  next_ = state_;
  energy_ = energy;
  iterations_ = 0;
  step_ = 0;
  time_ = 0;
  lastDt_ = 0;
  untilRecord_ = history_.stride();
  history_.clear();
  recordRow();
}

void Simulation::checkDrawable(const State& s, double t, bool initial) const {
  static thread_local std::vector<double> scratch;
  const bool offManifold = !scenario_.integrator->stateRules.positionsOnManifold;
  const std::string why =
      onModel(scenario_.model, [&](const auto& m) { return undrawable(m, s, t, offManifold, scratch); });
  if (why.empty()) return;
  const std::string where = initial ? "the initial state" : "this state";
  // At the start a body's position names its expression's field ("log(x) is NaN at …").
  const std::size_t eq = why.find(" = ");
  if (initial && why.rfind("bodies[", 0) == 0 && eq != std::string::npos)
    throw InputError(InputErrorCode::Range, "params." + why.substr(0, eq), why.substr(eq + 3) + " at " + where);
  throw InputError(InputErrorCode::Range, initial ? "initial" : "q", why + " at " + where);
}

std::string Simulation::hash() const { return stateHash(state_.q, state_.p, step_); }

}  // namespace vilab
