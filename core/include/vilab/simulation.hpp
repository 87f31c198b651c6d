// A simulation: a parsed scenario, its integrator, the canonical state, the clock
// and a history of diagnostics recorded in C++ at a chosen stride (so plots never
// need one JS call per step).
//
// Stepping is exact: advance(n) takes n steps or throws StepFailure at the first
// refused step, with the state kept at the last good step. advanceFor() is the one
// bounded call for interactive use (a frame's time budget).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "vilab/limits.hpp"
#include "vilab/scenario.hpp"

namespace vilab {

// A refused step: the state stays at the last good step.
// message() is the whole text with its length (as InputError's).
class StepFailure : public std::runtime_error {
 public:
  StepFailure(std::uint64_t step, Refusal refusal, std::uint64_t stepsTaken)
      : StepFailure(step, refusal, stepsTaken, messageOf(step, refusal)) {}
  const std::string& message() const { return message_; }
  std::uint64_t step() const { return step_; }
  const Refusal& refusal() const { return refusal_; }
  // The longest call name a binding puts before the message ("advanceFor: "): with it, the
  // message stays within limits::kMaxMessageBytes.
  static constexpr std::size_t kCallRoom = 12;
  // Steps the failing call took before the refused one.
  std::uint64_t stepsTaken() const { return stepsTaken_; }

 private:
  // "step k refused: <reason>; <suggestion> (the state stays at step k − 1)", the reason cut
  // (with an ellipsis) where the whole would pass its bound, so that the step numbers stay.
  static std::string messageOf(std::uint64_t step, const Refusal& refusal) {
    constexpr std::size_t room = limits::kMaxMessageBytes - kCallRoom;
    const std::string head = "step " + std::to_string(step) + " refused: ";
    const std::string tail = "; " + refusal.suggestion + " (the state stays at step " + std::to_string(step - 1) + ")";
    const std::size_t left = head.size() + tail.size() < room ? room - (head.size() + tail.size()) : 0;
    return boundedMessage(head + boundedMessage(refusal.reason, left) + tail, room);
  }
  StepFailure(std::uint64_t step, const Refusal& refusal, std::uint64_t stepsTaken, std::string message)
      : std::runtime_error(message),
        message_(std::move(message)),
        step_(step),
        refusal_(refusal),
        stepsTaken_(stepsTaken) {}
  std::string message_;
  std::uint64_t step_;
  Refusal refusal_;
  std::uint64_t stepsTaken_;
};

// Diagnostic time series in a ring buffer: columns t, energy, constraint,
// iterations, then the momentum components, then Π (rigid bodies), then the step
// size dt (variable-step integrators). Stored in blocks of kBlockRows rows (the last
// one holds the rest of the capacity), each block by column, so that a step writes its
// numbers in place (cell(), then commit()) and a read copies whole runs of a column.
// A block is allocated when the ring first reaches it and kept: the storage grows on
// demand (many short-lived simulations stay small) and nothing is ever copied. A
// finished history's blocks serve the next ones on the same thread (a few MB at most),
// so that a new ring writes to pages already touched.
//
// A column may be finished on read: a short chain's constraint column is then
// max_i | √r_i − l_i | of raw columns r_i (the squared link lengths |d_i|², stored after
// the named ones), ChainModel::linkLengthError's operations in its order, so the same
// bits, with the square roots taken when the samples are read instead of every step.
class History {
 public:
  // Rows per block (the last block of the ring may hold fewer).
  static constexpr std::size_t kBlockRows = 1024;
  History() = default;
  History(History&&) = default;
  History& operator=(History&&) = default;
  ~History();
  void configure(std::vector<std::string> columns, int stride, int capacity);
  // Column `column` is finished on read from lengths.size() raw columns (after configure).
  void deferLinkLengthError(int column, std::vector<double> lengths);
  // Raw columns stored after the named ones (each sample writes them).
  int rawCount() const { return static_cast<int>(linkLengths_.size()); }
  // A sample: the named columns' numbers, and the raw columns' (rawCount() of them).
  void record(const double* row, const double* raw = nullptr);
  // The next sample, written in place: column c's cell is cell()[c * columnStride()]
  // (raw column r's at c = columnCount() + r); commit() then counts it.
  double* cell() {
    if (next_ == end_) nextBlock();
    return next_;
  }
  std::size_t columnStride() const { return blockRows_; }
  void commit() {
    ++next_;
    ++total_;
  }
  int stride() const { return stride_; }
  int capacity() const { return capacity_; }
  int columnCount() const { return static_cast<int>(columns_.size()); }
  const std::vector<std::string>& columns() const { return columns_; }
  // Samples recorded since the start (monotone), and the oldest still held.
  std::uint64_t total() const { return total_; }
  std::uint64_t oldest() const { return total_ > static_cast<std::uint64_t>(capacity_) ? total_ - capacity_ : 0; }
  // Copies samples [from, total) (clamped to what is held) column-major into out;
  // returns the first sample index copied.
  std::uint64_t read(std::uint64_t from, std::vector<double>& out, std::uint64_t& count) const;
  // Forgets every sample (the blocks stay allocated).
  void clear() { total_ = 0, next_ = end_ = nullptr; }

 private:
  // The block after the current one (the first after clear(), and after the ring's last
  // block), allocated when first reached. Its new rows are not zeroed (every sample
  // writes them before it is read).
  void nextBlock();
  // Rows per column of block b.
  std::size_t rowsOf(std::size_t b) const {
    return std::min(kBlockRows, static_cast<std::size_t>(capacity_) - b * kBlockRows);
  }
  // Column deferred_ as max_i |√r_i − l_i| over the raw columns of a block of `rows` rows
  // per column, its rows [from, from + count) into out.
  void finishLinkLengthError(const double* block, std::size_t rows, std::size_t from, std::size_t count,
                             double* out) const;
  std::size_t width() const { return columns_.size() + linkLengths_.size(); }
  // Gives the blocks back and drops the samples (the row's width changed).
  void reset();
  std::vector<std::string> columns_;
  int stride_ = 1, capacity_ = 0;
  int deferred_ = -1;                // the column finished on read, or −1
  std::vector<double> linkLengths_;  // its l_i, one raw column each
  // Block b holds the ring's rows [b · kBlockRows, b · kBlockRows + rowsOf(b)); its
  // column c at [c · rowsOf(b), (c + 1) · rowsOf(b)).
  std::vector<std::unique_ptr<double[]>> blocks_;
  std::size_t block_ = 0;      // the block the next sample goes to
  std::size_t blockRows_ = 0;  // rowsOf(block_)
  double* next_ = nullptr;     // the next sample's cell in column 0 (null after clear())
  double* end_ = nullptr;      // the end of block_'s column 0
  std::uint64_t total_ = 0;
};

// What chainEnergy's bound needs of a chain, formed once: 1/m_i and 1/l_i, and whether
// its masses keep the elimination's pivots above their floors (simulation.cpp derives it).
// Also what a fixed-size chain step's one-pass check would otherwise form every step, each
// as ChainModel forms it (the same bits): exactInverse(m_i), m_i g, the depth Σ_{j≤i} l_j,
// l_i²/4, Σ m_i, and the kinetic energy that bounds every |p_c| by 1e100.
struct ChainEnergyBound {
  ChainEnergyBound() = default;
  explicit ChainEnergyBound(const ChainModel& m);
  std::vector<double> inverseMass, inverseLength;
  std::vector<double> exactInverseMass, weight, depth, quarterSquaredLength;
  double totalMass = 0, momentumBound = -1;
  bool usable = false;
};

// ChainModel::energy(s, linkNorms), the same bits, without its square roots and divisions
// when a bound proves that the momenta's part along the links' length rates cannot change
// them (after a multiplier step's tangent projection: always, in practice); `shortcut`
// (tests) says whether the bound decided.
double chainEnergy(const ChainModel& m, const ChainEnergyBound& bound, const State& s, double* linkNorms = nullptr,
                   bool* shortcut = nullptr);

// The checks of a chain step that is not recorded, fused into one pass (a fixed step:
// invH = 1/h): true only when the finite, plausible and representable checks would all
// pass; `energy` is then ChainModel::energy(b), the same bits (chainEnergy). Otherwise the
// general checks decide. With linkNorms (bobs() of them), also the link lengths.
bool chainStepSurelyAccepted(const ChainModel& m, const ChainEnergyBound& bound, const State& a, const State& b,
                             double energyA, double invH, double energyScale, double& energy,
                             double* linkNorms = nullptr);

struct SimulationOptions {
  int historyStride = 1;
  int historyCapacity = limits::kDefaultHistoryCapacity;
};

// The result of a bounded advance.
struct AdvanceProgress {
  std::uint64_t steps = 0;  // steps taken by the call
  bool done = false;        // all the requested steps were taken
};

class Simulation {
 public:
  explicit Simulation(const Scenario& scenario, SimulationOptions options = {});

  // Takes exactly n steps, or throws StepFailure at the first refused one (the good
  // steps before it are kept).
  void advance(std::uint64_t n);
  // Takes up to maxSteps steps and returns once budgetMs of wall-clock time have
  // passed (checked about every millisecond). Throws StepFailure like advance().
  AdvanceProgress advanceFor(std::uint64_t maxSteps, double budgetMs);

  const Scenario& scenario() const { return scenario_; }
  std::uint64_t step() const { return step_; }
  // Step count × h, or for variable-step integrators the sum of their steps.
  double time() const { return time_; }
  const State& state() const { return state_; }
  const VecX& q() const { return state_.q; }
  const VecX& p() const { return state_.p; }
  Diagnostics diagnostics() const;
  void visualState(std::vector<double>& out) const;
  // Replaces the state: checked against the model's manifold (as the integrator's
  // rules ask) and projected onto it; the step count and history restart from zero.
  void setState(const State& s);
  std::string hash() const;
  const History& history() const { return history_; }
  // The current state's row of history().columns() (what a recorded step stores there),
  // from diagnostics() and time(): the same bits.
  void diagnosticsRow(std::vector<double>& out) const;
  // The Jacobian ∂(q_{k+1}, p_{k+1})/∂(q_k, p_k) of the next step at the current state,
  // 2n×2n in the canonical coordinates (q block first), from the integrator's own
  // derivatives; the run is unchanged. Throws InputError for an integrator that does not
  // declare it on this model (its registry entry's `linearizes`) or a state where it fails.
  Eigen::MatrixXd linearize();
  // Fields: the multisymplectic law's residual at each node over the next two steps (the
  // integrator's multisymplecticResiduals), and in `law` the discrete density it is stated
  // for. Throws InputError (field `integrator`) where the integrator has none.
  std::vector<double> multisymplecticResiduals(std::string& law);

 private:
  // Up to n steps: false, with the refusal, when one is refused (the state that of the
  // `taken` steps before it).
  bool takeSteps(std::uint64_t n, std::uint64_t& taken, Refusal& refusal);
  // One step; returns false with the refusal when it is refused (state unchanged).
  bool stepOnce(Refusal& refusal);
  // stepOnce's stages 2 and 3 for the step stored in next_ (its checks, then its commit);
  // Bobs > 0: a chain of that many bobs, fixed at compile time.
  template <int Bobs>
  bool checkAndCommit(int iterations, Refusal& refusal);
  // Up to n steps of a fixed-size chain in its own loop (FixedChainSteps), each checked
  // and committed as stepOnce does; takeSteps's result.
  template <int N>
  bool chainSteps(ChainMultiplierIntegratorT<N>& core, State& own, std::uint64_t n, std::uint64_t& taken,
                  Refusal& refusal);
  // chainSteps's batches: up to n steps in one loop, `taken` counting the accepted ones.
  template <int N>
  [[gnu::noinline]] bool chainBatch(ChainMultiplierIntegratorT<N>& core, State& own, std::uint64_t n,
                                    std::uint64_t& taken, Refusal& refusal);
  // Up to n steps of a system defined by data on its DEL (LagrangianSteps), each as
  // stepOnce takes, checks and commits it; takeSteps calls it in batches as chainSteps.
  [[gnu::noinline]] bool lagrangianBatch(LagrangianDel& core, State& own, std::uint64_t n, std::uint64_t& taken,
                                         Refusal& refusal);
  // stepOnce's ends: a step the integrator refused (its refusal, with measured advice)
  // and a step the checks rejected (the integrator back at the last good state), both
  // out of line; an accepted step's commit (stage 3).
  [[gnu::noinline, gnu::cold]] bool refuseStep(const Refusal& why, Refusal& refusal) const;
  [[gnu::noinline, gnu::cold]] bool rejectStep(Refusal& refusal);
  // Bobs > 0: a chain's own loop (a fixed h, and that many bobs fixed at compile time).
  template <int Bobs>
  [[gnu::always_inline]] inline void commitStep(int iterations);
  // A refused implicit step of a system defined by data that suggests a smaller h keeps
  // that advice only when it was measured to help: two steps of h/2 from the last good
  // state, taken by a fresh integrator and never committed. Otherwise it says that a
  // smaller h does not help, and why.
  void measureAdvice(Refusal& refusal) const;
  // The checks of a stored step next_ on model m (finite, plausible, representable);
  // fills the history row and sets energy_ when it is accepted.
  template <class M>
  bool checkStep(const M& m, int iterations, Refusal& refusal);
  // checkStep on the scenario's model, out of line: stepOnce stays small (every model's
  // checks inlined there made it 27 K lines of V8's x64 listing, and the chain's early accept
  // paid for that function's frame and spills in wasm).
  [[gnu::noinline]] bool checkModelStep(int iterations, Refusal& refusal);
  // The current state's history sample of a chain whose step left row_ unfilled (Bobs > 0:
  // that many bobs, fixed at compile time).
  template <int Bobs>
  void recordChainSample(const ChainModel& m);
  // The current state's history sample from row_ (and a short chain's squared link lengths).
  void recordRow();
  // The history row of diagnostics d at time t (dt: the step that ended there).
  void fillRow(const Diagnostics& d, double t, double dt);
  // Throws an InputError when what the state draws or its natural variables would not be
  // finite (a body's position, a collapsed penalty link), naming the body and expression.
  void checkDrawable(const State& s, double t, bool initial) const;
  double energyOf(const State& s) const;

  Scenario scenario_;
  std::unique_ptr<Integrator> integrator_;
  State state_, next_;
  double energy_ = 0;              // of state_
  double invH_ = 0;                // 1/h of a fixed step, formed once (the chains' step checks)
  double energyScale_ = 0;         // a chain's energyScale(), formed once
  std::vector<double> linkNorms_;  // a chain's link lengths as a recorded step's energy formed them
  std::vector<double> rawRow_;     // a short chain's squared link lengths (History's raw columns)
  // |d_i|² of the last step a chain's own loop accepted early, as its check formed them
  // (the recorded sample's raw columns).
  std::array<double, 3> squaredLinks_{};
  ChainEnergyBound chainBound_;  // a chain's, formed once (chainEnergy)
  // A chain with a fixed step: stepOnce accepts its step early when
  // chainStepSurelyAccepted; false for every other system.
  bool earlyChainAccept_ = false;
  // A conservative system defined by data with bounded rows and a fixed step: stepOnce
  // accepts an unrecorded step early when LagrangianModel::stepSurelyAccepted.
  bool earlyDataAccept_ = false;
  int iterations_ = 0;
  std::uint64_t step_ = 0;
  double time_ = 0;
  double lastDt_ = 0;             // the last step's size (variable-step integrators)
  bool storeOverwrites_ = false;  // the integrator's store() ignores the state it is given
  bool readsTime_ = true;         // the integrator's setTime does something (Integrator::readsTime)
  int untilRecord_ = 1;           // steps until the next history record
  History history_;
  std::vector<double> row_;
  bool rowFilled_ = true;        // row_ holds the last accepted step's row (else recordChainSample)
  Diagnostics stepDiagnostics_;  // reused by every step's checks
};

}  // namespace vilab
