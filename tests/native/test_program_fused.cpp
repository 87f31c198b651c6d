// The fused form of expression programs (Program::run) against the reference that
// interprets the SSA list one instruction at a time (Program::runReference): the same
// bits on every program of every shipped scene, on the expression fuzzer's corpus and on
// 10,000 random Lagrangians differentiated twice as the fuzzer does.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "support.hpp"
#include "vilab/expr/parse.hpp"
#include "vilab/models/lagrangian.hpp"

using namespace vilab;
using vilab::test::dspAsData;
using vilab::test::lagrangianScene;

namespace {

bool sameBits(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// Runs both forms at `points` random variable vectors; counts the outputs compared and
// returns the first that differs ("" when none).
std::string compare(const expr::Program& program, int variables, std::mt19937_64& rng, int points, long& compared) {
  std::uniform_real_distribution<double> value(-3.0, 3.0);
  std::vector<double> at(static_cast<std::size_t>(std::max(variables, 1)));
  std::vector<double> fast(static_cast<std::size_t>(program.outputs())), reference(fast.size());
  std::vector<double> fastRegisters, referenceRegisters;
  for (int p = 0; p < points; ++p) {
    for (double& x : at) x = p == 0 ? 0.0 : value(rng);  // 0 as well: signs of zero, 0/0
    program.run(at.data(), fast.data(), fastRegisters);
    program.runReference(at.data(), reference.data(), referenceRegisters);
    for (std::size_t k = 0; k < fast.size(); ++k) {
      ++compared;
      if (!sameBits(fast[k], reference[k]))
        return "output " + std::to_string(k) + " at point " + std::to_string(p) + ": " + std::to_string(fast[k]) +
               " vs " + std::to_string(reference[k]);
    }
  }
  return "";
}

std::vector<const expr::Program*> programsOf(const LagrangianProblem& P) {
  return {&P.gradient,   &P.hessian,      &P.energyTerms, &P.lagrangian,    &P.constraints, &P.dynamics,
          &P.quantities, &P.momentumMaps, &P.positions,   &P.symmetryCheck, &P.forces,      &P.forceJacobian};
}

// A random expression over the fuzzer's scope: sums and products of powers, quotients and
// elementary functions of the coordinates, their velocities, t and the constants.
std::string randomExpression(std::mt19937_64& rng, int n, int depth) {
  static const char* const names[] = {"x", "th", "phi", "q1", "r", "z", "psi", "y"};
  static const char* const constants[] = {"m", "g", "l", "k", "pi", "0.5", "2", "3.25", "1e-3"};
  static const char* const functions[] = {"sin", "cos", "tan", "exp", "log", "sqrt", "abs"};
  auto pick = [&](int size) { return static_cast<int>(rng() % static_cast<unsigned>(size)); };
  if (depth <= 0 || pick(5) == 0) {
    switch (pick(4)) {
      case 0: return constants[pick(9)];
      case 1: return "t";
      case 2: return std::string(names[pick(n)]) + "'";
      default: return names[pick(n)];
    }
  }
  const std::string a = randomExpression(rng, n, depth - 1);
  switch (pick(10)) {
    case 0:
    case 1: return "(" + a + " + " + randomExpression(rng, n, depth - 1) + ")";
    case 2: return "(" + a + " - " + randomExpression(rng, n, depth - 1) + ")";
    case 3:
    case 4: return a + "*" + randomExpression(rng, n, depth - 1);
    case 5: return "(" + a + ")/(" + randomExpression(rng, n, depth - 1) + ")";
    case 6: return "(" + a + ")^" + std::to_string(pick(5) - 1);
    case 7: return "atan2(" + a + ", " + randomExpression(rng, n, depth - 1) + ")";
    case 8: return "(" + a + ")^(" + randomExpression(rng, n, depth - 1) + ")";
    default: return std::string(functions[pick(7)]) + "(" + a + ")";
  }
}

// The fuzzer's scope (tests/fuzz/fuzz_expression.cpp) for n coordinates, velocities and t.
expr::Scope fuzzScope(int n) {
  static const char* const names[] = {"x", "th", "phi", "q1", "r", "z", "psi", "y"};
  expr::Scope scope;
  for (int i = 0; i < n; ++i) scope.coordinates.push_back(names[i]);
  scope.constants = {{"m", 1.5}, {"g", 9.81}, {"l", 0.75}, {"k", 1e3}};
  scope.velocities = true;
  scope.time = true;
  scope.timeUse = "here";
  return scope;
}

// The expression, its gradient and its Hessian in (q, q', t): the fuzzer's program.
expr::Program lagrangianProgram(expr::Graph& graph, int node, int variables) {
  return expr::Program(graph, graph.valueGradientHessian(node, variables));
}

}  // namespace

TEST_CASE("the fused interpreter gives the reference's bits on every shipped scene's programs", "[expr][fused]") {
  std::vector<std::pair<std::string, Json>> scenes;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(VILAB_SCENES_DIR) + "/lagrangian")) {
    const std::string name = entry.path().stem().string();
    scenes.emplace_back(name, lagrangianScene(name));
  }
  scenes.emplace_back("the DSP as data", dspAsData());
  REQUIRE(scenes.size() >= 14);
  std::mt19937_64 rng(34);
  long compared = 0;
  int programs = 0, instructions = 0, dispatched = 0;
  for (const auto& [name, scene] : scenes) {
    INFO(name);
    Json normalized;
    const auto problem = compileLagrangian(scene.at("params"), normalized);
    for (const expr::Program* program : programsOf(*problem)) {
      CHECK(compare(*program, 2 * problem->n + 1, rng, 20, compared) == "");
      ++programs;
      instructions += program->instructions();
      dispatched += program->fusedInstructions();
    }
  }
  CHECK(programs == static_cast<int>(scenes.size()) * 12);
  CHECK(compared > 20000);
  // Variable loads, constants and folded products are not dispatched.
  CHECK(dispatched < instructions);
}

TEST_CASE("the fused interpreter gives the reference's bits on the expression fuzzer's corpus", "[expr][fused]") {
  const std::string dir = std::string(VILAB_SCENES_DIR) + "/../tests/fuzz/corpus/expression";
  std::mt19937_64 rng(3);
  long compared = 0;
  int parsed = 0, files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    const std::string data = bytes.str();
    ++files;
    if (data.empty()) continue;
    const int n = 1 + (data[0] & 7);
    expr::Scope scope = fuzzScope(n);
    scope.velocities = (data[0] & 8) == 0;
    scope.time = (data[0] & 16) != 0;
    expr::Graph graph;
    int node = -1;
    try {
      node = expr::parseExpression(data.substr(1), "lagrangian", scope, graph).node;
    } catch (const std::exception&) {
      continue;
    }
    ++parsed;
    INFO(data.substr(1));
    CHECK(compare(lagrangianProgram(graph, node, 2 * n + 1), 2 * n + 1, rng, 8, compared) == "");
  }
  CHECK(files > 10);
  CHECK(parsed > 5);
}

TEST_CASE("the fused interpreter gives the reference's bits on 10,000 random programs", "[expr][fused]") {
  std::mt19937_64 rng(20260);
  long compared = 0;
  int programs = 0, instructions = 0, dispatched = 0;
  for (int k = 0; k < 10000; ++k) {
    const int n = 1 + static_cast<int>(rng() % 4);
    const std::string text = randomExpression(rng, n, 2 + static_cast<int>(rng() % 3));
    expr::Graph graph;
    int node = -1;
    try {
      node = expr::parseExpression(text, "lagrangian", fuzzScope(n), graph).node;
    } catch (const std::exception&) {
      continue;
    }
    ++programs;
    const expr::Program program = lagrangianProgram(graph, node, 2 * n + 1);
    const std::string diff = compare(program, 2 * n + 1, rng, 3, compared);
    if (!diff.empty()) FAIL(text + ": " + diff);
    instructions += program.instructions();
    dispatched += program.fusedInstructions();
  }
  CHECK(programs == 10000);
  CHECK(compared > 900000);
  // Dispatched: 229,131 of the 349,375 instructions (variable loads, constants and folded
  // products left out).
  CHECK(dispatched <= 0.7 * instructions);
}

// Not a test (hidden: run with '[.interpreter-speed]'): ns per SSA instruction of the
// reference and the fused form on the DSP as data's step programs, CPU time, interleaved.
TEST_CASE("interpreter speed on the DSP as data", "[.interpreter-speed]") {
  Json normalized;
  const auto problem = compileLagrangian(dspAsData().at("params"), normalized);
  const int variables = 2 * problem->n + 1;
  std::vector<double> at(static_cast<std::size_t>(variables));
  for (int i = 0; i < variables; ++i) at[static_cast<std::size_t>(i)] = 0.1 + 0.05 * i;
  const auto cpu = [] {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
  };
  for (const auto& [name, program] :
       std::vector<std::pair<std::string, const expr::Program*>>{{"constraints", &problem->constraints},
                                                                 {"energyTerms", &problem->energyTerms},
                                                                 {"dynamics", &problem->dynamics},
                                                                 {"hessian", &problem->hessian},
                                                                 {"gradient", &problem->gradient},
                                                                 {"quantities", &problem->quantities}}) {
    std::vector<double> out(static_cast<std::size_t>(program->outputs())), r1, r2;
    constexpr int kRuns = 200000;
    double reference = 1e300, fused = 1e300, sink = 0;
    for (int round = 0; round < 7; ++round) {
      double t0 = cpu();
      for (int k = 0; k < kRuns; ++k) {
        at[0] += 1e-12;
        program->runReference(at.data(), out.data(), r1);
        sink += out[0];
      }
      reference = std::min(reference, (cpu() - t0) / kRuns);
      t0 = cpu();
      for (int k = 0; k < kRuns; ++k) {
        at[0] += 1e-12;
        program->run(at.data(), out.data(), r2);
        sink += out[0];
      }
      fused = std::min(fused, (cpu() - t0) / kRuns);
    }
    WARN(name << ": " << program->instructions() << " instructions (" << program->fusedInstructions()
              << " dispatched fused); reference " << reference << " ns (" << reference / program->instructions()
              << " ns/instruction), fused " << fused << " ns (" << fused / program->instructions()
              << " ns/instruction), ratio " << reference / fused << (sink == 0.5 ? " " : ""));
  }
}
