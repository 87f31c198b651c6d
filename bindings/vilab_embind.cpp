// Embind bindings: thin. Heap views are returned as typed_memory_view and copied
// by the JS API at once (web/sim/vilab.js), so no view outlives a memory growth.
// Errors never cross as C++ exceptions: each call catches and stores the message,
// and the JS API turns it into Error("vilab: ...").
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>

#include "vilab/csv.hpp"
#include "vilab/simulation.hpp"

using emscripten::typed_memory_view;
using emscripten::val;

namespace {

class WasmSimulation {
 public:
  WasmSimulation(const std::string& scenarioJson, int historyStride, int historyCapacity) {
    try {
      vilab::SimulationOptions options;
      options.historyStride = historyStride;
      options.historyCapacity = historyCapacity;
      sim_ = std::make_unique<vilab::Simulation>(vilab::parseScenario(scenarioJson), options);
    } catch (const std::exception& e) {
      error_ = e.what();
    }
  }

  // "" when the last call succeeded, else its message.
  std::string error() const { return error_; }

  // Steps taken, or -1 when a step was refused (error() says which and why).
  double advance(double n) {
    error_.clear();
    try {
      return static_cast<double>(sim_->advance(static_cast<long>(n)));
    } catch (const std::exception& e) {
      error_ = e.what();
      return -1;
    }
  }
  double maxAdvance() const { return static_cast<double>(sim_->maxAdvance()); }
  double step() const { return static_cast<double>(sim_->step()); }
  double time() const { return sim_->time(); }
  std::string scenario() const { return sim_->scenario().toJson().dump(); }
  std::string hash() const { return sim_->hash(); }

  val q() const { return view(sim_->q()); }
  val p() const { return view(sim_->p()); }

  // [energy, constraint, iterations, momentumSize, m0, m1, m2, hasBody, Π0, Π1, Π2]
  val diagnostics() {
    const vilab::Diagnostics d = sim_->diagnostics();
    scratch_ = {d.energy,         d.constraint,   static_cast<double>(d.iterations),
                static_cast<double>(d.momentumSize), d.momentum[0], d.momentum[1],
                d.momentum[2],    d.hasBodyMomentum ? 1.0 : 0.0,  d.bodyMomentum[0],
                d.bodyMomentum[1], d.bodyMomentum[2]};
    return val(typed_memory_view(scratch_.size(), scratch_.data()));
  }

  val visualState() {
    sim_->visualState(scratch_);
    return val(typed_memory_view(scratch_.size(), scratch_.data()));
  }

  // Replaces (q, p) from the JS-provided heap copies; "" on success.
  std::string setState(const val& qIn, const val& pIn) {
    try {
      const auto qv = emscripten::convertJSArrayToNumberVector<double>(qIn);
      const auto pv = emscripten::convertJSArrayToNumberVector<double>(pIn);
      sim_->setState(Eigen::Map<const vilab::VecX>(qv.data(), static_cast<Eigen::Index>(qv.size())),
                     Eigen::Map<const vilab::VecX>(pv.data(), static_cast<Eigen::Index>(pv.size())));
      return "";
    } catch (const std::exception& e) {
      return e.what();
    }
  }

  std::string historyColumns() const {
    vilab::Json j = sim_->history().columns();
    return j.dump();
  }
  int historyStride() const { return sim_->history().stride(); }
  int historyCapacity() const { return sim_->history().capacity(); }
  double historyTotal() const { return static_cast<double>(sim_->history().total()); }
  // Copies samples [from, total) column-major into scratch; returns the view.
  // historyReadStart() then tells the first sample index copied.
  val historyRead(double from) {
    std::uint64_t count = 0;
    readStart_ = static_cast<double>(sim_->history().read(static_cast<std::uint64_t>(from), scratch_, count));
    return val(typed_memory_view(scratch_.size(), scratch_.data()));
  }
  double historyReadStart() const { return readStart_; }

  std::string csvHeader() const { return vilab::csvHeader(*sim_); }
  std::string csvRow() const { return vilab::csvRow(*sim_); }

 private:
  val view(const vilab::VecX& v) const { return val(typed_memory_view(static_cast<std::size_t>(v.size()), v.data())); }

  std::unique_ptr<vilab::Simulation> sim_;
  std::string error_;
  std::vector<double> scratch_;
  double readStart_ = 0;
};

std::string registryJson() { return vilab::registryJson().dump(); }

// Validates a scenario: {"ok":true,"scenario":{normalized}} or {"ok":false,"error":"..."}.
std::string validateScenario(const std::string& json) {
  try {
    return vilab::Json{{"ok", true}, {"scenario", vilab::parseScenario(json).toJson()}}.dump();
  } catch (const std::exception& e) {
    return vilab::Json{{"ok", false}, {"error", e.what()}}.dump();
  }
}

}  // namespace

EMSCRIPTEN_BINDINGS(vilab) {
  emscripten::function("registryJson", &registryJson);
  emscripten::function("validateScenario", &validateScenario);
  emscripten::class_<WasmSimulation>("Simulation")
      .constructor<std::string, int, int>()
      .function("error", &WasmSimulation::error)
      .function("advance", &WasmSimulation::advance)
      .function("maxAdvance", &WasmSimulation::maxAdvance)
      .function("step", &WasmSimulation::step)
      .function("time", &WasmSimulation::time)
      .function("scenario", &WasmSimulation::scenario)
      .function("hash", &WasmSimulation::hash)
      .function("q", &WasmSimulation::q)
      .function("p", &WasmSimulation::p)
      .function("diagnostics", &WasmSimulation::diagnostics)
      .function("visualState", &WasmSimulation::visualState)
      .function("setState", &WasmSimulation::setState)
      .function("historyColumns", &WasmSimulation::historyColumns)
      .function("historyStride", &WasmSimulation::historyStride)
      .function("historyCapacity", &WasmSimulation::historyCapacity)
      .function("historyTotal", &WasmSimulation::historyTotal)
      .function("historyRead", &WasmSimulation::historyRead)
      .function("historyReadStart", &WasmSimulation::historyReadStart)
      .function("csvHeader", &WasmSimulation::csvHeader)
      .function("csvRow", &WasmSimulation::csvRow);
}
