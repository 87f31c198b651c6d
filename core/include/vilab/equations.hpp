// The mechanics of a typed Lagrangian, as the editor shows them: the momenta
// p = ∂L/∂q̇, the mass matrix ∂²L/∂q̇², the Euler–Lagrange equations
//     d/dt ∂L/∂q̇ − ∂L/∂q = F + Dg(q)ᵀλ,   g(q) = 0,
// and the discrete Euler–Lagrange equations of a quadrature rule (W–M eq. 4.4 with
// p_k = D2 L_d(q_{k−1}, q_k), and M–W §3.2 for the forces)
//     D2 L_d(q_{k−1}, q_k) + D1 L_d(q_k, q_{k+1}) + f_d^+ + f_d^− + Dg(q_k)ᵀλ_k = 0,
//     g(q_{k+1}) = 0,
// each from the derivative graph (expr/graph.hpp), simplified and printed as LaTeX and
// as plain infix (expr/display.hpp). Constants keep their names while the graph has
// variables for them (64 in all); beyond that their values are printed.
#pragma once

#include <string>
#include <vector>

#include "vilab/discrete_lagrangian.hpp"
#include "vilab/expr/display.hpp"
#include "vilab/json.hpp"

namespace vilab {

struct ShownEquation {
  std::string latex;      // the whole equation ("p_{x} = m \dot{x}")
  std::string infix;      // its residual expression as plain text (lhs − rhs)
  expr::SymPtr residual;  // the same, simplified, over the variables of its table
};

struct MotionEquations {
  std::vector<std::string> coordinates;
  bool symbolicConstants = true;
  Quadrature rule = Quadrature::Midpoint;
  double alpha = 0.5;
  std::vector<ShownEquation> momenta;        // residual: ∂L/∂q̇_i
  std::vector<ShownEquation> mass;           // n×n row-major, residual: ∂²L/∂q̇_i∂q̇_j
  std::string massLatex;                     // M = (pmatrix)
  std::vector<ShownEquation> eulerLagrange;  // one per coordinate, then g_a(q) = 0
  std::vector<ShownEquation> discrete;       // one per coordinate, then g_a(q_{k+1}) = 0
  // The variables of the continuous equations: q (n), q̇ (n), t, q̈ (n), λ (c), then the
  // constants and pi; of the discrete ones: q_{k−1}, q_k, q_{k+1} (n each), h, λ (c),
  // the constants and pi, t_k.
  expr::SymbolTable continuous, discreteNames;
  std::string latex;  // every equation, one LaTeX block (what the editor's Copy copies)
};

// The rules the editor can show ("midpoint", "trapezoid", "alpha").
const std::vector<std::string>& equationRules();

// From the `params` of system "lagrangian" (validated as the engine does: an error
// names the field) and a rule of equationRules() (field "rule"; alpha in [0, 1]).
MotionEquations motionEquations(const Json& params, const std::string& rule, double alpha);

}  // namespace vilab
