// Native timing of the step loop:
//   vilab_bench '<scenario json>' <steps> [repeats]
//       prints {"nsPerStep": best, "median": ...};
//   vilab_bench --accuracy '<scenario json>' <T> <tolerance>
//       the cost of keeping the relative energy error below `tolerance` up to time T:
//       the largest h (searched from the scenario's h, using the error's power law in h)
//       whose run stays within it, printed as {"h", "steps", "ms", "error"}.
// bench/run.mjs drives it and times the same scenarios in wasm, so every ratio comes
// from one run.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "vilab/simulation.hpp"

namespace {
using Clock = std::chrono::steady_clock;

// max_k |E_k − E_0| / |E_0| over [0, T] (sampled every 10 steps or more), and the wall time.
struct Run {
  bool ok = false;
  double error = 0, ms = 0;
  long steps = 0;
};
Run runFor(vilab::Scenario scenario, double h, double T) {
  scenario.h = h;
  Run r;
  r.steps = std::lround(T / h);
  vilab::SimulationOptions options;
  options.historyStride = static_cast<int>(std::max<long>(10, r.steps / 500000));
  options.historyCapacity = 1 << 20;
  vilab::Simulation sim(scenario, options);
  const double e0 = sim.diagnostics().energy;
  const auto t0 = Clock::now();
  try {
    // Variable-step methods: steps until the clock passes T.
    if (scenario.integrator->variableStep) {
      r.steps = 0;
      while (sim.time() < T) sim.advance(1), ++r.steps;
    } else {
      sim.advance(static_cast<std::uint64_t>(r.steps));
    }
  } catch (const vilab::StepFailure&) {
    return r;
  }
  r.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  std::vector<double> data;
  std::uint64_t count = 0;
  sim.history().read(0, data, count);
  for (std::uint64_t k = 0; k < count; ++k) r.error = std::max(r.error, std::abs(data[count + k] - e0) / std::abs(e0));
  r.ok = std::isfinite(r.error);
  return r;
}

int accuracy(const vilab::Scenario& scenario, double T, double tolerance) {
  const double order = scenario.integrator->order;
  double h = scenario.h;
  Run best;
  double bestH = 0;
  // err ≈ C h^p: aim 20 % below the tolerance, at most 6 runs; keep the largest passing h.
  for (int attempt = 0; attempt < 6; ++attempt) {
    const Run r = runFor(scenario, h, T);
    if (r.ok && r.error <= tolerance && h > bestH) {
      best = r;
      bestH = h;
    }
    double next = !r.ok ? h / 2 : h * std::pow(0.8 * tolerance / std::max(r.error, 1e-300), 1.0 / order);
    next = std::min(next, 4 * h);
    if (bestH > 0 && next <= bestH * 1.05) break;  // the next try would not be larger
    h = std::min(next, vilab::maxStep(*scenario.system));
  }
  if (bestH == 0) {
    std::printf("{\"h\": null}\n");
    return 0;
  }
  std::printf("{\"h\": %.6g, \"steps\": %ld, \"ms\": %.3f, \"error\": %.3e}\n", bestH, best.steps, best.ms, best.error);
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: vilab_bench '<scenario json>' <steps> [repeats]\n"
                 "       vilab_bench --accuracy '<scenario json>' <T> <tolerance>\n");
    return 2;
  }
  try {
    if (std::strcmp(argv[1], "--accuracy") == 0) {
      if (argc < 5) return 2;
      return accuracy(vilab::parseScenario(std::string(argv[2])), std::atof(argv[3]), std::atof(argv[4]));
    }
    const long steps = std::atol(argv[2]);
    const int repeats = argc > 3 ? std::atoi(argv[3]) : 5;
    const vilab::Scenario scenario = vilab::parseScenario(std::string(argv[1]));
    std::vector<double> times;
    for (int r = 0; r < repeats; ++r) {
      vilab::SimulationOptions options;
      options.historyStride = 1000000;  // measure stepping, not recording
      vilab::Simulation sim(scenario, options);
      const auto t0 = Clock::now();
      sim.advance(static_cast<std::uint64_t>(steps));
      const auto t1 = Clock::now();
      times.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(steps));
    }
    std::sort(times.begin(), times.end());
    std::printf("{\"nsPerStep\": %.3f, \"median\": %.3f}\n", times.front(), times[times.size() / 2]);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vilab_bench: %s\n", e.what());
    return 1;
  }
}
