// The one parser of typed expressions (L(q, q̇), constraints, conserved quantities,
// symmetry generators, body positions), used by every entry point: scenario parsing
// (page, JS API, CLI, links) and the editor's preview (lab.inspectLagrangian).
//
// Grammar (PEGTL, core/src/expr/parse.cpp):
//   expression := term (('+' | '-') term)*
//   term       := unary (('*' | '/') unary)*
//   unary      := ('-' | '+') unary | power
//   power      := primary ('^' unary)?             right-associative; -x^2 = -(x^2)
//   primary    := number | function '(' expression (',' expression)* ')' | name ['\''] | '(' expression ')'
// Names: coordinates q, their velocities q' or qdot, constants, pi, t. Functions: sqrt
// sin cos tan exp log atan2 abs. Nothing else is callable: no host language is reached.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "vilab/expr/graph.hpp"
#include "vilab/types.hpp"

namespace vilab::expr {

// A bad expression: an InputError whose message says "at column c" (1-based, in
// characters of the expression's text).
class ExpressionError : public InputError {
 public:
  // The message reads "<field>: <problem> at column <c><detail>".
  ExpressionError(InputErrorCode code, const std::string& field, const std::string& problem, int column,
                  const std::string& detail = "");
  int column() const { return column_; }

 private:
  int column_;
};

// What names mean in one expression. Variables of the graph: q_i = i, q̇_i = n + i,
// t = 2n (n = coordinates.size()).
struct Scope {
  std::vector<std::string> coordinates;
  std::vector<std::pair<std::string, double>> constants;
  bool velocities = true;    // q' allowed (L, conserved quantities); false for g(q), ξ(q), bodies
  bool time = false;         // t allowed
  const char* timeUse = "";  // why t is not allowed here, for the message
  // When ≥ 0, constant k is the variable symbols + k and pi the variable symbols +
  // constants.size() (the editor's equations keep their names); else their values.
  int symbols = -1;
};

struct Parsed {
  int node = -1;      // in the graph
  std::string latex;  // for the editor's preview
};

constexpr int kMaxExpressionBytes = 4096;
constexpr int kMaxNesting = 64;

// Parses `text` into `graph` (field names the JSON field for messages).
// Throws ExpressionError (syntax, unknown names, limits) or InputError.
Parsed parseExpression(const std::string& text, const std::string& field, const Scope& scope, Graph& graph);

// A name as LaTeX: Greek letters (th, ph as θ, φ), trailing digits or _x as a subscript.
std::string latexName(const std::string& name);

// True for names reserved by the language (functions, pi, t).
bool reservedName(const std::string& name);
// True for a valid identifier: [A-Za-z_][A-Za-z0-9_]*.
bool validIdentifier(const std::string& name);

}  // namespace vilab::expr
