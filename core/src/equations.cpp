// The editor's equations of a typed Lagrangian (see equations.hpp).
#include "vilab/equations.hpp"

#include <algorithm>
#include <functional>
#include <unordered_map>

#include "vilab/expr/parse.hpp"
#include "vilab/models/lagrangian.hpp"

namespace vilab {

namespace {

using expr::Graph;
using expr::SymPtr;

// The definition's parts, as the engine normalized them.
struct Definition {
  std::vector<std::string> coordinates;
  std::vector<std::pair<std::string, double>> constants;
  std::string lagrangian, latex;
  std::vector<std::string> constraints, forces;
  double damping = 0;
};

Definition readDefinition(const Json& params) {
  Json normalized;
  const auto problem = inspectLagrangian(params, normalized);
  Definition d;
  d.coordinates = normalized["coordinates"].get<std::vector<std::string>>();
  for (auto it = normalized["constants"].begin(); it != normalized["constants"].end(); ++it)
    d.constants.emplace_back(it.key(), it.value().get<double>());
  d.lagrangian = normalized["lagrangian"].get<std::string>();
  d.latex = problem->latex.at(0);
  d.constraints = normalized["constraints"].get<std::vector<std::string>>();
  if (normalized.contains("damping")) d.damping = normalized["damping"].get<double>();
  if (normalized.contains("forces")) d.forces = normalized["forces"].get<std::vector<std::string>>();
  return d;
}

// "θ" with a subscript (k-1, k, k+1): joined to one it already has ("q_{1}" → "q_{1,k}").
std::string subscripted(const std::string& latex, const std::string& sub) {
  if (latex.size() > 2 && latex.back() == '}') {
    const auto open = latex.rfind("_{");
    if (open != std::string::npos) return latex.substr(0, latex.size() - 1) + "," + sub + "}";
  }
  return latex + "_{" + sub + "}";
}

void name(expr::SymbolTable& t, int index, const std::string& latex, const std::string& infix, int rank) {
  const auto size = static_cast<std::size_t>(index) + 1;
  if (t.latex.size() < size) t.latex.resize(size), t.infix.resize(size), t.rank.resize(size, 50);
  t.latex[static_cast<std::size_t>(index)] = latex;
  t.infix[static_cast<std::size_t>(index)] = infix;
  t.rank[static_cast<std::size_t>(index)] = rank;
}

std::string multiplierLatex(int a, int c, const char* step) {
  const std::string k = step;
  if (c == 1) return k.empty() ? "\\lambda" : "\\lambda_{" + k + "}";
  return "\\lambda_{" + std::to_string(a + 1) + (k.empty() ? "" : "," + k) + "}";
}

// Rebuilds a node of `from` in `to` with each variable replaced by map[variable].
class Substitution {
 public:
  Substitution(const Graph& from, Graph& to, std::vector<int> map) : from_(from), to_(to), map_(std::move(map)) {}
  int operator()(int id) {
    const auto it = memo_.find(id);
    if (it != memo_.end()) return it->second;
    const expr::Node n = from_[id];
    int out = 0;
    switch (n.op) {
      case expr::Op::Const: out = to_.constant(n.value); break;
      case expr::Op::Var: out = map_[static_cast<std::size_t>(n.n)]; break;
      case expr::Op::Add: out = to_.add((*this)(n.a), (*this)(n.b)); break;
      case expr::Op::Sub: out = to_.sub((*this)(n.a), (*this)(n.b)); break;
      case expr::Op::Mul: out = to_.mul((*this)(n.a), (*this)(n.b)); break;
      case expr::Op::Div: out = to_.div((*this)(n.a), (*this)(n.b)); break;
      case expr::Op::Neg: out = to_.neg((*this)(n.a)); break;
      case expr::Op::PowInt: out = to_.powInt((*this)(n.a), n.n); break;
      case expr::Op::Pow: out = to_.pow((*this)(n.a), (*this)(n.b)); break;
      case expr::Op::Atan2: out = to_.atan2((*this)(n.a), (*this)(n.b)); break;
      default: out = to_.unary(n.op, (*this)(n.a));
    }
    memo_.emplace(id, out);
    return out;
  }

 private:
  const Graph& from_;
  Graph& to_;
  std::vector<int> map_;
  std::unordered_map<int, int> memo_;
};

class Builder {
 public:
  Builder(const Definition& d, Quadrature rule, double alpha)
      : d_(d), n_(static_cast<int>(d.coordinates.size())), c_(static_cast<int>(d.constraints.size())) {
    out_.rule = rule;
    out_.alpha = alpha;
    out_.coordinates = d.coordinates;
    // λ_k at 3n + 1 + k, t_k after them, then the constants and pi.
    tk_ = 3 * n_ + 1 + c_;
    base_ = tk_ + 1;
    if (base_ > 64)
      throw InputError(InputErrorCode::TooLarge, "params.constraints",
                       "the equations are shown for 3n + c + 2 ≤ 64 variables (n coordinates, c constraints)");
    const int constants = static_cast<int>(d.constants.size());
    out_.symbolicConstants = base_ + constants + 1 <= 64;
    pi_ = base_ + constants;
    nameVariables();
    parse(out_.symbolicConstants ? base_ : -1);
  }

  MotionEquations build() {
    continuous();
    discrete();
    document();
    return std::move(out_);
  }

 private:
  int q(int i) const { return i; }
  int v(int i) const { return n_ + i; }
  int t() const { return 2 * n_; }
  int a(int i) const { return 2 * n_ + 1 + i; }
  int lambda(int k) const { return 3 * n_ + 1 + k; }

  void nameVariables() {
    auto& C = out_.continuous;
    auto& D = out_.discreteNames;
    for (int i = 0; i < n_; ++i) {
      const std::string& c = d_.coordinates[static_cast<std::size_t>(i)];
      const std::string l = expr::latexName(c);
      name(C, q(i), l, c, 10);
      name(C, v(i), "\\dot{" + l + "}", c + "'", 11);
      name(C, a(i), "\\ddot{" + l + "}", c + "''", 12);
      name(D, i, subscripted(l, "k-1"), c + "_km1", 10);
      name(D, n_ + i, subscripted(l, "k"), c + "_k", 11);
      name(D, 2 * n_ + i, subscripted(l, "k+1"), c + "_kp1", 12);
    }
    name(C, t(), "t", "t", 5);
    name(D, 3 * n_, "h", "h", 1);
    for (int k = 0; k < c_; ++k) {
      const std::string infix = "lambda" + std::to_string(k + 1);
      name(C, lambda(k), multiplierLatex(k, c_, ""), infix, 2);
      name(D, lambda(k), multiplierLatex(k, c_, "k"), infix, 2);
    }
    for (std::size_t k = 0; k < d_.constants.size(); ++k) {
      const std::string& c = d_.constants[k].first;
      name(C, base_ + static_cast<int>(k), expr::latexName(c), c, 0);
      name(D, base_ + static_cast<int>(k), expr::latexName(c), c, 0);
    }
    name(C, pi_, "\\pi", "pi", 0);
    name(D, pi_, "\\pi", "pi", 0);
    name(D, tk_, "t_{k}", "t_k", 5);
    name(C, tk_, "t_{k}", "t_k", 5);  // unused: the tables index alike
  }

  void parse(int symbols) {
    expr::Scope scope;
    scope.coordinates = d_.coordinates;
    scope.constants = d_.constants;
    scope.symbols = symbols;
    scope.velocities = true;
    scope.time = true;
    L_ = expr::parseExpression(d_.lagrangian, "params.lagrangian", scope, G_).node;
    for (int i = 0; i < n_; ++i) {
      int F = i < static_cast<int>(d_.forces.size())
                  ? expr::parseExpression(d_.forces[static_cast<std::size_t>(i)],
                                          "params.forces[" + std::to_string(i) + "]", scope, G_)
                        .node
                  : G_.constant(0);
      if (d_.damping != 0) F = G_.sub(F, G_.mul(G_.constant(d_.damping), G_.variable(v(i))));
      F_.push_back(F);
    }
    scope.velocities = false;
    scope.time = false;
    for (int k = 0; k < c_; ++k)
      g_.push_back(expr::parseExpression(d_.constraints[static_cast<std::size_t>(k)],
                                         "params.constraints[" + std::to_string(k) + "]", scope, G_)
                       .node);
  }

  ShownEquation shown(const SymPtr& lhs, const SymPtr& rhs, const expr::SymbolTable& names,
                      const std::string& lhsLatex = "") {
    ShownEquation e;
    e.residual = lhsLatex.empty() ? expr::minus(lhs, rhs) : lhs;
    e.latex = (lhsLatex.empty() ? expr::toLatex(lhs, names) : lhsLatex) + " = " + expr::toLatex(rhs, names);
    e.infix = expr::toInfix(e.residual, names);
    return e;
  }

  SymPtr simplified(Graph& g, int node, const expr::SymbolTable& names) { return expr::simplify(g, node, names); }

  void continuous() {
    const auto& C = out_.continuous;
    std::vector<int> p(static_cast<std::size_t>(n_));
    for (int i = 0; i < n_; ++i) {
      p[i] = G_.derivative(L_, v(i));
      const SymPtr pi = simplified(G_, p[i], C);
      out_.momenta.push_back(shown(pi, pi, C, "p_{" + C.latex[q(i)] + "}"));
    }
    std::string rows;
    for (int i = 0; i < n_; ++i) {
      for (int j = 0; j < n_; ++j) {
        const SymPtr m = simplified(G_, G_.derivative(p[i], v(j)), C);
        ShownEquation e;
        e.residual = m;
        e.latex = expr::toLatex(m, C);
        e.infix = expr::toInfix(m, C);
        rows += (j ? " & " : "") + e.latex;
        out_.mass.push_back(std::move(e));
      }
      rows += i + 1 < n_ ? " \\\\ " : "";
    }
    out_.massLatex = "M = \\begin{pmatrix} " + rows + " \\end{pmatrix}";
    // d/dt ∂L/∂q̇_i − ∂L/∂q_i = F_i + Σ_a λ_a ∂g_a/∂q_i
    for (int i = 0; i < n_; ++i) {
      std::vector<int> terms = {G_.derivative(p[i], t()), G_.neg(G_.derivative(L_, q(i)))};
      for (int j = 0; j < n_; ++j) {
        terms.push_back(G_.mul(G_.derivative(p[i], q(j)), G_.variable(v(j))));
        terms.push_back(G_.mul(G_.derivative(p[i], v(j)), G_.variable(a(j))));
      }
      std::vector<int> rhs = {F_[i]};
      for (int k = 0; k < c_; ++k) rhs.push_back(G_.mul(G_.variable(lambda(k)), G_.derivative(g_[k], q(i))));
      out_.eulerLagrange.push_back(shown(simplified(G_, G_.sum(terms), C), simplified(G_, G_.sum(rhs), C), C));
    }
    for (int k = 0; k < c_; ++k) out_.eulerLagrange.push_back(shown(simplified(G_, g_[k], C), expr::number(0), C));
  }

  // The variables of the continuous graph mapped into the discrete one for a step from
  // q_{start} to q_{start+1} (start 0: k−1, 1: k), L sampled at weight w ∈ [0, 1].
  std::vector<int> stepMap(int start, double w) {
    std::vector<int> map(64, 0);
    const int h = D_.variable(3 * n_);
    const int tStart = start == 0 ? D_.sub(D_.variable(tk_), h) : D_.variable(tk_);
    for (int i = 0; i < n_; ++i) {
      const int qa = D_.variable(start * n_ + i), qb = D_.variable((start + 1) * n_ + i);
      map[q(i)] = w == 0 ? qa : w == 1 ? qb : D_.add(D_.mul(D_.constant(1 - w), qa), D_.mul(D_.constant(w), qb));
      map[v(i)] = D_.div(D_.sub(qb, qa), h);
    }
    map[t()] = D_.add(tStart, D_.mul(D_.constant(w), h));
    if (out_.symbolicConstants)
      for (int k = base_; k <= pi_; ++k) map[k] = D_.variable(k);
    return map;
  }

  int sampled(int node, int start, double w) { return Substitution(G_, D_, stepMap(start, w))(node); }

  // L_d over the step from `start`, and the forces f_d^+ (start 0) or f_d^− (start 1) on q_k.
  int discreteLagrangian(int start) {
    const int h = D_.variable(3 * n_);
    if (out_.rule == Quadrature::Trapezoid)
      return D_.mul(D_.mul(D_.constant(0.5), h), D_.add(sampled(L_, start, 0), sampled(L_, start, 1)));
    return D_.mul(h, sampled(L_, start, out_.rule == Quadrature::Alpha ? out_.alpha : 0.5));
  }

  int discreteForce(int i, int start) {
    const double w = out_.rule == Quadrature::Trapezoid ? (start == 0 ? 1.0 : 0.0)
                     : out_.rule == Quadrature::Alpha   ? out_.alpha
                                                        : 0.5;
    return D_.mul(D_.mul(D_.constant(0.5), D_.variable(3 * n_)), sampled(F_[i], start, w));
  }

  void discrete() {
    const auto& N = out_.discreteNames;
    const int S = D_.add(discreteLagrangian(0), discreteLagrangian(1));
    std::vector<int> gk, gNext;
    for (int k = 0; k < c_; ++k) {
      gk.push_back(sampled(g_[k], 0, 1));     // g(q_k)
      gNext.push_back(sampled(g_[k], 1, 1));  // g(q_{k+1})
    }
    for (int i = 0; i < n_; ++i) {
      std::vector<int> terms = {D_.derivative(S, n_ + i), discreteForce(i, 0), discreteForce(i, 1)};
      for (int k = 0; k < c_; ++k) terms.push_back(D_.mul(D_.variable(lambda(k)), D_.derivative(gk[k], n_ + i)));
      out_.discrete.push_back(shown(simplified(D_, D_.sum(terms), N), expr::number(0), N));
    }
    for (int k = 0; k < c_; ++k) out_.discrete.push_back(shown(simplified(D_, gNext[k], N), expr::number(0), N));
  }

  static std::string aligned(const std::string& latex) {
    const auto eq = latex.find(" = ");
    return eq == std::string::npos ? latex : latex.substr(0, eq) + " &= " + latex.substr(eq + 3);
  }

  void document() {
    std::string s = "% L, p = dL/dq', M = d2L/dq'2, the Euler-Lagrange equations, the discrete ones (";
    s += out_.rule == Quadrature::Trapezoid ? "trapezoid" : out_.rule == Quadrature::Alpha ? "alpha" : "midpoint";
    s += " rule)\n\\begin{aligned}\nL &= " + d_.latex + " \\\\\n";
    for (const auto& e : out_.momenta) s += aligned(e.latex) + " \\\\\n";
    s += aligned(out_.massLatex) + " \\\\\n";
    for (const auto& e : out_.eulerLagrange) s += aligned(e.latex) + " \\\\\n";
    for (std::size_t i = 0; i < out_.discrete.size(); ++i)
      s += aligned(out_.discrete[i].latex) + (i + 1 < out_.discrete.size() ? " \\\\\n" : "\n");
    out_.latex = s + "\\end{aligned}";
  }

  const Definition& d_;
  int n_, c_;
  int base_ = 0, pi_ = 0, tk_ = 0;
  Graph G_, D_;
  int L_ = -1;
  std::vector<int> F_, g_;
  MotionEquations out_;
};

}  // namespace

const std::vector<std::string>& equationRules() {
  static const std::vector<std::string> rules = {"midpoint", "trapezoid", "alpha"};
  return rules;
}

MotionEquations motionEquations(const Json& params, const std::string& rule, double alpha) {
  const auto& rules = equationRules();
  const auto it = std::find(rules.begin(), rules.end(), rule);
  if (it == rules.end())
    throw InputError(InputErrorCode::UnknownId, "rule",
                     "unknown rule \"" + cutForMessage(rule) + "\" (known: midpoint, trapezoid, alpha)");
  if (!(alpha >= 0 && alpha <= 1))
    throw InputError(InputErrorCode::Range, "alpha", "must be a number in [0, 1], got " + formatNumber(alpha));
  const Quadrature kinds[] = {Quadrature::Midpoint, Quadrature::Trapezoid, Quadrature::Alpha};
  const Definition d = readDefinition(params);
  return Builder(d, kinds[it - rules.begin()], alpha).build();
}

}  // namespace vilab
