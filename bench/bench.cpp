// Native timing of the step loop: vilab_bench '<scenario json>' <steps> [repeats]
// prints {"nsPerStep": best, "median": ...} as JSON. bench/run.mjs drives it and
// times the same scenarios in wasm, so every ratio comes from one run.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "vilab/simulation.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: vilab_bench '<scenario json>' <steps> [repeats]\n");
    return 2;
  }
  const long steps = std::atol(argv[2]);
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 5;
  try {
    const vilab::Scenario scenario = vilab::parseScenario(std::string(argv[1]));
    std::vector<double> times;
    for (int r = 0; r < repeats; ++r) {
      vilab::SimulationOptions options;
      options.historyStride = 1000000;  // measure stepping, not recording
      vilab::Simulation sim(scenario, options);
      const auto t0 = std::chrono::steady_clock::now();
      sim.advance(static_cast<std::uint64_t>(steps));
      const auto t1 = std::chrono::steady_clock::now();
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
