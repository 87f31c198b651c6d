// vilab command-line interface.
//   vilab run  scenario.json --steps N [--every K] [--out file.csv]   CSV trajectory
//   vilab hash scenario.json --steps N                               run fingerprint
//   vilab integrate scenario.json --steps N [--every K] [--include energy,momentum]
//                                                                    the trajectory (integrate()) as CSV
//   vilab import model.xml                                           a MuJoCo model (MJCF) as a scenario
//   vilab registry                                                   systems and integrators as JSON
//   vilab --version
#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "vilab/csv.hpp"
#include "vilab/mjcf.hpp"
#include "vilab/simulation.hpp"
#include "vilab/trajectory.hpp"

namespace {

int usage(int code) {
  std::fprintf(code ? stderr : stdout,
               "usage:\n"
               "  vilab run  <scenario.json|-> --steps N [--every K]   write CSV to stdout\n"
               "  vilab hash <scenario.json|-> --steps N               print the FNV-1a 64 state hash\n"
               "  vilab integrate <scenario.json|-> --steps N [--every K] [--include a,b]\n"
               "                                                      write the trajectory as CSV\n"
               "  vilab import <model.xml|->                          print a MuJoCo model (MJCF) as a scenario\n"
               "  vilab registry                                      print the registries as JSON\n"
               "  vilab --version                                     print the version\n");
  return code;
}

// Standard output could not be written: `error` is errno (EPIPE: the reader has gone,
// as under `| head`, which is not a failure).
struct OutputError {
  int error;
};

// Writes all of `text` to stdout, or throws OutputError.
void write(const std::string& text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) throw OutputError{errno};
}

// Flushes stdout, or throws OutputError (a full disk shows here, at the latest).
void flush() {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) throw OutputError{errno};
}

// errno's name (ENOSPC, EBADF, …): the same words as the wasm CLI, which has Node's codes.
std::string errnoName(int error) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
  if (const char* name = strerrorname_np(error)) return name;
#endif
  return "errno " + std::to_string(error);
}

// A message on stderr, whole (a length-delimited write: no NUL cuts it).
void report(const std::string& message) {
  const std::string line = "vilab: " + vilab::boundedMessage(message) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

// The scenario's bytes, read up to one byte past the limit (so /dev/zero or an endless
// pipe is refused at once), checked to be UTF-8 text before anything parses it.
std::string readScenario(const std::string& path) {
  // A closed standard input is said so, in both CLIs alike (scripts/vilab-cli.mjs).
  if (path == "-" && fcntl(0, F_GETFD) == -1) throw std::runtime_error("cannot read - (standard input is closed)");
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

// A count: decimal digits only, given in full (no sign, space or empty text), in
// [0, kMaxSteps].
std::uint64_t parseCount(const char* flag, const char* text) {
  const std::string shown = *text ? vilab::cutForMessage(text) : "\"\" (nothing)";
  const bool digits = *text && std::strspn(text, "0123456789") == std::strlen(text);
  if (!digits)
    throw vilab::InputError(vilab::InputErrorCode::Range, flag, "must be a non-negative integer, got " + shown);
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text, &end, 10);
  if (errno == ERANGE || static_cast<std::uint64_t>(v) > vilab::limits::kMaxSteps)
    throw vilab::InputError(vilab::InputErrorCode::Range, flag,
                            "must be at most " + std::to_string(vilab::limits::kMaxSteps) + ", got " + shown);
  return static_cast<std::uint64_t>(v);
}

// Runs n steps, calling each() after every `every` steps (and after the last one).
template <class F>
void advanceEvery(vilab::Simulation& sim, std::uint64_t steps, std::uint64_t every, F&& each) {
  std::uint64_t done = 0;
  while (done < steps) {
    const std::uint64_t chunk = every > 0 ? std::min(steps - done, every - done % every) : steps - done;
    sim.advance(chunk);
    done += chunk;
    if (every > 0 && done % every == 0) each();
  }
}

// "a,b,c" → {"a", "b", "c"} ("" → none).
std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (!text.empty() && start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

// The trajectory of integrate() as CSV: its column names, then one row per sample at
// %.17g; a refused step exits 1 after the rows before it (as `run`).
int integrateCommand(vilab::Simulation& sim, const vilab::TrajectoryRequest& request) {
  const vilab::Trajectory traj = vilab::integrate(sim, request);
  std::string text;
  for (std::size_t c = 0; c < traj.columns.size(); ++c) text += (c ? "," : "") + traj.columns[c];
  write(text + "\n");
  char buf[40];
  for (std::uint64_t k = 0; k < traj.samples; ++k) {
    text.clear();
    for (std::size_t c = 0; c < traj.columns.size(); ++c) {
      std::snprintf(buf, sizeof buf, "%.17g", traj.data[c * traj.samples + k]);
      text += (c ? "," : "") + std::string(buf);
    }
    write(text + "\n");
  }
  if (!traj.refusal) return 0;
  flush();
  report(traj.refusal->message);
  return 1;
}

}  // namespace

int command(int argc, char** argv);

int main(int argc, char** argv) {
  // A reader that goes away (| head) makes writes fail with EPIPE instead of killing
  // the process, so the run stops quietly with exit 0.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    // A closed stdout (>&-) fails now, before any work, and before a file opened
    // later could take its descriptor.
    if (fcntl(1, F_GETFD) == -1) throw OutputError{EBADF};
    const int code = command(argc, argv);
    flush();
    return code;
  } catch (const OutputError& e) {
    if (e.error == EPIPE) return 0;
    report("stdout: cannot write (" + errnoName(e.error) + ")");
    return 2;
  }
}

int command(int argc, char** argv) {
  if (argc < 2) return usage(2);
  const std::string cmd = argv[1];
  try {
    if (cmd == "--help" || cmd == "-h") return usage(0);
    if (cmd == "--version" || cmd == "-V") {
      write(std::string("vilab ") + VILAB_VERSION + "\n");
      return 0;
    }
    if (cmd == "registry") {
      write(vilab::registryJson().dump(2) + "\n");
      return 0;
    }
    if (cmd == "import") {
      if (argc != 3) return usage(2);
      write(vilab::importMjcf(readScenario(argv[2])).dump(2) + "\n");
      return 0;
    }
    if (cmd != "run" && cmd != "hash" && cmd != "integrate") return usage(2);
    if (argc < 3) return usage(2);
    std::uint64_t steps = 0, every = 1;
    std::vector<std::string> include;
    bool haveSteps = false;
    for (int i = 3; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--steps" && i + 1 < argc) {
        steps = parseCount("--steps", argv[++i]);
        haveSteps = true;
      } else if (a == "--every" && i + 1 < argc) {
        every = parseCount("--every", argv[++i]);
        if (every == 0) throw vilab::InputError(vilab::InputErrorCode::Range, "--every", "must be at least 1");
      } else if (a == "--include" && i + 1 < argc && cmd == "integrate") {
        include = splitList(argv[++i]);
      } else {
        return usage(2);
      }
    }
    if (!haveSteps) throw vilab::InputError(vilab::InputErrorCode::Missing, "--steps", "is required");
    if (cmd == "integrate") {
      vilab::Simulation sim(vilab::parseScenario(readScenario(argv[2])), vilab::trajectorySimulationOptions());
      return integrateCommand(sim, vilab::TrajectoryRequest{steps, every, include});
    }
    vilab::Simulation sim(vilab::parseScenario(readScenario(argv[2])));
    if (cmd == "hash") {
      advanceEvery(sim, steps, 0, [] {});
      write(sim.hash() + "\n");
      return 0;
    }
    write(vilab::csvHeader(sim) + "\n");
    write(vilab::csvRow(sim) + "\n");
    advanceEvery(sim, steps, every, [&] { write(vilab::csvRow(sim) + "\n"); });
    return 0;
  } catch (const vilab::StepFailure& e) {
    flush();  // the rows before the refused step come first
    report(e.message());
    return 1;
  } catch (const vilab::InputError& e) {
    report(e.message());
    return 2;
  } catch (const std::bad_alloc&) {
    report("memory: out of memory");
    return 2;
  } catch (const std::exception& e) {
    report(e.what());
    return 2;
  }
}
