// libFuzzer target: the expression parser and compiler (core/src/expr). Input: one
// byte choosing the scope (how many coordinates, whether q' and t are allowed), then
// the expression's text. Accepted expressions are differentiated twice (the gradient
// and Hessian a Lagrangian needs), compiled into one program and run; the program
// must agree bit for bit with evaluating the graph node by node (graph.hpp: folded
// and evaluated values agree), and the LaTeX must be UTF-8.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "check.hpp"
#include "vilab/expr/parse.hpp"

namespace {

using namespace vilab::expr;

// The value of every node, from its operands (nodes are created after their operands).
std::vector<double> evaluateGraph(const Graph& g, const std::vector<double>& variables) {
  std::vector<double> x(static_cast<std::size_t>(g.size()));
  for (int i = 0; i < g.size(); ++i) {
    const Node& n = g[i];
    x[i] = n.op == Op::Const ? n.value
           : n.op == Op::Var ? variables[static_cast<std::size_t>(n.n)]
                             : apply(n.op, x[n.a], n.b >= 0 ? x[n.b] : 0.0, n.n);
  }
  return x;
}

bool sameBits(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  static const char* const names[] = {"x", "th", "phi", "q1", "r", "z", "psi", "y"};
  Scope scope;
  const int n = 1 + (data[0] & 7);
  for (int i = 0; i < n; ++i) scope.coordinates.push_back(names[i]);
  scope.constants = {{"m", 1.5}, {"g", 9.81}, {"l", 0.75}, {"k", 1e3}};
  scope.velocities = (data[0] & 8) == 0;
  scope.time = (data[0] & 16) != 0;
  scope.timeUse = "here";
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);

  Graph graph;
  Parsed parsed;
  if (!vilab::fuzz::clean("parseExpression", [&] { parsed = parseExpression(text, "lagrangian", scope, graph); }))
    return 0;
  if (parsed.node < 0 || parsed.node >= graph.size()) vilab::fuzz::finding("parsed node out of the graph", text);
  if (!vilab::fuzz::wellFormed(parsed.latex)) vilab::fuzz::finding("LaTeX not UTF-8", text);

  // The derivatives a Lagrangian's programs take: gradient and Hessian in (q, q', t).
  const int variables = 2 * n + 1;
  const std::vector<int> outputs = graph.valueGradientHessian(parsed.node, variables);
  for (int k : outputs)
    for (int v = variables; v < 64; ++v)
      if (graph.dependsOn(k, v)) vilab::fuzz::finding("depends on a variable outside the scope", text);

  const Program program(graph, outputs);
  std::vector<double> at(static_cast<std::size_t>(variables));
  for (int i = 0; i < variables; ++i) at[static_cast<std::size_t>(i)] = 0.25 + 0.375 * i - (i % 3 == 2 ? 2.0 : 0.0);
  std::vector<double> out(outputs.size()), registers;
  program.run(at.data(), out.data(), registers);
  program.run(at.data(), out.data(), registers);  // the second run reuses the registers' constants
  const std::vector<double> reference = evaluateGraph(graph, at);
  for (std::size_t k = 0; k < outputs.size(); ++k)
    if (!sameBits(out[k], reference[static_cast<std::size_t>(outputs[k])]))
      vilab::fuzz::finding("the program differs from the graph", text + " (output " + std::to_string(k) + ")");
  return 0;
}
