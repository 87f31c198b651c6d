// A whole trajectory from one call: the simulation steps and records t, q, p and the
// diagnostics asked for into columns allocated once, so a caller that wants every
// sample does not pay one call (or one copy) per step. The samples are exactly what
// stepping one by one gives: the same steps (Simulation::advance) read at the same
// states, bit for bit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "vilab/simulation.hpp"

namespace vilab {

struct TrajectoryRequest {
  std::uint64_t steps = 0;           // steps to take
  std::uint64_t every = 1;           // a sample at every every-th step (and at step 0)
  std::vector<std::string> include;  // diagnostics: "energy", "momentum", "constraint", …
};

// The refused step that ended a trajectory early (what StepFailure carries).
struct TrajectoryRefusal {
  std::uint64_t step = 0;        // the refused step
  std::uint64_t stepsTaken = 0;  // good steps the call took before it
  Refusal refusal;
  std::string message;
};

struct Trajectory {
  // Column names: "t", "q[0]" …, "p[0]" …, then the included diagnostics' history
  // columns (Simulation::history().columns(): "energy", "momentum.z", …).
  std::vector<std::string> columns;
  int qSize = 0, pSize = 0;
  std::uint64_t samples = 0;  // sample k is at step k·every
  std::uint64_t every = 1;
  std::vector<double> data;  // column-major: column c is data[c·samples, (c+1)·samples)
  std::optional<TrajectoryRefusal> refusal;
};

// The diagnostics integrate() can include (the history's column groups).
const std::vector<std::string>& trajectoryDiagnostics();

// How many samples a request records: steps / every + 1. Throws InputError naming
// `every` (0) or `steps` (beyond kMaxSteps, or samples × columns past
// kMaxTrajectoryValues) or `include[i]` (unknown, repeated or absent from this run).
std::uint64_t trajectorySamples(const Simulation& sim, const TrajectoryRequest& request);

// Options for a simulation made only to integrate(): the history is not read, so it
// records as rarely as it may (its rows are not formed between records: faster, and
// the states are the same bits).
SimulationOptions trajectorySimulationOptions();

// Steps sim from where it is and records its trajectory. A refused step ends it early:
// the samples before it are kept, and `refusal` says which step and why (sim stays at
// the last good step, as after advance()).
Trajectory integrate(Simulation& sim, const TrajectoryRequest& request);

}  // namespace vilab
