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
#include <stdexcept>
#include <string>

#include "vilab/csv.hpp"
#include "vilab/detmath.hpp"
#include "vilab/exact/free_rigid_body.hpp"
#include "vilab/simulation.hpp"

using emscripten::typed_memory_view;
using emscripten::val;

namespace {

// The JSON error record of the exception being handled (what the JS API throws); call
// it only inside a catch block. Dispatch by rethrowing rather than dynamic_cast: the
// wasm build has no RTTI (-fno-rtti, smaller), and catch clauses need none.
std::string currentErrorRecord() {
  try {
    throw;
  } catch (const vilab::InputError& e) {
    return vilab::Json{{"message", e.what()}, {"field", e.field()}}.dump();
  } catch (const vilab::StepFailure& e) {
    return vilab::Json{{"message", e.what()}, {"step", static_cast<double>(e.step())}, {"reason", e.reason()}}.dump();
  } catch (const std::exception& e) {
    return vilab::Json{{"message", e.what()}}.dump();
  } catch (...) {
    return vilab::Json{{"message", "internal error (unknown exception)"}}.dump();
  }
}

class WasmSimulation {
 public:
  WasmSimulation(const std::string& scenarioJson, int historyStride, int historyCapacity) {
    try {
      vilab::SimulationOptions options;
      options.historyStride = historyStride;
      options.historyCapacity = historyCapacity;
      sim_ = std::make_unique<vilab::Simulation>(vilab::parseScenario(scenarioJson), options);
    } catch (...) {
      error_ = currentErrorRecord();
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
    } catch (...) {
      error_ = currentErrorRecord();
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
    } catch (...) {
      return currentErrorRecord();
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

// The exact free rigid body (core: vilab::exact::FreeRigidBodyExact) for the page's
// "exact ghost". The JS API normalizes the scenario and passes the numbers: inertia
// [I1, I2, I3], orientation [w, x, y, z] (unit within 1e-9; normalized here exactly
// as the core's rigid-body system does), body ω [ω1, ω2, ω3].
class WasmExactRigidBody {
 public:
  WasmExactRigidBody(const val& inertia, const val& orientation, const val& omega) {
    try {
      const auto I = emscripten::convertJSArrayToNumberVector<double>(inertia);
      const auto q = emscripten::convertJSArrayToNumberVector<double>(orientation);
      const auto w = emscripten::convertJSArrayToNumberVector<double>(omega);
      if (I.size() != 3 || q.size() != 4 || w.size() != 3)
        throw std::invalid_argument("exact rigid body: expected 3 + 4 + 3 numbers");
      Eigen::Vector4d q0(q[0], q[1], q[2], q[3]);
      q0 /= vilab::dm::sqrt(q0.squaredNorm());  // as instantiateBody does
      exact_ = std::make_unique<vilab::exact::FreeRigidBodyExact>(Eigen::Vector3d(I[0], I[1], I[2]), q0,
                                                                   Eigen::Vector3d(w[0], w[1], w[2]));
    } catch (...) {
      error_ = currentErrorRecord();
    }
  }
  std::string error() const { return error_; }
  double period() const { return exact_->period(); }
  std::string branch() const {
    switch (exact_->branch()) {
      case vilab::exact::FrbBranch::max_axis: return "max-axis";
      case vilab::exact::FrbBranch::min_axis: return "min-axis";
      case vilab::exact::FrbBranch::separatrix: return "separatrix";
      case vilab::exact::FrbBranch::symmetric: return "symmetric";
      case vilab::exact::FrbBranch::spherical: return "spherical";
      case vilab::exact::FrbBranch::steady: return "steady";
    }
    return "unknown";
  }
  val Pi(double t) {
    const Eigen::Vector3d v = exact_->Pi(t);
    std::copy(v.data(), v.data() + 3, out_);
    return val(typed_memory_view(3, out_));
  }
  val orientation(double t) {
    const Eigen::Vector4d v = exact_->quaternion(t);
    std::copy(v.data(), v.data() + 4, out_);
    return val(typed_memory_view(4, out_));
  }

 private:
  std::unique_ptr<vilab::exact::FreeRigidBodyExact> exact_;
  std::string error_;
  double out_[4] = {0, 0, 0, 0};
};

std::string registryJson() { return vilab::registryJson().dump(); }
// Exactly what the native `vilab registry` prints (without the final newline).
std::string registryText() { return vilab::registryJson().dump(2); }

// Validates a scenario: {"ok":true,"scenario":{normalized}} or {"ok":false,"error":{record}}.
std::string validateScenario(const std::string& json) {
  try {
    return vilab::Json{{"ok", true}, {"scenario", vilab::parseScenario(json).toJson()}}.dump();
  } catch (...) {
    return "{\"ok\":false,\"error\":" + currentErrorRecord() + "}";
  }
}

// Bytes currently held by in-use malloc blocks, for leak checks. emmalloc's uordblks
// also counts the 8-byte header of every free region, which depends on how free space
// happens to be fragmented; subtract those so the figure returns exactly to its value
// once everything allocated since is freed.
double heapUsed() {
  const struct mallinfo info = mallinfo();
  const double freeRegions = static_cast<double>(info.ordblks) + static_cast<double>(info.smblks);
  return static_cast<double>(static_cast<unsigned>(info.uordblks)) - 8.0 * freeRegions;
}

}  // namespace

EMSCRIPTEN_BINDINGS(vilab) {
  emscripten::function("registryJson", &registryJson);
  emscripten::function("registryText", &registryText);
  emscripten::function("validateScenario", &validateScenario);
  emscripten::function("heapUsed", &heapUsed);
  emscripten::class_<WasmExactRigidBody>("ExactRigidBody")
      .constructor<val, val, val>()
      .function("error", &WasmExactRigidBody::error)
      .function("period", &WasmExactRigidBody::period)
      .function("branch", &WasmExactRigidBody::branch)
      .function("Pi", &WasmExactRigidBody::Pi)
      .function("orientation", &WasmExactRigidBody::orientation);
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
