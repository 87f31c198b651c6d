#include "vilab/trajectory.hpp"

#include <algorithm>

#include "vilab/json.hpp"

namespace vilab {

const std::vector<std::string>& trajectoryDiagnostics() {
  static const std::vector<std::string> names = {"energy",    "constraint",   "iterations", "momentum",
                                                 "conserved", "bodyMomentum", "dt"};
  return names;
}

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The history columns (indices) of each included diagnostic, in the request's order.
std::vector<int> includedColumns(const Simulation& sim, const std::vector<std::string>& include) {
  const auto& columns = sim.history().columns();
  std::vector<int> out;
  std::vector<std::string> seen;
  for (std::size_t i = 0; i < include.size(); ++i) {
    const std::string field = "include[" + std::to_string(i) + "]";
    const std::string& name = include[i];
    const auto& known = trajectoryDiagnostics();
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw InputError(InputErrorCode::UnknownId, field,
                       "unknown diagnostic \"" + cutForMessage(name) + "\" (known: " + joined(known) + ")");
    if (std::find(seen.begin(), seen.end(), name) != seen.end())
      throw InputError(InputErrorCode::Conflict, field, "\"" + name + "\" is included twice");
    seen.push_back(name);
    const std::size_t before = out.size();
    for (std::size_t c = 0; c < columns.size(); ++c)
      if (columns[c] == name || columns[c].rfind(name + ".", 0) == 0) out.push_back(static_cast<int>(c));
    if (out.size() == before)
      throw InputError(InputErrorCode::NotApplicable, field,
                       "this run has no \"" + name + "\" (its diagnostics: " +
                           joined(std::vector<std::string>(columns.begin() + 1, columns.end())) + ")");
  }
  return out;
}

}  // namespace

SimulationOptions trajectorySimulationOptions() {
  SimulationOptions o;
  o.historyStride = limits::kMaxHistoryStride;
  o.historyCapacity = limits::kMinHistoryCapacity;
  return o;
}

std::uint64_t trajectorySamples(const Simulation& sim, const TrajectoryRequest& request) {
  if (request.every == 0) throw InputError(InputErrorCode::Range, "every", "must be at least 1");
  if (request.steps > limits::kMaxSteps)
    throw InputError(InputErrorCode::Range, "steps", "must be at most 2^53 - 1, got " + std::to_string(request.steps));
  const std::uint64_t columns =
      1 + static_cast<std::uint64_t>(sim.q().size() + sim.p().size()) + includedColumns(sim, request.include).size();
  const std::uint64_t samples = request.steps / request.every + 1;
  if (samples > limits::kMaxTrajectoryValues / columns)
    throw InputError(InputErrorCode::TooLarge, "steps",
                     "steps / every + 1 = " + std::to_string(samples) + " samples of " + std::to_string(columns) +
                         " columns exceed the limit of " + std::to_string(limits::kMaxTrajectoryValues) +
                         " numbers: raise every or take fewer steps per call");
  return samples;
}

Trajectory integrate(Simulation& sim, const TrajectoryRequest& request) {
  const std::uint64_t capacity = trajectorySamples(sim, request);
  const std::vector<int> diagnostics = includedColumns(sim, request.include);
  Trajectory out;
  out.every = request.every;
  out.qSize = static_cast<int>(sim.q().size());
  out.pSize = static_cast<int>(sim.p().size());
  out.columns.push_back("t");
  for (int i = 0; i < out.qSize; ++i) out.columns.push_back("q[" + std::to_string(i) + "]");
  for (int i = 0; i < out.pSize; ++i) out.columns.push_back("p[" + std::to_string(i) + "]");
  for (int c : diagnostics) out.columns.push_back(sim.history().columns()[static_cast<std::size_t>(c)]);
  const std::size_t width = out.columns.size();
  out.data.assign(width * capacity, 0.0);
  std::vector<double> row;
  const auto record = [&](std::uint64_t k) {
    double* at = out.data.data() + k;
    const auto put = [&](double x) {
      *at = x;
      at += capacity;
    };
    put(sim.time());
    for (int i = 0; i < out.qSize; ++i) put(sim.q()[i]);
    for (int i = 0; i < out.pSize; ++i) put(sim.p()[i]);
    if (diagnostics.empty()) return;
    sim.diagnosticsRow(row);
    for (int c : diagnostics) put(row[static_cast<std::size_t>(c)]);
  };
  record(0);
  out.samples = 1;
  std::uint64_t taken = 0;
  try {
    while (out.samples < capacity) {
      sim.advance(request.every);
      taken += request.every;
      record(out.samples++);
    }
    sim.advance(request.steps - taken);  // steps past the last sample
  } catch (const StepFailure& e) {
    out.refusal = TrajectoryRefusal{e.step(), taken + e.stepsTaken(), e.refusal(), e.message()};
  }
  // Shrink the columns to the samples taken (a refused step ends them early).
  if (out.samples < capacity) {
    for (std::size_t c = 1; c < width; ++c)
      std::copy_n(out.data.begin() + static_cast<std::ptrdiff_t>(c * capacity), out.samples,
                  out.data.begin() + static_cast<std::ptrdiff_t>(c * out.samples));
    out.data.resize(width * out.samples);
  }
  return out;
}

}  // namespace vilab
