// Simplified forms of graph nodes and their printing (see display.hpp).
#include "vilab/expr/display.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <unordered_map>

namespace vilab::expr {

namespace {

std::string numberKey(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

std::string factorKey(const Factor& f) { return f.atom->key + "^" + std::to_string(f.exponent); }

// Canonical factor order (by key), the term's key, and no factor of exponent 0.
Term normalized(Term t) {
  std::sort(t.factors.begin(), t.factors.end(),
            [](const Factor& a, const Factor& b) { return a.atom->key < b.atom->key; });
  std::vector<Factor> merged;
  for (const Factor& f : t.factors) {
    if (!merged.empty() && merged.back().atom->key == f.atom->key)
      merged.back().exponent += f.exponent;
    else
      merged.push_back(f);
    if (merged.back().exponent == 0) merged.pop_back();
  }
  t.factors = std::move(merged);
  t.key.clear();
  for (const Factor& f : t.factors) t.key += factorKey(f) + "*";
  return t;
}

SymPtr sumOf(std::vector<Term> terms) {
  auto s = std::make_shared<Sym>();
  s->kind = Sym::Kind::Sum;
  // Like terms collected, in order of first appearance; zero terms dropped.
  std::unordered_map<std::string, std::size_t> at;
  for (Term& t : terms) {
    t = normalized(std::move(t));
    const auto it = at.find(t.key);
    if (it == at.end()) {
      at.emplace(t.key, s->terms.size());
      s->terms.push_back(std::move(t));
    } else {
      s->terms[it->second].coefficient += t.coefficient;
    }
  }
  s->terms.erase(std::remove_if(s->terms.begin(), s->terms.end(), [](const Term& t) { return t.coefficient == 0; }),
                 s->terms.end());
  // The key does not depend on the order of the terms: x + y and y + x are one factor.
  std::vector<std::string> keys;
  for (const Term& t : s->terms) keys.push_back("+" + numberKey(t.coefficient) + "*" + t.key);
  std::sort(keys.begin(), keys.end());
  for (const auto& k : keys) s->key += k;
  if (s->terms.empty()) s->key = "0";
  return s;
}

// The sum of one atom.
SymPtr ofAtom(const SymPtr& atom) {
  // A sum that is one bare atom (1·a¹) is that atom, not a sum of it.
  if (atom->kind == Sym::Kind::Sum) return atom;
  Term t;
  t.factors.push_back(Factor{atom, 1});
  return sumOf({t});
}

bool isNumber(const SymPtr& s, double& value) {
  if (s->terms.empty()) return value = 0, true;
  if (s->terms.size() == 1 && s->terms[0].factors.empty()) return value = s->terms[0].coefficient, true;
  return false;
}

SymPtr variableAtom(int index) {
  auto s = std::make_shared<Sym>();
  s->kind = Sym::Kind::Variable;
  s->variable = index;
  s->key = "#" + std::to_string(index);
  return s;
}

const char* callName(Op op) {
  switch (op) {
    case Op::Sqrt: return "sqrt";
    case Op::Sin: return "sin";
    case Op::Cos: return "cos";
    case Op::Tan: return "tan";
    case Op::Exp: return "exp";
    case Op::Log: return "log";
    case Op::Abs: return "abs";
    case Op::Sign: return "sign";
    case Op::Atan2: return "atan2";
    default: return "?";
  }
}

SymPtr callAtom(Op op, std::vector<SymPtr> args) {
  auto s = std::make_shared<Sym>();
  s->kind = Sym::Kind::Call;
  s->op = op;
  s->key = std::string(callName(op)) + "(";
  for (std::size_t i = 0; i < args.size(); ++i) s->key += (i ? "," : "") + args[i]->key;
  s->key += ")";
  s->args = std::move(args);
  return s;
}

SymPtr powerAtom(const SymPtr& base, const SymPtr& exponent) {
  auto s = std::make_shared<Sym>();
  s->kind = Sym::Kind::Power;
  s->args = {base, exponent};
  s->key = "(" + base->key + ")^(" + exponent->key + ")";
  return s;
}

Term product(const Term& a, const Term& b) {
  Term t;
  t.coefficient = a.coefficient * b.coefficient;
  t.factors = a.factors;
  t.factors.insert(t.factors.end(), b.factors.begin(), b.factors.end());
  return t;
}

// A sum of two or more terms as c · F · s': c its terms' common coefficient (when they
// share one magnitude; the sign of the first term), F the factors every term has (the
// exponent nearest zero, when all have one sign), s' what is left: (x/2 + y/2) is
// (x + y)/2 and (a/h − b/h)² is (a − b)²/h², so equal sums meet as one factor.
Term extracted(const SymPtr& s) {
  Term out;
  const Term& first = s->terms[0];
  bool sameMagnitude = true;
  for (const Term& t : s->terms)
    sameMagnitude = sameMagnitude && std::abs(t.coefficient) == std::abs(first.coefficient);
  out.coefficient = sameMagnitude ? first.coefficient : (first.coefficient < 0 ? -1.0 : 1.0);
  for (const Factor& f : first.factors) {
    int e = f.exponent;
    for (const Term& t : s->terms) {
      const auto it =
          std::find_if(t.factors.begin(), t.factors.end(), [&](const Factor& g) { return g.atom->key == f.atom->key; });
      const int g = it == t.factors.end() ? 0 : it->exponent;
      e = (g > 0 && e > 0) ? std::min(e, g) : (g < 0 && e < 0) ? std::max(e, g) : 0;
    }
    if (e != 0) out.factors.push_back(Factor{f.atom, e});
  }
  if (out.coefficient == 1 && out.factors.empty()) {
    out.factors.push_back(Factor{s, 1});
    return out;
  }
  std::vector<Term> rest;
  for (Term t : s->terms) {
    t.coefficient /= out.coefficient;
    for (const Factor& f : out.factors) t.factors.push_back(Factor{f.atom, -f.exponent});
    rest.push_back(std::move(t));
  }
  out.factors.push_back(Factor{sumOf(std::move(rest)), 1});
  return out;
}

SymPtr raised(const SymPtr& a, int n) {
  if (n == 0) return number(1);
  if (n == 1) return a;
  if (a->terms.size() == 1) {
    Term t = a->terms[0];
    t.coefficient = std::pow(t.coefficient, n);
    for (Factor& f : t.factors) f.exponent *= n;
    return sumOf({t});
  }
  Term t = extracted(a);
  t.coefficient = std::pow(t.coefficient, n);
  for (Factor& f : t.factors) f.exponent *= n;
  return sumOf({t});
}

}  // namespace

SymPtr number(double x) {
  Term t;
  t.coefficient = x;
  return sumOf({t});
}

SymPtr plus(const SymPtr& a, const SymPtr& b) {
  std::vector<Term> terms = a->terms;
  terms.insert(terms.end(), b->terms.begin(), b->terms.end());
  return sumOf(std::move(terms));
}

SymPtr minus(const SymPtr& a, const SymPtr& b) { return plus(a, times(number(-1), b)); }

namespace {
bool hasSumFactor(const SymPtr& s) {
  for (const Term& t : s->terms)
    for (const Factor& f : t.factors)
      if (f.atom->kind == Sym::Kind::Sum) return true;
  return false;
}
}  // namespace

SymPtr times(const SymPtr& a, const SymPtr& b) {
  // A single term distributes over a sum unless it is itself a product of sums (then
  // the sum joins its factors); two sums stay a product of factors.
  const bool aSum = a->terms.size() > 1, bSum = b->terms.size() > 1;
  if ((aSum && !bSum && hasSumFactor(b)) || (bSum && !aSum && hasSumFactor(a)))
    return sumOf({product(aSum ? b->terms[0] : a->terms[0], extracted(aSum ? a : b))});
  if (!aSum || !bSum) {
    std::vector<Term> terms;
    for (const Term& x : a->terms)
      for (const Term& y : b->terms) terms.push_back(product(x, y));
    return sumOf(std::move(terms));
  }
  return sumOf({product(extracted(a), extracted(b))});
}

bool isZero(const SymPtr& s) { return s->terms.empty(); }

SymPtr simplify(const Graph& graph, int root, const SymbolTable& names) {
  (void)names;
  std::unordered_map<int, SymPtr> memo;
  std::function<SymPtr(int)> of = [&](int id) -> SymPtr {
    const auto it = memo.find(id);
    if (it != memo.end()) return it->second;
    const Node& n = graph[id];
    SymPtr out;
    switch (n.op) {
      case Op::Const: out = number(n.value); break;
      case Op::Var: out = ofAtom(variableAtom(n.n)); break;
      case Op::Add: out = plus(of(n.a), of(n.b)); break;
      case Op::Sub: out = minus(of(n.a), of(n.b)); break;
      case Op::Neg: out = times(number(-1), of(n.a)); break;
      case Op::Mul: out = times(of(n.a), of(n.b)); break;
      case Op::Div: out = times(of(n.a), raised(of(n.b), -1)); break;
      case Op::PowInt: out = raised(of(n.a), n.n); break;
      case Op::Pow: {
        double e = 0;
        const SymPtr base = of(n.a), exponent = of(n.b);
        out = isNumber(exponent, e) && e == std::floor(e) && std::abs(e) <= 64 ? raised(base, static_cast<int>(e))
                                                                               : ofAtom(powerAtom(base, exponent));
        break;
      }
      case Op::Atan2: out = ofAtom(callAtom(n.op, {of(n.a), of(n.b)})); break;
      default: {
        // A function of a number is a number (the graph folds these; kept for sums that
        // simplified to one).
        double x = 0;
        const SymPtr arg = of(n.a);
        out = isNumber(arg, x) ? number(apply(n.op, x, 0, 0)) : ofAtom(callAtom(n.op, {arg}));
      }
    }
    memo.emplace(id, out);
    return out;
  };
  return of(root);
}

double evaluate(const SymPtr& s, const double* variables) {
  switch (s->kind) {
    case Sym::Kind::Variable: return variables[s->variable];
    case Sym::Kind::Call:
      return apply(s->op, evaluate(s->args[0], variables), s->args.size() > 1 ? evaluate(s->args[1], variables) : 0, 0);
    case Sym::Kind::Power: return apply(Op::Pow, evaluate(s->args[0], variables), evaluate(s->args[1], variables), 0);
    case Sym::Kind::Sum: break;
  }
  double sum = 0;
  for (const Term& t : s->terms) {
    double x = t.coefficient;
    for (const Factor& f : t.factors) x *= std::pow(evaluate(f.atom, variables), f.exponent);
    sum += x;
  }
  return sum;
}

// ---- printing ------------------------------------------------------------------------

namespace {

// x as a/d with d ≤ 12 when it is one to within rounding (½, ⅓, 3/4, …); d = 0 otherwise.
void rational(double x, long& a, long& d) {
  for (d = 1; d <= 12; ++d) {
    const double n = x * static_cast<double>(d);
    if (std::abs(n) < 1e15 && std::abs(n - std::round(n)) <= 1e-12 * std::max(1.0, std::abs(n))) {
      a = std::lround(n);
      return;
    }
  }
  d = 0;
}

struct Style {
  bool latex;
  const SymbolTable& names;
};

std::string print(const SymPtr& s, const Style& st);

int rankOf(const Sym& a, const Style& st) {
  if (a.kind == Sym::Kind::Variable)
    return a.variable < static_cast<int>(st.names.rank.size()) ? st.names.rank[a.variable] : 50;
  return a.kind == Sym::Kind::Sum ? 200 : 100;
}

// LaTeX: 6 digits (for the eye); plain text: the fewest that read back as x.
std::string decimal(double x, bool latex) {
  char buf[40];
  for (int digits = latex ? 6 : 15; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, x);
    if (latex || std::strtod(buf, nullptr) == x) break;
  }
  std::string s = buf;
  const auto e = s.find('e');
  if (!latex || e == std::string::npos) return s;
  std::string exponent = s.substr(e + 1);
  if (!exponent.empty() && exponent[0] == '+') exponent.erase(0, 1);
  return s.substr(0, e) + " \\times 10^{" + exponent + "}";
}

std::string group(const std::string& s, bool latex) { return latex ? "\\left(" + s + "\\right)" : "(" + s + ")"; }

std::string callText(const Sym& a, const Style& st, int exponent) {
  std::string args;
  for (std::size_t i = 0; i < a.args.size(); ++i) args += (i ? ", " : "") + print(a.args[i], st);
  const std::string power = exponent == 1 ? "" : "^{" + std::to_string(exponent) + "}";
  if (!st.latex) return std::string(callName(a.op)) + "(" + args + ")";
  switch (a.op) {
    case Op::Sqrt: return "\\sqrt{" + args + "}" + power;
    case Op::Abs: return "\\left|" + args + "\\right|" + power;
    case Op::Sign: return "\\operatorname{sgn}" + power + group(args, true);
    case Op::Atan2: return "\\operatorname{atan2}" + power + group(args, true);
    default: return "\\" + std::string(callName(a.op)) + power + group(args, true);
  }
}

// One factor a^e, e > 0.
std::string factorText(const Factor& f, const Style& st) {
  const Sym& a = *f.atom;
  const int e = f.exponent;
  std::string base;
  bool exponentDone = false;
  switch (a.kind) {
    case Sym::Kind::Variable: base = st.latex ? st.names.latex[a.variable] : st.names.infix[a.variable]; break;
    case Sym::Kind::Call:
      // LaTeX writes sin²(x); plain text sin(x)^2.
      base = callText(a, st, st.latex ? e : 1);
      exponentDone = st.latex;
      break;
    case Sym::Kind::Power: {
      const std::string b = group(print(a.args[0], st), st.latex);
      base = st.latex ? "{" + b + "}^{" + print(a.args[1], st) + "}" : b + "^" + group(print(a.args[1], st), false);
      if (e != 1) base = group(base, st.latex);
      break;
    }
    case Sym::Kind::Sum: base = group(print(f.atom, st), st.latex); break;
  }
  if (e == 1 || exponentDone) return base;
  return st.latex ? base + "^{" + std::to_string(e) + "}" : base + "^" + std::to_string(e);
}

std::string joinFactors(const std::vector<const Factor*>& fs, const Style& st, int sign) {
  std::string out;
  for (const Factor* f : fs) {
    const Factor g{f->atom, sign * f->exponent};
    out += (out.empty() ? "" : st.latex ? " " : "*") + factorText(g, st);
  }
  return out;
}

// |coefficient| · factors (the sign is printed by the sum).
std::string termText(const Term& t, const Style& st) {
  std::vector<const Factor*> up, down;
  for (const Factor& f : t.factors) (f.exponent > 0 ? up : down).push_back(&f);
  const auto order = [&](const Factor* a, const Factor* b) {
    const int ra = rankOf(*a->atom, st), rb = rankOf(*b->atom, st);
    if (ra != rb) return ra < rb;
    const int va = a->atom->variable, vb = b->atom->variable;
    return va != vb ? va < vb : a->atom->key < b->atom->key;
  };
  std::sort(up.begin(), up.end(), order);
  std::sort(down.begin(), down.end(), order);
  const double c = std::abs(t.coefficient);
  long a = 0, d = 0;
  rational(c, a, d);
  const std::string sep = st.latex ? " " : "*";
  const std::string upText = joinFactors(up, st, 1), downText = joinFactors(down, st, -1);
  std::string num, den;
  if (d > 0) {
    num = a != 1 || upText.empty() ? std::to_string(a) + (upText.empty() ? "" : sep + upText) : upText;
    den = d != 1 ? std::to_string(d) + (downText.empty() ? "" : sep + downText) : downText;
  } else {
    num = decimal(c, st.latex) + (upText.empty() ? "" : sep + upText);
    den = downText;
  }
  if (den.empty()) return num;
  if (st.latex) return "\\frac{" + num + "}{" + den + "}";
  const bool single = down.size() + (d > 1 ? 1 : 0) == 1;
  return num + "/" + (single ? den : "(" + den + ")");
}

std::string print(const SymPtr& s, const Style& st) {
  if (s->kind != Sym::Kind::Sum) return factorText(Factor{s, 1}, st);
  if (s->terms.empty()) return "0";
  std::string out;
  for (std::size_t i = 0; i < s->terms.size(); ++i) {
    const Term& t = s->terms[i];
    const bool negative = t.coefficient < 0;
    if (i == 0)
      out += negative ? "-" : "";
    else
      out += negative ? " - " : " + ";
    out += termText(t, st);
  }
  return out;
}

}  // namespace

std::string toLatex(const SymPtr& s, const SymbolTable& names) { return print(s, Style{true, names}); }
std::string toInfix(const SymPtr& s, const SymbolTable& names) { return print(s, Style{false, names}); }

}  // namespace vilab::expr
