// Native timing of the step loop, in thread CPU time (clock_gettime(CLOCK_THREAD_CPUTIME_ID):
// time the thread ran, so a loaded machine stretches wall clock but not this):
//   vilab_bench '<scenario json>' <steps> [repeats] [historyStride]
//       prints {"nsPerStep": best, "median": ...}; the history records every
//       historyStride-th step (default 1000000: nothing in the timed steps; 1 as the page);
//   vilab_bench --accuracy '<scenario json>' <T> <tolerance>
//       the cost of keeping the relative energy error below `tolerance` up to time T:
//       the largest h (searched from the scenario's h, using the error's power law in h)
//       whose run stays within it, printed as {"h", "steps", "ms", "error"};
//   vilab_bench --run '<scenario json>' <T> [chunk]
//       one run to time T in chunks of `chunk` steps (1000): CPU ms of the stepping, the
//       largest relative energy and momentum-map errors and constraint residual seen at
//       the chunk ends, the mean Newton iterations per step (also sampled at chunk ends),
//       or where it was refused;
//   vilab_bench --profile '<scenario json>' <steps>
//       where a step's time goes: Newton iterations per step (mean over every step), and
//       the cost of recording the history at every step against not recording it;
//   vilab_bench --kernel <steps>
//       the DSP midpoint step of the library against the fixed-size reference kernel
//       (dsp_kernel.hpp): ns per step of both, flops per step, agreement of the states.
// bench/run.mjs drives it and times the same scenarios in wasm, so every ratio comes
// from one run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <variant>
#include <vector>

#include "dsp_kernel.hpp"
#include "vilab/simulation.hpp"

namespace {

double threadCpuNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e9 * static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec);
}

// max_k |E_k − E_0| / |E_0| over [0, T] (sampled every 10 steps or more), and the CPU time.
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
  const double t0 = threadCpuNs();
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
  r.ms = (threadCpuNs() - t0) * 1e-6;
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

// Relative size of the momentum map's change: |J − J_0| / |J_0| over its components.
double momentumError(const vilab::Diagnostics& d, const vilab::Diagnostics& d0) {
  double num = 0, den = 0;
  for (int i = 0; i < d.momentumSize; ++i) {
    num += (d.momentum[i] - d0.momentum[i]) * (d.momentum[i] - d0.momentum[i]);
    den += d0.momentum[i] * d0.momentum[i];
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

int run(const vilab::Scenario& scenario, double T, long chunk) {
  vilab::SimulationOptions options;
  options.historyStride = 1000000;
  vilab::Simulation sim(scenario, options);
  const vilab::Diagnostics d0 = sim.diagnostics();
  const long steps = std::lround(T / scenario.h);
  double cpu = 0, energy = 0, momentum = 0, constraint = 0, iterations = 0;
  long done = 0, samples = 0;
  bool refused = false;
  while (done < steps) {
    const long n = std::min(chunk, steps - done);
    const double t0 = threadCpuNs();
    try {
      sim.advance(static_cast<std::uint64_t>(n));
    } catch (const vilab::StepFailure& f) {
      cpu += threadCpuNs() - t0;
      done += static_cast<long>(f.stepsTaken());
      refused = true;
      break;
    }
    cpu += threadCpuNs() - t0;
    done += n;
    const vilab::Diagnostics d = sim.diagnostics();
    energy = std::max(energy, std::abs(d.energy - d0.energy) / std::abs(d0.energy));
    momentum = std::max(momentum, momentumError(d, d0));
    constraint = std::max(constraint, std::abs(d.constraint));
    iterations += d.iterations;
    ++samples;
  }
  std::printf(
      "{\"steps\": %ld, \"refusedAt\": %s, \"cpuMs\": %.3f, \"nsPerStep\": %.3f, \"energy\": %.4e, \"momentum\": %.4e, "
      "\"constraint\": %.4e, \"iterations\": %.3f}\n",
      done, refused ? std::to_string(sim.time()).c_str() : "null", cpu * 1e-6, cpu / std::max(1L, done), energy,
      momentum, constraint, samples ? iterations / static_cast<double>(samples) : 0.0);
  return 0;
}

// ns per step over `steps`, history every `stride` steps, best of `repeats`.
double timeSteps(const vilab::Scenario& scenario, long steps, int stride, int repeats) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    vilab::SimulationOptions options;
    options.historyStride = stride;
    vilab::Simulation sim(scenario, options);
    const double t0 = threadCpuNs();
    sim.advance(static_cast<std::uint64_t>(steps));
    best = std::min(best, (threadCpuNs() - t0) / static_cast<double>(steps));
  }
  return best;
}

int profile(const vilab::Scenario& scenario, long steps) {
  // Mean Newton iterations per step from a history of every step.
  vilab::SimulationOptions options;
  options.historyStride = 1;
  options.historyCapacity = static_cast<int>(std::min<long>(steps, 1 << 20));
  vilab::Simulation sim(scenario, options);
  sim.advance(static_cast<std::uint64_t>(std::min<long>(steps, 1 << 20)));
  std::vector<double> data;
  std::uint64_t count = 0;
  sim.history().read(0, data, count);
  double iterations = 0;
  for (std::uint64_t k = 0; k < count; ++k)
    iterations += data[3 * count + k];  // columns t, energy, constraint, iterations
  // Interleaved, best of 5 each: the same load hits both.
  double quiet = 1e300, every = 1e300;
  for (int r = 0; r < 5; ++r) {
    quiet = std::min(quiet, timeSteps(scenario, steps, 1000000, 1));
    every = std::min(every, timeSteps(scenario, steps, 1, 1));
  }
  std::printf("{\"iterations\": %.4f, \"nsPerStep\": %.3f, \"nsPerStepHistoryEveryStep\": %.3f}\n",
              iterations / static_cast<double>(count), quiet, every);
  return 0;
}

int kernel(long steps) {
  vilab::Scenario scenario = vilab::parseScenario(
      std::string(R"({"system": "double-spherical-pendulum", "integrator": "midpoint", "h": 0.01})"));
  vilab::SimulationOptions options;
  options.historyStride = 1000000;
  // The kernel's parameters as the library has them: read at run time from the scenario.
  const auto& chain = std::get<vilab::ChainModel>(scenario.model);
  const auto kernelAt = [&](const double* q, const double* p) {
    return vilabbench::DspKernel(q, p, scenario.h, chain.g, chain.masses.data(), chain.lengths.data());
  };
  // Agreement: the same 1000 steps from the same state.
  vilab::Simulation sim(scenario, options);
  vilabbench::DspKernel k = kernelAt(sim.q().data(), sim.p().data());
  sim.advance(1000);
  double iterations = 0;
  for (int i = 0; i < 1000; ++i) iterations += k.step();
  double diff = 0;
  for (int i = 0; i < 6; ++i) diff = std::max({diff, std::abs(sim.q()[i] - k.q[i]), std::abs(sim.p()[i] - k.p[i])});
  // Flops of one step, counted by running the kernel on a counting scalar.
  const vilabbench::FlopCount flops = vilabbench::countDspKernelFlops(sim.q().data(), sim.p().data(), 0.01, 9.81);
  // Time: best of 5 runs each, interleaved, from the same state. The kernel twice: with
  // its parameters read at run time (the floor), and given as literals (the compiler then
  // folds h, g and the unit masses and lengths: a cheaper computation, reported beside it).
  const auto timeKernel = [&](vilabbench::DspKernel kr) {
    const double t0 = threadCpuNs();
    double it = 0;
    for (long s = 0; s < steps; ++s) it += kr.step();
    const double ns = (threadCpuNs() - t0) / static_cast<double>(steps);
    if (it < 0) std::printf("%f", it);  // keeps the loop
    return ns;
  };
  double lib = 1e300, ref = 1e300, folded = 1e300;
  for (int r = 0; r < 5; ++r) {
    lib = std::min(lib, timeSteps(scenario, steps, 1000000, 1));
    ref = std::min(ref, timeKernel(kernelAt(scenario.initial.q.data(), scenario.initial.p.data())));
    folded = std::min(
        folded, timeKernel(vilabbench::DspKernel(scenario.initial.q.data(), scenario.initial.p.data(), 0.01, 9.81)));
  }
  std::printf(
      "{\"libraryNs\": %.3f, \"kernelNs\": %.3f, \"kernelLiteralsNs\": %.3f, \"kernelIterations\": %.4f, \"flops\": "
      "%ld, "
      "\"flopsPerIteration\": %.1f, \"flopsFixed\": %ld, \"divisions\": %ld, \"sqrts\": %ld, "
      "\"maxDifferenceAfter1000\": "
      "%.3e}\n",
      lib, ref, folded, iterations / 1000.0, flops.total, flops.perIteration, flops.fixed, flops.divisions, flops.sqrts,
      diff);
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: vilab_bench '<scenario json>' <steps> [repeats] [historyStride]\n"
                 "       vilab_bench --accuracy '<scenario json>' <T> <tolerance>\n"
                 "       vilab_bench --run '<scenario json>' <T> [chunk]\n"
                 "       vilab_bench --profile '<scenario json>' <steps>\n"
                 "       vilab_bench --kernel <steps>\n");
    return 2;
  }
  try {
    if (std::strcmp(argv[1], "--accuracy") == 0) {
      if (argc < 5) return 2;
      return accuracy(vilab::parseScenario(std::string(argv[2])), std::atof(argv[3]), std::atof(argv[4]));
    }
    if (std::strcmp(argv[1], "--run") == 0) {
      if (argc < 4) return 2;
      return run(vilab::parseScenario(std::string(argv[2])), std::atof(argv[3]), argc > 4 ? std::atol(argv[4]) : 1000);
    }
    if (std::strcmp(argv[1], "--profile") == 0) {
      if (argc < 4) return 2;
      return profile(vilab::parseScenario(std::string(argv[2])), std::atol(argv[3]));
    }
    if (std::strcmp(argv[1], "--kernel") == 0) return kernel(std::atol(argv[2]));
    const long steps = std::atol(argv[2]);
    const int repeats = argc > 3 ? std::atoi(argv[3]) : 5;
    const int stride = argc > 4 ? std::atoi(argv[4]) : 1000000;
    const vilab::Scenario scenario = vilab::parseScenario(std::string(argv[1]));
    std::vector<double> times;
    for (int r = 0; r < repeats; ++r) times.push_back(timeSteps(scenario, steps, stride, 1));
    std::sort(times.begin(), times.end());
    std::printf("{\"nsPerStep\": %.3f, \"median\": %.3f}\n", times.front(), times[times.size() / 2]);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vilab_bench: %s\n", e.what());
    return 1;
  }
}
