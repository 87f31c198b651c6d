// An integrator bound to a model: what a Simulation drives.
//
// Each integrator steps in its own coordinates (REBOUND's integrator-private state):
// Cartesian positions and momenta, angles, R ∈ SO(3), [q; v]. It loads them from the
// model's canonical State and stores them back (models/*.hpp say what the canonical
// state is). A step changes nothing when it is refused.
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "vilab/outcome.hpp"
#include "vilab/state.hpp"

namespace vilab {

template <int N>
class ChainMultiplierIntegratorT;

// A chain integrator with N = 1–3 bobs fixed at compile time and the state it steps in
// place: Simulation takes many of its steps in one loop, the step and the checks inlined
// in it (the step out of line behind a virtual call cost ≈ 10 % of it in wasm). Empty
// (monostate) for every other integrator.
struct FixedChainSteps {
  std::variant<std::monostate, ChainMultiplierIntegratorT<1>*, ChainMultiplierIntegratorT<2>*,
               ChainMultiplierIntegratorT<3>*>
      core;
  State* state = nullptr;
};

class LagrangianDel;

// A system defined by data stepped by its DEL (LagrangianDel) and the state it steps in
// place: Simulation takes its steps in one loop that calls the step directly, without
// the virtual step, store and setTime of each. Null for every other integrator.
struct LagrangianSteps {
  LagrangianDel* core = nullptr;
  State* state = nullptr;
};

class Integrator {
 public:
  virtual ~Integrator() = default;
  // Starts from a canonical state the model has validated and projected.
  virtual void load(const State& s) = 0;
  // One step of size h; on refusal the integrator's state is unchanged.
  virtual StepOutcome step() = 0;
  // One step, and when it succeeds the new state stored into `out` as store() stores it.
  // An integrator that writes `out` while it writes its own state overrides it: no copy,
  // and no wide reloads of values it has just stored narrowly (a load spanning two stores
  // is not forwarded from them: it waits until they retire).
  virtual StepOutcome stepAndStore(State& out) {
    StepOutcome o = step();
    if (o.ok) store(out);
    return o;
  }
  // The current state in canonical form. `s` holds the previously stored state, so
  // that representations with a sign ambiguity (q and −q) can stay continuous.
  virtual void store(State& s) const = 0;
  // Whether store() overwrites `s` without reading it (then the caller need not keep
  // the previous state there).
  virtual bool storeOverwrites() const { return false; }
  // The fixed-size chain core and state Simulation may step in one loop (FixedChainSteps).
  virtual FixedChainSteps fixedChainSteps() { return {}; }
  // The DEL of a system defined by data and the state it steps (LagrangianSteps).
  virtual LagrangianSteps lagrangianSteps() { return {}; }
  // The time t_k of the state the next step starts from (the Simulation's clock, set
  // before every step): integrators of time-dependent or forced systems read it.
  virtual void setTime(double) {}
  // Whether setTime does anything: the Simulation skips the call (an indirect one, every
  // step) where it does not. Overrides of setTime keep the default.
  virtual bool readsTime() const { return true; }
  // The time the last step advanced: variable-step integrators override it.
  virtual double lastStep() const { return 0; }
  // The Jacobian ∂(q_{k+1}, p_{k+1})/∂(q_k, p_k) of the next step from the loaded state,
  // in canonical coordinates (2n×2n, the q block first), from the step's own
  // derivatives; the state and every later step are unchanged. False with `why` (what
  // it cannot differentiate) for integrators without the capability.
  virtual bool linearize(Eigen::MatrixXd& jacobian, std::string& why) {
    (void)jacobian;
    why = "this integrator does not give the Jacobian of its step";
    return false;
  }
  // Fields: the residual of the local multisymplectic law (the discrete ∂_t ω + ∂_x κ = 0 of
  // Marsden, Patrick & Shkoller 1998, Thm 4.1) at each node, over the next two steps from
  // the loaded state, and the discrete density it is stated for; the run is unchanged.
  // False with `why` for integrators without it.
  virtual bool multisymplecticResiduals(std::vector<double>& perNode, std::string& law, std::string& why) {
    (void)perNode, (void)law;
    why = "this integrator steps no field's space-time mesh";
    return false;
  }
  // Called once a scenario is loaded: throws InputError when the method cannot run this
  // start at all (a state set later is stepped, and refused step by step).
  virtual void checkStart(const State&) {}
};

// Integrator options (α, μ, tol, …): numbers by name, validated against the
// integrator's ParamSpecs by the scenario parser.
class Options {
 public:
  void set(const std::string& name, double value) {
    for (auto& [n, v] : values_)
      if (n == name) {
        v = value;
        return;
      }
    values_.emplace_back(name, value);
  }
  double get(const std::string& name) const {
    for (const auto& [n, v] : values_)
      if (n == name) return v;
    throw std::out_of_range("vilab: integrator option " + name + " missing");
  }
  const std::vector<std::pair<std::string, double>>& values() const { return values_; }

 private:
  std::vector<std::pair<std::string, double>> values_;
};

template <class Core, class = void>
struct HasPrepare : std::false_type {};
template <class Core>
struct HasPrepare<Core, std::void_t<decltype(std::declval<Core&>().prepare(std::declval<State&>()))>> : std::true_type {
};

template <class Core, class = void>
struct HasLinearize : std::false_type {};
template <class Core>
struct HasLinearize<Core,
                    std::void_t<decltype(std::declval<const Core&>().linearize(
                        std::declval<const State&>(), std::declval<Eigen::MatrixXd&>(), std::declval<std::string&>()))>>
    : std::true_type {};

template <class Core, class = void>
struct HasStepAndCopy : std::false_type {};
template <class Core>
struct HasStepAndCopy<Core, std::void_t<decltype(std::declval<Core&>().step(
                                std::declval<VecX&>(), std::declval<VecX&>(), std::declval<State&>()))>>
    : std::true_type {};

template <class Core, class = void>
struct HasSetTime : std::false_type {};
template <class Core>
struct HasSetTime<Core, std::void_t<decltype(std::declval<Core&>().setTime(0.0))>> : std::true_type {};

// An integrator whose private coordinates are the canonical ones: Core provides
// StepOutcome step(VecX& q, VecX& p) and, optionally, step(q, p, State& copy) (the same
// step, the new state also written into copy), prepare(State&) run on load,
// setTime(double t_k) run before every step and
// bool linearize(const State&, Eigen::MatrixXd&, std::string& why) const (Integrator::linearize).
// CanonicalIntegrator's core and state. stepAndStore is overridden only where the core
// writes the copy itself; elsewhere Integrator's (step(), then store()) serves, so that
// no core's step is compiled twice (every copy is code in the page's first load).
template <class Core, bool = HasStepAndCopy<Core>::value>
class CanonicalBase : public Integrator {
 protected:
  explicit CanonicalBase(Core&& core) : core_(std::move(core)) {}
  Core core_;
  State s_;
};
template <class Core>
class CanonicalBase<Core, true> : public Integrator {
 public:
  StepOutcome stepAndStore(State& out) override { return core_.step(s_.q, s_.p, out); }
  FixedChainSteps fixedChainSteps() override {
    if constexpr (Core::kFixedBobs >= 1 && Core::kFixedBobs <= 3)
      return {&core_, &s_};
    else
      return {};
  }

 protected:
  explicit CanonicalBase(Core&& core) : core_(std::move(core)) {}
  Core core_;
  State s_;
};

template <class Core>
class CanonicalIntegrator final : public CanonicalBase<Core> {
  using CanonicalBase<Core>::core_;
  using CanonicalBase<Core>::s_;

 public:
  explicit CanonicalIntegrator(Core core) : CanonicalBase<Core>(std::move(core)) {}
  void load(const State& s) override {
    s_ = s;
    if constexpr (HasPrepare<Core>::value) core_.prepare(s_);
  }
  StepOutcome step() override { return core_.step(s_.q, s_.p); }
  void store(State& s) const override { s = s_; }
  bool storeOverwrites() const override { return true; }
  void setTime(double t) override {
    if constexpr (HasSetTime<Core>::value) core_.setTime(t);
  }
  bool readsTime() const override { return HasSetTime<Core>::value; }
  LagrangianSteps lagrangianSteps() override {
    if constexpr (std::is_same<Core, LagrangianDel>::value)
      return {&core_, &s_};
    else
      return {};
  }
  bool linearize(Eigen::MatrixXd& jacobian, std::string& why) override {
    if constexpr (HasLinearize<Core>::value)
      return core_.linearize(s_, jacobian, why);
    else
      return Integrator::linearize(jacobian, why);
  }
  Core& core() { return core_; }
};

}  // namespace vilab
