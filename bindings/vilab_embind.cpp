// Embind bindings: thin. Heap views are returned as typed_memory_view and copied
// by the JS API at once (web/sim/vilab.js), so no view outlives a memory growth.
// Errors never cross as C++ exceptions: each call catches, stores a JSON error
// record {message, field?, step?, reason?}, and the JS API turns it into
// VilabError("vilab: ...").
#include <emscripten.h>
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "vilab/csv.hpp"
#include "vilab/simulation.hpp"

using emscripten::typed_memory_view;
using emscripten::val;

namespace {

// The JSON error record of an exception (what the JS API throws).
std::string errorRecord(const std::exception& e) {
  vilab::Json j = {{"message", e.what()}};
  if (const auto* input = dynamic_cast<const vilab::InputError*>(&e)) j["field"] = input->field();
  if (const auto* failure = dynamic_cast<const vilab::StepFailure*>(&e)) {
    j["step"] = static_cast<double>(failure->step());
    j["reason"] = failure->reason();
  }
  return j.dump();
}

std::string unknownErrorRecord() { return vilab::Json{{"message", "internal error (unknown exception)"}}.dump(); }

class WasmSimulation {
 public:
  WasmSimulation(const std::string& scenarioJson, int historyStride, int historyCapacity) {
    try {
      vilab::SimulationOptions options;
      options.historyStride = historyStride;
      options.historyCapacity = historyCapacity;
      sim_ = std::make_unique<vilab::Simulation>(vilab::parseScenario(scenarioJson), options);
    } catch (const std::exception& e) {
      error_ = errorRecord(e);
    } catch (...) {
      error_ = unknownErrorRecord();
    }
  }

  // "" when the last fallible call (constructor, advance) succeeded, else its error record.
  std::string error() const { return error_; }

  // Runs up to min(n, maxAdvance) steps in this one call, and stops early once
  // budgetMs of wall-clock time have passed (checked about every millisecond), so a
  // call never freezes a page. Returns the steps taken; when a step is refused,
  // error() holds the failure and the good steps before it are kept.
  double advance(double n, double budgetMs) {
    error_.clear();
    const double limit = std::min(std::floor(n), static_cast<double>(sim_->maxAdvance()));
    if (!(limit > 0)) return 0;
    const long todo = static_cast<long>(limit);
    const std::uint64_t start = sim_->step();
    const double t0 = emscripten_get_now();
    long done = 0, chunk = 1;
    try {
      while (done < todo) {
        done += sim_->advance(std::min(chunk, todo - done));
        const double elapsed = emscripten_get_now() - t0;
        if (elapsed >= budgetMs) break;
        // Next chunk: about 1 ms of steps, at the measured rate.
        const double perStep = elapsed / static_cast<double>(done);
        chunk = perStep > 0 ? static_cast<long>(std::max(1.0, std::min(1e6, 1.0 / perStep))) : chunk * 2;
      }
    } catch (const std::exception& e) {
      error_ = errorRecord(e);
    } catch (...) {
      error_ = unknownErrorRecord();
    }
    return static_cast<double>(sim_->step() - start);
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

  // Replaces (q, p) from JS arrays; "" on success, else the error record.
  std::string setState(const val& qIn, const val& pIn) {
    try {
      const auto qv = emscripten::convertJSArrayToNumberVector<double>(qIn);
      const auto pv = emscripten::convertJSArrayToNumberVector<double>(pIn);
      sim_->setState(Eigen::Map<const vilab::VecX>(qv.data(), static_cast<Eigen::Index>(qv.size())),
                     Eigen::Map<const vilab::VecX>(pv.data(), static_cast<Eigen::Index>(pv.size())));
      return "";
    } catch (const std::exception& e) {
      return errorRecord(e);
    } catch (...) {
      return unknownErrorRecord();
    }
  }

  std::string historyColumns() const {
    vilab::Json j = sim_->history().columns();
    return j.dump();
  }
  int historyStride() const { return sim_->history().stride(); }
  int historyCapacity() const { return sim_->history().capacity(); }
  double historyTotal() const { return static_cast<double>(sim_->history().total()); }
  double historyOldest() const { return static_cast<double>(sim_->history().oldest()); }
  // Copies samples [from, total) column-major into scratch; returns the view.
  // historyReadStart() then tells the first sample index copied.
  val historyRead(double from) {
    std::uint64_t count = 0;
    const std::uint64_t first = from > 0 ? static_cast<std::uint64_t>(from) : 0;
    readStart_ = static_cast<double>(sim_->history().read(first, scratch_, count));
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
// Exactly what the native `vilab registry` prints (without the final newline).
std::string registryText() { return vilab::registryJson().dump(2); }

// Validates a scenario: {"ok":true,"scenario":{normalized}} or {"ok":false,"error":{record}}.
std::string validateScenario(const std::string& json) {
  try {
    return vilab::Json{{"ok", true}, {"scenario", vilab::parseScenario(json).toJson()}}.dump();
  } catch (const std::exception& e) {
    return "{\"ok\":false,\"error\":" + errorRecord(e) + "}";
  } catch (...) {
    return "{\"ok\":false,\"error\":" + unknownErrorRecord() + "}";
  }
}

// Bytes currently allocated by malloc (dlmalloc's uordblks), for leak checks.
double heapUsed() { return static_cast<double>(static_cast<unsigned>(mallinfo().uordblks)); }

}  // namespace

EMSCRIPTEN_BINDINGS(vilab) {
  emscripten::function("registryJson", &registryJson);
  emscripten::function("registryText", &registryText);
  emscripten::function("validateScenario", &validateScenario);
  emscripten::function("heapUsed", &heapUsed);
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
      .function("historyOldest", &WasmSimulation::historyOldest)
      .function("historyRead", &WasmSimulation::historyRead)
      .function("historyReadStart", &WasmSimulation::historyReadStart)
      .function("csvHeader", &WasmSimulation::csvHeader)
      .function("csvRow", &WasmSimulation::csvRow);
}
