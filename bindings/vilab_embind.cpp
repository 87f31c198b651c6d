// Embind bindings: thin. Heap views are returned as typed_memory_view and copied by
// the JS API at once (web/sim/vilab.js), so no view outlives a memory growth.
// Errors never cross as C++ exceptions: each fallible call catches, keeps a record
// {message, field?, code, action?, step?, reason?, suggestion?, stepsTaken?} as a JS object,
// and the JS API throws it as VilabError("vilab: …"). Every record has a code (vocabulary.hpp:
// an input error's code, or a refused step's code and action). Diagnostics cross as named objects.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "vilab/csv.hpp"
#include "vilab/detmath.hpp"
#include "vilab/equations.hpp"
#include "vilab/exact/free_rigid_body.hpp"
#include "vilab/exact/oscillator.hpp"
#include "vilab/exact/pendulum.hpp"
#include "vilab/expr/parse.hpp"
#include "vilab/mjcf.hpp"
#include "vilab/models/field_cells.hpp"
#include "vilab/simulation.hpp"
#include "vilab/trajectory.hpp"

using emscripten::typed_memory_view;
using emscripten::val;

namespace {

// The record of the exception being handled; call it only inside a catch block.
// Dispatch by rethrowing: the wasm build has no RTTI, and catch clauses need none.
// `where` names the call for failures that carry no field (memory, internal errors).
// Every text is valid UTF-8 and bounded (vilab::boundedMessage), carried whole with its
// length (message(), never what(), a C string a NUL would cut), and nothing here
// throws: an exception escaping to JS would leak its object and reach the caller as a
// raw WebAssembly.Exception.
val currentErrorRecord(const char* where) {
  val r = val::object();
  const auto set = [&r](const char* key, const std::string& text) {
    try {
      r.set(key, vilab::boundedMessage(text));
    } catch (...) {
      r.set(key, std::string("internal error"));
    }
  };
  const auto setPlain = [&](vilab::InputErrorCode code, const std::string& problem) {
    set("message", std::string(where) + ": " + problem);
    set("field", where);
    r.set("code", std::string(vilab::idOf(code)));
  };
  try {
    throw;
  } catch (const vilab::expr::ExpressionError& e) {
    set("message", e.message());
    set("field", e.field());
    r.set("code", std::string(vilab::idOf(e.code())));
    r.set("column", e.column());
  } catch (const vilab::InputError& e) {
    set("message", e.message());
    set("field", e.field());
    r.set("code", std::string(vilab::idOf(e.code())));
  } catch (const vilab::StepFailure& e) {
    set("message", e.message());
    r.set("step", static_cast<double>(e.step()));
    r.set("code", std::string(vilab::refusalCodeName(e.refusal().code)));
    r.set("action", std::string(vilab::idOf(e.refusal().action)));
    set("reason", e.refusal().reason);
    set("suggestion", e.refusal().suggestion);
    r.set("stepsTaken", static_cast<double>(e.stepsTaken()));
  } catch (const std::bad_alloc&) {
    setPlain(vilab::InputErrorCode::OutOfMemory,
             "out of memory (the WebAssembly heap cannot grow further: dispose() simulations no longer needed, "
             "or use a smaller historyCapacity)");
  } catch (const vilab::Json::exception& e) {
    setPlain(vilab::InputErrorCode::Internal, std::string("internal error in JSON handling (") + e.what() + ")");
  } catch (const std::exception& e) {
    setPlain(vilab::InputErrorCode::Internal, std::string("internal error (") + e.what() + ")");
  } catch (...) {
    setPlain(vilab::InputErrorCode::Internal, "internal error (unknown exception)");
  }
  return r;
}

template <std::size_t K>
val arrayOf(const std::array<double, K>& a, int n) {
  val out = val::array();
  for (int i = 0; i < n; ++i) out.call<void>("push", a[i]);
  return out;
}

// JS numbers (from the API's validated Float64Arrays) to an Eigen vector.
vilab::VecX toVector(const val& array) {
  const auto v = emscripten::convertJSArrayToNumberVector<double>(array);
  return Eigen::Map<const vilab::VecX>(v.data(), static_cast<Eigen::Index>(v.size()));
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
      error_ = currentErrorRecord("simulate");
    }
  }

  // null when the last fallible call succeeded, else its error record.
  val error() const { return error_; }

  // Exactly n steps (one wasm call); on a refused step error() holds the failure and
  // the good steps before it are kept. Returns the steps taken.
  double advance(double n) {
    error_ = val::null();
    const std::uint64_t start = sim_->step();
    try {
      sim_->advance(static_cast<std::uint64_t>(n));
    } catch (...) {
      error_ = currentErrorRecord("advance");
    }
    return static_cast<double>(sim_->step() - start);
  }

  // At most maxSteps steps within budgetMs of wall-clock time. Returns the steps taken;
  // lastDone() tells whether all were taken.
  double advanceFor(double maxSteps, double budgetMs) {
    error_ = val::null();
    const std::uint64_t start = sim_->step();
    done_ = false;
    try {
      done_ = sim_->advanceFor(static_cast<std::uint64_t>(maxSteps), budgetMs).done;
    } catch (...) {
      error_ = currentErrorRecord("advanceFor");
    }
    return static_cast<double>(sim_->step() - start);
  }
  bool lastDone() const { return done_; }

  double step() const { return static_cast<double>(sim_->step()); }
  double time() const { return sim_->time(); }
  std::string scenario() const { return sim_->scenario().normalized; }
  std::string hash() const { return sim_->hash(); }

  val q() const { return view(sim_->q()); }
  val p() const { return view(sim_->p()); }

  // {energy, constraint, iterations, momentum: number[], bodyMomentum?: number[3]}
  val diagnostics() const {
    const vilab::Diagnostics d = sim_->diagnostics();
    val out = val::object();
    out.set("energy", d.energy);
    out.set("constraint", d.constraint);
    out.set("iterations", d.iterations);
    out.set("momentum", arrayOf(d.momentum, d.momentumSize));
    if (d.hasBodyMomentum) out.set("bodyMomentum", arrayOf(d.bodyMomentum, 3));
    if (d.conservedSize > 0) out.set("conserved", arrayOf(d.conserved, d.conservedSize));
    return out;
  }

  val visualState() {
    sim_->visualState(scratch_);
    return val(typed_memory_view(scratch_.size(), scratch_.data()));
  }

  // Replaces (q, p); null on success, else the error record.
  val setState(const val& qIn, const val& pIn) {
    try {
      vilab::State s;
      s.q = toVector(qIn);
      s.p = toVector(pIn);
      sim_->setState(s);
      return val::null();
    } catch (...) {
      return currentErrorRecord("setState");
    }
  }

  // The step's Jacobian, row-major (2n)², as a view of scratch_ (empty with error() set).
  val linearize() {
    error_ = val::null();
    try {
#ifdef VILAB_LEAN
      // The derivatives of every step (~38 KB gzip of the first load) serve the lessons'
      // stability sweeps, which run on the full module, never the first frame.
      throw vilab::NotInLeanBuild("linearize", "the step's Jacobian");
#else
      const Eigen::MatrixXd J = sim_->linearize();
      scratch_.resize(static_cast<std::size_t>(J.size()));
      Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> >(scratch_.data(), J.rows(),
                                                                                          J.cols()) = J;
#endif
    } catch (...) {
      scratch_.clear();
      error_ = currentErrorRecord("linearize");
    }
    return val(typed_memory_view(scratch_.size(), scratch_.data()));
  }

  // Fields: the multisymplectic law's residual per node, { law, nodes } with nodes a view
  // of scratch_ (empty with error() set).
  val multisymplecticResiduals() {
    error_ = val::null();
    val out = val::object();
    try {
#ifdef VILAB_LEAN
      throw vilab::NotInLeanBuild("lawResidual", "a field");
#else
      std::string law;
      scratch_ = sim_->multisymplecticResiduals(law);
      out.set("law", law);
#endif
    } catch (...) {
      scratch_.clear();
      error_ = currentErrorRecord("lawResidual");
    }
    out.set("nodes", val(typed_memory_view(scratch_.size(), scratch_.data())));
    return out;
  }

  // Fields: the cells' c², V'' and ρ (field_cells.hpp) one after another in scratch_, 3 ×
  // cells numbers (empty with error() set; the system `field` only).
  val fieldStiffness() {
    error_ = val::null();
    try {
#ifdef VILAB_LEAN
      throw vilab::NotInLeanBuild("fieldStiffness", "a field");
#else
      const auto* field = std::get_if<vilab::FieldModel>(&sim_->scenario().model);
      if (field == nullptr)
        throw vilab::InputError(vilab::InputErrorCode::NotApplicable, "system",
                                "is not a field: only a field has a stiffness per cell");
      const vilab::field::CellStiffness cells = vilab::field::cellStiffness(*field);
      scratch_ = cells.speed2;
      scratch_.insert(scratch_.end(), cells.curvature.begin(), cells.curvature.end());
      scratch_.insert(scratch_.end(), cells.inertia.begin(), cells.inertia.end());
#endif
    } catch (...) {
      scratch_.clear();
      error_ = currentErrorRecord("fieldStiffness");
    }
    return val(typed_memory_view(scratch_.size(), scratch_.data()));
  }

  val historyColumns() const {
    val out = val::array();
    for (const auto& c : sim_->history().columns()) out.call<void>("push", c);
    return out;
  }
  int historyStride() const { return sim_->history().stride(); }
  int historyCapacity() const { return sim_->history().capacity(); }
  double historyTotal() const { return static_cast<double>(sim_->history().total()); }
  double historyOldest() const { return static_cast<double>(sim_->history().oldest()); }
  // Copies samples [from, total) column-major into scratch; returns the view, or an
  // empty one with error() set. historyReadStart() then tells the first sample copied.
  // `from` is a whole number in [0, 2^53) (checked by the JS API; a larger one reads
  // nothing rather than wrapping).
  val historyRead(double from) {
    error_ = val::null();
    try {
      std::uint64_t count = 0;
      const std::uint64_t first = !(from > 0)                  ? 0
                                  : from >= 9007199254740992.0 ? std::numeric_limits<std::uint64_t>::max()
                                                               : static_cast<std::uint64_t>(from);
      readStart_ = static_cast<double>(sim_->history().read(first, scratch_, count));
    } catch (...) {
      scratch_.clear();
      error_ = currentErrorRecord("history.read");
    }
    return val(typed_memory_view(scratch_.size(), scratch_.data()));
  }
  double historyReadStart() const { return readStart_; }

  std::string csvHeader() const { return vilab::csvHeader(*sim_); }
  std::string csvRow() const { return vilab::csvRow(*sim_); }

 private:
  val view(const vilab::VecX& v) const { return val(typed_memory_view(static_cast<std::size_t>(v.size()), v.data())); }

  std::unique_ptr<vilab::Simulation> sim_;
  val error_ = val::null();
  bool done_ = false;
  std::vector<double> scratch_;
  double readStart_ = 0;
};

// An exact solution's values at t written to out[0..n) by f: a view of them, or an
// empty view with `error` set (t out of range, or a value that is not finite).
template <class F>
val evaluateExact(double t, double* out, std::size_t n, val& error, const char* where, F&& f) {
  error = val::null();
  try {
    // Beyond kMaxExactTime the phase t·rate has lost its digits (and the elliptic
    // argument reduction its range): refuse rather than return noise.
    if (!(std::abs(t) <= vilab::limits::kMaxExactTime))
      throw vilab::InputError(vilab::InputErrorCode::Range, "t",
                              "must be a finite number of seconds in [-1e9, 1e9], got " + vilab::formatNumber(t));
    f(t);
    for (std::size_t i = 0; i < n; ++i)
      if (!std::isfinite(out[i]))
        throw vilab::InputError(vilab::InputErrorCode::Range, "t",
                                "the exact solution is not finite at t = " + vilab::formatNumber(t));
    return val(typed_memory_view(n, out));
  } catch (...) {
    error = currentErrorRecord(where);
    return val(typed_memory_view(0, out));
  }
}

// The exact harmonic oscillator (core: vilab::exact::Oscillator) from m, k and the
// initial position and velocity.
class WasmExactOscillator {
 public:
  WasmExactOscillator(double mass, double stiffness, double x0, double v0) {
    try {
      exact_ = std::make_unique<vilab::exact::Oscillator>(mass, stiffness, x0, v0);
    } catch (...) {
      error_ = currentErrorRecord("exactOscillator");
    }
  }
  val error() const { return error_; }
  double period() const { return exact_->period(); }
  // [x(t), ẋ(t)]: a view of 2 numbers, or an empty one with error() set.
  val at(double t) {
    return evaluateExact(t, out_, 2, error_, "exactOscillator", [this](double s) {
      out_[0] = exact_->position(s);
      out_[1] = exact_->velocity(s);
    });
  }

 private:
  std::unique_ptr<vilab::exact::Oscillator> exact_;
  val error_ = val::null();
  double out_[2] = {0, 0};
};

// The exact free rigid body (core: vilab::exact::FreeRigidBodyExact) for the page's
// "exact ghost", from a normalized rigid-body scenario's inertia, orientation
// [w, x, y, z] (normalized here exactly as the core's rigid-body system does) and body ω.
class WasmExactRigidBody {
 public:
  WasmExactRigidBody(const val& inertia, const val& orientation, const val& omega) {
    try {
      const vilab::VecX I = toVector(inertia), q = toVector(orientation), w = toVector(omega);
      if (I.size() != 3 || q.size() != 4 || w.size() != 3)
        throw std::invalid_argument("exact rigid body: expected 3 + 4 + 3 numbers");
      Eigen::Vector4d q0 = q;
      q0 /= vilab::dm::sqrt(q0.squaredNorm());
      exact_ = std::make_unique<vilab::exact::FreeRigidBodyExact>(Eigen::Vector3d(I), q0, Eigen::Vector3d(w));
    } catch (...) {
      error_ = currentErrorRecord("exactRigidBody");
    }
  }
  val error() const { return error_; }
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
  // Π(t) and the orientation at t: a view of 3 or 4 numbers, or an empty one with
  // error() set (t out of range, or a value that is not finite).
  val Pi(double t) {
    return evaluate(t, 3, [this](double s) {
      const Eigen::Vector3d v = exact_->Pi(s);
      std::copy(v.data(), v.data() + 3, out_);
    });
  }
  val orientation(double t) {
    return evaluate(t, 4, [this](double s) {
      const Eigen::Vector4d v = exact_->quaternion(s);
      std::copy(v.data(), v.data() + 4, out_);
    });
  }

 private:
  template <class F>
  val evaluate(double t, std::size_t n, F&& f) {
    return evaluateExact(t, out_, n, error_, "exactRigidBody", std::forward<F>(f));
  }

  std::unique_ptr<vilab::exact::FreeRigidBodyExact> exact_;
  val error_ = val::null();
  double out_[4] = {0, 0, 0, 0};
};

// The exact planar pendulum (core: vilab::exact::Pendulum, Jacobi sn/cn/dn and am) for
// the studies' convergence references, from g, l and the initial angle and rate.
class WasmExactPendulum {
 public:
  WasmExactPendulum(double g, double l, double theta0, double omega0) {
    try {
      exact_ = std::make_unique<vilab::exact::Pendulum>(g, l, theta0, omega0);
    } catch (...) {
      error_ = currentErrorRecord("exactPendulum");
    }
  }
  val error() const { return error_; }
  double period() const { return exact_->period(); }
  double modulus() const { return exact_->modulus(); }
  std::string regime() const {
    switch (exact_->regime()) {
      case vilab::exact::PendulumRegime::libration: return "libration";
      case vilab::exact::PendulumRegime::separatrix: return "separatrix";
      case vilab::exact::PendulumRegime::rotation: return "rotation";
    }
    return "unknown";
  }
  // [θ(t), θ'(t)]: a view of 2 numbers, or an empty one with error() set.
  val at(double t) {
    return evaluateExact(t, out_, 2, error_, "exactPendulum", [this](double s) {
      out_[0] = exact_->theta(s);
      out_[1] = exact_->omega(s);
    });
  }

 private:
  std::unique_ptr<vilab::exact::Pendulum> exact_;
  val error_ = val::null();
  double out_[2] = {0, 0};
};

std::string registryJson() { return vilab::registryJson().dump(); }
// Exactly what the native `vilab registry` prints (without the final newline).
std::string registryText() { return vilab::registryJson().dump(2); }

// Which exact solution holds for a scenario (the system's capability and its conditions):
// {ok: true, solution: <id>, scenario: <normalized JSON text>} or {ok: false, error}
// (code no-exact-solution naming the unmet field, or the scenario's own error).
val exactSolutionOf(const std::string& json) {
  val out = val::object();
  try {
    const vilab::Scenario s = vilab::parseScenario(json);
    const vilab::ExactSolution solution = vilab::exactSolutionFor(
        *s.system, vilab::parseJsonText(s.normalized, "scenario", vilab::limits::kMaxScenarioDepth));
    out.set("ok", true);
    out.set("solution", std::string(vilab::idOf(solution)));
    out.set("scenario", s.normalized);
  } catch (...) {
    out.set("ok", false);
    out.set("error", currentErrorRecord("exact"));
  }
  return out;
}

// Validates a scenario: {ok: true, scenario: <normalized JSON text>} or {ok: false, error}.
val validateScenario(const std::string& json) {
  val out = val::object();
  try {
    const vilab::Scenario s = vilab::parseScenario(json);
    out.set("ok", true);
    out.set("scenario", s.normalized);
  } catch (...) {
    out.set("ok", false);
    out.set("error", currentErrorRecord("normalize"));
  }
  return out;
}

// The editor's view of a definition (system "lagrangian" params as JSON text): the
// coordinates, the LaTeX of every expression and what the engine found, or the first
// error {message, field, column?}. The same parser as the engine's, so they agree.
val inspectLagrangian(const std::string& paramsJson) {
  val out = val::object();
  try {
    const vilab::Json params = vilab::parseJsonText(paramsJson, "params", vilab::limits::kMaxScenarioDepth);
    vilab::Json normalized;
    const auto problem = vilab::inspectLagrangian(params, normalized);
    val latex = val::object();
    latex.set("lagrangian", problem->latex.at(0));
    val constraints = val::array();
    for (std::size_t i = 1; i < problem->latex.size(); ++i) constraints.call<void>("push", problem->latex[i]);
    latex.set("constraints", constraints);
    out.set("ok", true);
    out.set("latex", latex);
    out.set("params", normalized.dump(-1, ' ', false, vilab::Json::error_handler_t::replace));
    out.set("velocityQuadratic", problem->quadratic);
    out.set("constantMassMatrix", problem->constantMass);
  } catch (...) {
    out.set("ok", false);
    out.set("error", currentErrorRecord("inspectLagrangian"));
  }
  return out;
}

// lab.integrate: a trajectory from one call. {ok: true, columns, samples, qSize, pSize,
// data (a view of the column-major numbers, valid until the next call: the JS API copies
// it at once), refusal (null or the refused step's record)} or {ok: false, error}.
// steps and every are whole numbers in [0, 2^53) (checked by the JS API).
val integrateTrajectory(const std::string& scenarioJson, double steps, double every, const val& include) {
  static std::vector<double> data;
  data.clear();
  data.shrink_to_fit();  // the previous trajectory's memory is released
  val out = val::object();
  try {
#ifdef VILAB_LEAN
    // The page never asks for a whole trajectory in one call (~4 KB gzip of the first load).
    throw vilab::NotInLeanBuild("integrate", "a trajectory from one call");
#else
    vilab::TrajectoryRequest request;
    request.steps = static_cast<std::uint64_t>(steps);
    request.every = static_cast<std::uint64_t>(every);
    const unsigned n = include["length"].as<unsigned>();
    for (unsigned i = 0; i < n; ++i) request.include.push_back(include[i].as<std::string>());
    vilab::Simulation sim(vilab::parseScenario(scenarioJson), vilab::trajectorySimulationOptions());
    vilab::Trajectory traj = vilab::integrate(sim, request);
    data = std::move(traj.data);
    val columns = val::array();
    for (const auto& c : traj.columns) columns.call<void>("push", c);
    out.set("ok", true);
    out.set("columns", columns);
    out.set("samples", static_cast<double>(traj.samples));
    out.set("qSize", traj.qSize);
    out.set("pSize", traj.pSize);
    if (traj.refusal) {
      const auto& r = *traj.refusal;
      try {
        throw vilab::StepFailure(r.step, r.refusal, r.stepsTaken);
      } catch (...) {
        out.set("refusal", currentErrorRecord("integrate"));
      }
    } else {
      out.set("refusal", val::null());
    }
    // Last: nothing allocates after the view is made (a memory growth would detach it).
    out.set("data", val(typed_memory_view(data.size(), data.data())));
#endif
  } catch (...) {
    data.clear();
    out.set("ok", false);
    out.set("error", currentErrorRecord("integrate"));
  }
  return out;
}

#ifndef VILAB_LEAN
// The editor's equations of a definition (vilab::motionEquations): {ok: true, coordinates,
// symbolicConstants, momenta, mass, massLatex, eulerLagrange, discrete (each [{latex,
// infix}]), latex} or {ok: false, error}. Full module only (the expression compiler).
val motionEquations(const std::string& paramsJson, const std::string& rule, double alpha) {
  val out = val::object();
  const auto list = [](const std::vector<vilab::ShownEquation>& equations) {
    val a = val::array();
    for (const auto& e : equations) {
      val item = val::object();
      item.set("latex", e.latex);
      item.set("infix", e.infix);
      a.call<void>("push", item);
    }
    return a;
  };
  try {
    const vilab::Json params = vilab::parseJsonText(paramsJson, "params", vilab::limits::kMaxScenarioDepth);
    const vilab::MotionEquations m = vilab::motionEquations(params, rule, alpha);
    val coordinates = val::array();
    for (const auto& c : m.coordinates) coordinates.call<void>("push", c);
    out.set("ok", true);
    out.set("coordinates", coordinates);
    out.set("symbolicConstants", m.symbolicConstants);
    out.set("usesAlpha", m.rule == vilab::Quadrature::Alpha);
    out.set("momenta", list(m.momenta));
    out.set("mass", list(m.mass));
    out.set("massLatex", m.massLatex);
    out.set("eulerLagrange", list(m.eulerLagrange));
    out.set("discrete", list(m.discrete));
    out.set("latex", m.latex);
  } catch (...) {
    out.set("ok", false);
    out.set("error", currentErrorRecord("equations"));
  }
  return out;
}

// lab.importMjcf: a MuJoCo model (MJCF text) as a `mechanism` scenario, {ok: true,
// scenario (2-space JSON text, the bytes `vilab import` prints)} or {ok: false, error}.
// Full module only.
val importMjcf(const std::string& xml) {
  val out = val::object();
  try {
    out.set("scenario", vilab::importMjcf(xml).dump(2));
    out.set("ok", true);
  } catch (...) {
    out.set("ok", false);
    out.set("error", currentErrorRecord("importMjcf"));
  }
  return out;
}

val equationRules() {
  val out = val::array();
  for (const auto& r : vilab::equationRules()) out.call<void>("push", r);
  return out;
}
#endif

// Bytes currently held by in-use malloc blocks, for leak checks. emmalloc's uordblks
// also counts the 8-byte header of every free region, which depends on how free space
// happens to be fragmented; subtract those so the figure returns exactly to its value
// once everything allocated since is freed.
double heapUsed() {
  const struct mallinfo info = mallinfo();
  const double freeRegions = static_cast<double>(info.ordblks) + static_cast<double>(info.smblks);
  return static_cast<double>(static_cast<unsigned>(info.uordblks)) - 8.0 * freeRegions;
}

// "lean" (the page's first-load module: see the lean target in CMakeLists.txt) or "full".
std::string build() {
#ifdef VILAB_LEAN
  return "lean";
#else
  return "full";
#endif
}

}  // namespace

EMSCRIPTEN_BINDINGS(vilab) {
  emscripten::function("build", &build);
  emscripten::function("registryJson", &registryJson);
  emscripten::function("registryText", &registryText);
  emscripten::function("validateScenario", &validateScenario);
  emscripten::function("exactSolutionOf", &exactSolutionOf);
  emscripten::function("inspectLagrangian", &inspectLagrangian);
  emscripten::function("heapUsed", &heapUsed);
  emscripten::function("integrate", &integrateTrajectory);
#ifndef VILAB_LEAN
  emscripten::function("motionEquations", &motionEquations);
  emscripten::function("equationRules", &equationRules);
  emscripten::function("importMjcf", &importMjcf);
#endif
  emscripten::class_<WasmExactOscillator>("ExactOscillator")
      .constructor<double, double, double, double>()
      .function("error", &WasmExactOscillator::error)
      .function("period", &WasmExactOscillator::period)
      .function("at", &WasmExactOscillator::at);
  emscripten::class_<WasmExactRigidBody>("ExactRigidBody")
      .constructor<val, val, val>()
      .function("error", &WasmExactRigidBody::error)
      .function("period", &WasmExactRigidBody::period)
      .function("branch", &WasmExactRigidBody::branch)
      .function("Pi", &WasmExactRigidBody::Pi)
      .function("orientation", &WasmExactRigidBody::orientation);
  emscripten::class_<WasmExactPendulum>("ExactPendulum")
      .constructor<double, double, double, double>()
      .function("error", &WasmExactPendulum::error)
      .function("period", &WasmExactPendulum::period)
      .function("modulus", &WasmExactPendulum::modulus)
      .function("regime", &WasmExactPendulum::regime)
      .function("at", &WasmExactPendulum::at);
  emscripten::class_<WasmSimulation>("Simulation")
      .constructor<std::string, int, int>()
      .function("error", &WasmSimulation::error)
      .function("advance", &WasmSimulation::advance)
      .function("advanceFor", &WasmSimulation::advanceFor)
      .function("lastDone", &WasmSimulation::lastDone)
      .function("step", &WasmSimulation::step)
      .function("time", &WasmSimulation::time)
      .function("scenario", &WasmSimulation::scenario)
      .function("hash", &WasmSimulation::hash)
      .function("q", &WasmSimulation::q)
      .function("p", &WasmSimulation::p)
      .function("diagnostics", &WasmSimulation::diagnostics)
      .function("visualState", &WasmSimulation::visualState)
      .function("setState", &WasmSimulation::setState)
      .function("linearize", &WasmSimulation::linearize)
      .function("multisymplecticResiduals", &WasmSimulation::multisymplecticResiduals)
      .function("fieldStiffness", &WasmSimulation::fieldStiffness)
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
