// vilab command-line interface.
//   vilab run  scenario.json --steps N [--every K] [--out file.csv]   CSV trajectory
//   vilab hash scenario.json --steps N                               run fingerprint
//   vilab registry                                                   systems and integrators as JSON
//   vilab --version
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "vilab/csv.hpp"
#include "vilab/simulation.hpp"

namespace {

int usage(int code) {
  std::fprintf(code ? stderr : stdout,
               "usage:\n"
               "  vilab run  <scenario.json|-> --steps N [--every K]   write CSV to stdout\n"
               "  vilab hash <scenario.json|-> --steps N               print the FNV-1a 64 state hash\n"
               "  vilab registry                                      print the registries as JSON\n"
               "  vilab --version                                     print the version\n");
  return code;
}

std::string readAll(const std::string& path) {
  std::stringstream ss;
  if (path == "-") {
    ss << std::cin.rdbuf();
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    ss << in.rdbuf();
  }
  return ss.str();
}

long parseCount(const char* flag, const char* text) {
  char* end = nullptr;
  const long long v = std::strtoll(text, &end, 10);
  if (!end || *end || v < 0) throw vilab::InputError(flag, std::string("must be a non-negative integer, got ") + text);
  return static_cast<long>(v);
}

// Runs n steps, calling each() after every `every` steps (and after the last one).
template <class F>
void run(vilab::Simulation& sim, long steps, long every, F&& each) {
  long done = 0;
  while (done < steps) {
    const long chunk = every > 0 ? std::min(steps - done, every - done % every) : steps - done;
    sim.advance(static_cast<std::uint64_t>(chunk));
    done += chunk;
    if (every > 0 && done % every == 0) each();
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage(2);
  const std::string cmd = argv[1];
  try {
    if (cmd == "--help" || cmd == "-h") return usage(0);
    if (cmd == "--version" || cmd == "-V") {
      std::printf("vilab %s\n", VILAB_VERSION);
      return 0;
    }
    if (cmd == "registry") {
      std::cout << vilab::registryJson().dump(2) << "\n";
      return 0;
    }
    if (cmd != "run" && cmd != "hash") return usage(2);
    if (argc < 3) return usage(2);
    long steps = -1, every = 1;
    for (int i = 3; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--steps" && i + 1 < argc) {
        steps = parseCount("--steps", argv[++i]);
      } else if (a == "--every" && i + 1 < argc) {
        every = parseCount("--every", argv[++i]);
        if (every == 0) throw vilab::InputError("--every", "must be at least 1");
      } else {
        return usage(2);
      }
    }
    if (steps < 0) throw vilab::InputError("--steps", "is required");
    vilab::Simulation sim(vilab::parseScenario(readAll(argv[2])));
    if (cmd == "hash") {
      run(sim, steps, 0, [] {});
      std::printf("%s\n", sim.hash().c_str());
      return 0;
    }
    std::string line;
    std::fputs((vilab::csvHeader(sim) + "\n").c_str(), stdout);
    std::fputs((vilab::csvRow(sim) + "\n").c_str(), stdout);
    run(sim, steps, every, [&] { std::fputs((vilab::csvRow(sim) + "\n").c_str(), stdout); });
    return 0;
  } catch (const vilab::StepFailure& e) {
    std::fprintf(stderr, "vilab: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vilab: %s\n", e.what());
    return 2;
  }
}
