// libFuzzer target: simulate + advance. Input: a scenario's JSON text, then optionally
// a NUL byte and control bytes that override numbers of the document (parameters,
// initial data, h: raw doubles, powers of ten, signs, zeros, as the JS API's "NaN"
// strings), lengthen or shorten its arrays, choose the steps, and replace the state
// through setState. Seeds are the shipped scenes and every system × integrator default,
// so mutations start from runs that work: systems defined by data get fuzzed
// expressions from the text.
//
// Asserted: only clean errors; after every call the state, diagnostics, visual state,
// history and CSV row are finite and within ±1e300; a refused step keeps the state of
// step − 1 (the same hash as a fresh run of the steps taken).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "check.hpp"
#include "vilab/csv.hpp"
#include "vilab/scenario.hpp"

namespace {

using namespace vilab;

// Steps per call: enough to reach refusals and overflows, few enough that an input
// runs in milliseconds under the sanitizers.
constexpr int kMaxSteps = 32;

void collect(Json& v, std::vector<Json*>& numbers, std::vector<Json*>& arrays) {
  if (v.is_number()) numbers.push_back(&v);
  if (v.is_array()) arrays.push_back(&v);
  if (v.is_structured())
    for (auto& child : v) collect(child, numbers, arrays);
}

// One override of the document, chosen by the control bytes.
void mutate(Json& doc, FuzzedDataProvider& in) {
  std::vector<Json*> numbers, arrays;
  collect(doc, numbers, arrays);
  const int kind = in.ConsumeIntegralInRange(0, 5);
  if (kind == 5) {
    if (arrays.empty()) return;
    Json& a = *arrays[in.ConsumeIntegralInRange<std::size_t>(0, arrays.size() - 1)];
    if (in.ConsumeBool() && !a.empty())
      a.erase(a.size() - 1);
    else if (!a.empty())
      a.push_back(a.back());
    return;
  }
  if (numbers.empty()) return;
  Json& x = *numbers[in.ConsumeIntegralInRange<std::size_t>(0, numbers.size() - 1)];
  const double v = x.get<double>();
  double y = v;
  switch (kind) {
    case 0: {
      std::uint64_t bits = in.ConsumeIntegral<std::uint64_t>();
      std::memcpy(&y, &bits, sizeof y);
      break;
    }
    case 1: y = v * std::pow(10.0, in.ConsumeIntegralInRange(-30, 30)); break;
    case 2: y = -v; break;
    case 3: y = 0; break;
    case 4: y = v + in.ConsumeFloatingPointInRange(-10.0, 10.0); break;
  }
  // Non-finite numbers travel as the JS API writes them.
  if (std::isnan(y))
    x = "NaN";
  else if (std::isinf(y))
    x = y > 0 ? "Infinity" : "-Infinity";
  else
    x = y;
}

void checkReports(const Simulation& sim) {
  for (Eigen::Index i = 0; i < sim.q().size(); ++i) fuzz::checkReported(sim.q()[i], "q");
  for (Eigen::Index i = 0; i < sim.p().size(); ++i) fuzz::checkReported(sim.p()[i], "p");
  const Diagnostics d = sim.diagnostics();
  fuzz::checkReported(d.energy, "energy");
  fuzz::checkReported(d.constraint, "constraint");
  for (int i = 0; i < d.momentumSize; ++i) fuzz::checkReported(d.momentum[i], "momentum");
  for (int i = 0; i < d.conservedSize; ++i) fuzz::checkReported(d.conserved[i], "conserved");
  for (int i = 0; d.hasBodyMomentum && i < 3; ++i) fuzz::checkReported(d.bodyMomentum[i], "bodyMomentum");
  fuzz::checkReported(sim.time(), "time");
  std::vector<double> visual;
  sim.visualState(visual);
  for (double x : visual) fuzz::checkReported(x, "visualState");
  std::vector<double> history;
  std::uint64_t count = 0;
  sim.history().read(0, history, count);
  for (double x : history) fuzz::checkReported(x, "history");
  const std::string row = csvRow(sim);
  if (row.find("inf") != std::string::npos || row.find("nan") != std::string::npos) fuzz::finding("CSV row", row);
}

// advance(n): steps taken, or a refusal that keeps step − 1 (checked by replaying).
void advance(Simulation& sim, std::uint64_t n, const std::function<std::string(std::uint64_t)>& replay) {
  const std::uint64_t before = sim.step();
  try {
    sim.advance(n);
    if (sim.step() != before + n) fuzz::finding("advance(n) took another count", std::to_string(n));
  } catch (const StepFailure& e) {
    fuzz::checkWhole(e.what(), e.message());
    fuzz::checkMessage("advance: " + e.message(), "advance");
    if (e.stepsTaken() >= n || sim.step() != before + e.stepsTaken() || e.step() != sim.step() + 1)
      fuzz::finding("refusal counts", e.what());
    if (replay && replay(sim.step()) != sim.hash())
      fuzz::finding("a refusal did not keep the state of step - 1", e.what());
  } catch (const InputError& e) {
    fuzz::finding("advance threw an InputError", e.what());
  } catch (const std::exception& e) {
    fuzz::finding("advance", e.what());
  }
  checkReports(sim);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::uint8_t* nul = static_cast<const std::uint8_t*>(std::memchr(data, 0, size));
  const std::size_t textSize = nul ? static_cast<std::size_t>(nul - data) : size;
  const std::string text(reinterpret_cast<const char*>(data), textSize);
  FuzzedDataProvider in(nul ? nul + 1 : data + size, nul ? size - textSize - 1 : 0);

  Json doc;
  if (!fuzz::clean("parseJsonText", [&] { doc = parseJsonText(text, "scenario", limits::kMaxScenarioDepth); }))
    return 0;
  const int overrides = in.ConsumeIntegralInRange(0, 4);
  for (int i = 0; i < overrides && in.remaining_bytes() > 0; ++i) mutate(doc, in);

  Scenario scenario;
  if (!fuzz::clean("parseScenario", [&] { scenario = parseScenario(doc); })) return 0;
  SimulationOptions options;
  options.historyStride = in.ConsumeIntegralInRange(1, 4);
  options.historyCapacity = in.ConsumeIntegralInRange(1, 64);
  std::unique_ptr<Simulation> sim;
  // Refused here only when a definition's diagnostics are not finite at the initial state.
  if (!fuzz::clean("Simulation", [&] { sim = std::make_unique<Simulation>(scenario, options); })) return 0;
  checkReports(*sim);

  const auto fresh = [&](std::uint64_t steps) {
    Simulation again(scenario, options);
    again.advance(steps);
    return again.hash();
  };
  advance(*sim, in.remaining_bytes() > 0 ? in.ConsumeIntegralInRange(0, kMaxSteps) : 8, fresh);

  // setState: the current state with components replaced or scaled, then more steps.
  if (in.remaining_bytes() == 0) return 0;
  State s{sim->q(), sim->p()};
  const int edits = in.ConsumeIntegralInRange(0, 4);
  for (int k = 0; k < edits; ++k) {
    VecX& v = in.ConsumeBool() ? s.q : s.p;
    if (v.size() == 0) continue;
    double& x = v[in.ConsumeIntegralInRange<Eigen::Index>(0, v.size() - 1)];
    if (in.ConsumeBool()) {
      std::uint64_t bits = in.ConsumeIntegral<std::uint64_t>();
      std::memcpy(&x, &bits, sizeof x);
    } else {
      x *= std::pow(10.0, in.ConsumeIntegralInRange(-20, 20));
    }
  }
  if (in.ConsumeBool()) s.p.conservativeResize(in.ConsumeIntegralInRange<Eigen::Index>(0, 8));
  if (!fuzz::clean("setState", [&] { sim->setState(s); })) {
    checkReports(*sim);  // the refused state changed nothing
    return 0;
  }
  checkReports(*sim);
  advance(*sim, in.ConsumeIntegralInRange(0, kMaxSteps), nullptr);
  return 0;
}
