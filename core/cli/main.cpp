// vilab command-line interface.
//   vilab run  scenario.json --steps N [--every K] [--out file.csv]   CSV trajectory
//   vilab hash scenario.json --steps N                               run fingerprint
//   vilab registry                                                   systems and integrators as JSON
//   vilab --version
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
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

// The scenario's bytes, read up to one byte past the limit (so /dev/zero or an endless
// pipe is refused at once), checked to be UTF-8 text before anything parses it.
std::string readScenario(const std::string& path) {
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot read " + vilab::cutForMessage(path, 200));
  std::string text;
  char buf[1 << 16];
  bool failed = false;
  while (text.size() <= vilab::limits::kMaxScenarioBytes) {
    const std::size_t want = std::min(sizeof buf, vilab::limits::kMaxScenarioBytes + 1 - text.size());
    const std::size_t got = std::fread(buf, 1, want, f);
    text.append(buf, got);
    if (got < want) {
      failed = std::ferror(f) != 0;
      break;
    }
  }
  if (f != stdin) std::fclose(f);
  if (failed) throw std::runtime_error("cannot read " + vilab::cutForMessage(path, 200));
  if (text.size() > vilab::limits::kMaxScenarioBytes)
    throw vilab::InputError(
        vilab::InputErrorCode::TooLarge, "scenario",
        "too large (more than " + std::to_string(vilab::limits::kMaxScenarioBytes) + " bytes; the limit is 4 MiB)");
  const std::size_t bad = vilab::invalidUtf8Offset(text);
  if (bad != std::string::npos)
    throw vilab::InputError(vilab::InputErrorCode::Syntax, "scenario",
                            "is not UTF-8 text (byte " + std::to_string(bad) + ")");
  return text;
}

// A count: strtoll base 10, the whole text consumed, in [0, kMaxSteps].
std::uint64_t parseCount(const char* flag, const char* text) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text, &end, 10);
  const std::string shown = vilab::cutForMessage(text);
  if (!end || *end || v < 0)
    throw vilab::InputError(vilab::InputErrorCode::Range, flag, "must be a non-negative integer, got " + shown);
  if (errno == ERANGE || static_cast<std::uint64_t>(v) > vilab::limits::kMaxSteps)
    throw vilab::InputError(vilab::InputErrorCode::Range, flag,
                            "must be at most " + std::to_string(vilab::limits::kMaxSteps) + ", got " + shown);
  return static_cast<std::uint64_t>(v);
}

// Runs n steps, calling each() after every `every` steps (and after the last one).
template <class F>
void run(vilab::Simulation& sim, std::uint64_t steps, std::uint64_t every, F&& each) {
  std::uint64_t done = 0;
  while (done < steps) {
    const std::uint64_t chunk = every > 0 ? std::min(steps - done, every - done % every) : steps - done;
    sim.advance(chunk);
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
    std::uint64_t steps = 0, every = 1;
    bool haveSteps = false;
    for (int i = 3; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--steps" && i + 1 < argc) {
        steps = parseCount("--steps", argv[++i]);
        haveSteps = true;
      } else if (a == "--every" && i + 1 < argc) {
        every = parseCount("--every", argv[++i]);
        if (every == 0) throw vilab::InputError(vilab::InputErrorCode::Range, "--every", "must be at least 1");
      } else {
        return usage(2);
      }
    }
    if (!haveSteps) throw vilab::InputError(vilab::InputErrorCode::Missing, "--steps", "is required");
    vilab::Simulation sim(vilab::parseScenario(readScenario(argv[2])));
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
    std::fprintf(stderr, "vilab: %s\n", vilab::boundedMessage(e.what()).c_str());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "vilab: memory: out of memory\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vilab: %s\n", vilab::boundedMessage(e.what()).c_str());
    return 2;
  }
}
