// Expressions of the derivative graph as a person writes them: a simplified sum of
// products (numbers folded, like terms and equal factors collected, a product over a
// sum distributed, no 0·x, 1·x or x + 0, x·x as x², the signs collected in front of
// each term), printed as LaTeX (KaTeX) or as plain infix text the parser reads back.
// Cold: the editor's equations, once per definition.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "vilab/expr/graph.hpp"

namespace vilab::expr {

// What each variable of a graph is called, and where it goes in a product (smaller
// rank first: constants before coordinates before functions).
struct SymbolTable {
  std::vector<std::string> latex, infix;
  std::vector<int> rank;
};

struct Sym;
using SymPtr = std::shared_ptr<const Sym>;

// atom^exponent, an integer exponent ≠ 0.
struct Factor {
  SymPtr atom;
  int exponent = 1;
};

// coefficient · Π factors.
struct Term {
  double coefficient = 1;
  std::vector<Factor> factors;
  std::string key;  // the factors' canonical text: like terms share it
};

// A sum of terms (every value), or an atom: a variable, a function of sums, a general
// power base^exponent.
struct Sym {
  enum class Kind { Sum, Variable, Call, Power };
  Kind kind = Kind::Sum;
  std::vector<Term> terms;   // Sum
  int variable = -1;         // Variable
  Op op = Op::Const;         // Call: Sqrt … Atan2
  std::vector<SymPtr> args;  // Call's arguments; Power: base, exponent (sums)
  std::string key;           // canonical text
};

// The simplified form of a graph node.
SymPtr simplify(const Graph& graph, int node, const SymbolTable& names);

// Arithmetic on simplified forms (the results simplified again).
SymPtr number(double x);
SymPtr plus(const SymPtr& a, const SymPtr& b);
SymPtr minus(const SymPtr& a, const SymPtr& b);
SymPtr times(const SymPtr& a, const SymPtr& b);

bool isZero(const SymPtr& s);
std::string toLatex(const SymPtr& s, const SymbolTable& names);
std::string toInfix(const SymPtr& s, const SymbolTable& names);
// The value at the variables (indexed as the graph's).
double evaluate(const SymPtr& s, const double* variables);

}  // namespace vilab::expr
