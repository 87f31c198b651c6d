// The expression grammar on PEGTL (taocpp/PEGTL, Debian's tao-pegtl-dev): a PEG whose
// actions build a small syntax tree with the column of every token; the tree is then
// lowered into the expression graph (names resolved, errors located) and printed as
// LaTeX for the editor's preview.
#include "vilab/expr/parse.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <tao/pegtl.hpp>

#include "vilab/detmath.hpp"
#include "vilab/json.hpp"

namespace vilab::expr {

namespace pegtl = tao::pegtl;

namespace {

// ---- syntax tree --------------------------------------------------------------------
struct Ast {
  enum class Kind { Number, Name, Call, Neg, Binary } kind = Kind::Number;
  char op = 0;            // Binary: + - * / ^
  std::string text;       // Number: as typed; Name/Call: the identifier
  bool velocity = false;  // Name: written with a prime
  std::size_t byte = 0;   // where the token starts
  std::vector<int> kids;
};

struct Builder {
  std::vector<Ast> nodes;
  std::vector<int> stack;                                  // operands
  std::vector<std::pair<std::size_t, std::size_t>> calls;  // (node of the call, stack size at its '(')
  int depth = 0;

  int push(Ast a) {
    nodes.push_back(std::move(a));
    stack.push_back(static_cast<int>(nodes.size()) - 1);
    return stack.back();
  }
  int pop() {
    const int v = stack.back();
    stack.pop_back();
    return v;
  }
};

// ---- grammar -------------------------------------------------------------------------
namespace grammar {
using namespace pegtl;
struct expression;
struct unary;
struct sp : star<one<' ', '\t', '\r', '\n'>> {};
struct digits : plus<digit> {};
struct exponent : seq<one<'e', 'E'>, opt<one<'+', '-'>>, digits> {};
struct number : seq<sor<seq<digits, opt<one<'.'>, opt<digits>>>, seq<one<'.'>, digits>>, opt<exponent>> {};
struct close_paren : one<')'> {};
struct call_head : seq<identifier, sp, at<one<'('>>> {};
struct call_open : one<'('> {};
struct argument : seq<sp, expression, sp> {};
struct arguments : list<argument, one<','>> {};
struct call_tail : seq<call_open, must<arguments>, must<close_paren>> {};
struct call : seq<call_head, call_tail> {};
struct name : seq<identifier, opt<one<'\''>>> {};
struct paren : seq<one<'('>, sp, must<expression>, sp, must<close_paren>> {};
struct primary : sor<number, call, name, paren> {};
struct operand : primary {};
struct pow_tail : seq<one<'^'>, sp, must<unary>> {};
struct power : seq<operand, opt<sp, pow_tail>> {};
struct negation : seq<one<'-'>, sp, must<unary>> {};
struct plus_sign : seq<one<'+'>, sp, must<unary>> {};
struct unary : sor<negation, plus_sign, power> {};
struct mul_tail : seq<one<'*', '/'>, sp, must<unary>> {};
struct term : seq<unary, star<sp, mul_tail>> {};
struct add_tail : seq<one<'+', '-'>, sp, must<term>> {};
struct expression : seq<term, star<sp, add_tail>> {};
struct whole : seq<sp, must<expression>, sp, must<eof>> {};
}  // namespace grammar

template <class Rule>
struct Action : pegtl::nothing<Rule> {};

template <>
struct Action<grammar::number> {
  template <class In>
  static void apply(const In& in, Builder& b) {
    Ast a;
    a.kind = Ast::Kind::Number;
    a.text = in.string();
    a.byte = in.position().byte;
    b.push(std::move(a));
  }
};
template <>
struct Action<grammar::name> {
  template <class In>
  static void apply(const In& in, Builder& b) {
    Ast a;
    a.kind = Ast::Kind::Name;
    a.text = in.string();
    a.velocity = !a.text.empty() && a.text.back() == '\'';
    if (a.velocity) a.text.pop_back();
    a.byte = in.position().byte;
    b.push(std::move(a));
  }
};
template <>
struct Action<grammar::call_head> {
  template <class In>
  static void apply(const In& in, Builder& b) {
    Ast a;
    a.kind = Ast::Kind::Call;
    std::string s = in.string();
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) s.pop_back();
    a.text = s;
    a.byte = in.position().byte;
    b.nodes.push_back(std::move(a));
    b.calls.emplace_back(b.nodes.size() - 1, b.stack.size());
  }
};
template <>
struct Action<grammar::call_tail> {
  template <class In>
  static void apply(const In&, Builder& b) {
    const auto [node, base] = b.calls.back();
    b.calls.pop_back();
    Ast& call = b.nodes[node];
    call.kids.assign(b.stack.begin() + static_cast<long>(base), b.stack.end());
    b.stack.resize(base);
    b.stack.push_back(static_cast<int>(node));
  }
};
template <char Op>
void binary(Builder& b, std::size_t byte) {
  const int rhs = b.pop(), lhs = b.pop();
  Ast a;
  a.kind = Ast::Kind::Binary;
  a.op = Op;
  a.byte = byte;
  a.kids = {lhs, rhs};
  b.push(std::move(a));
}
template <>
struct Action<grammar::pow_tail> {
  template <class In>
  static void apply(const In& in, Builder& b) {
    binary<'^'>(b, in.position().byte);
  }
};
template <>
struct Action<grammar::negation> {
  template <class In>
  static void apply(const In& in, Builder& b) {
    const int x = b.pop();
    Ast a;
    a.kind = Ast::Kind::Neg;
    a.byte = in.position().byte;
    a.kids = {x};
    b.push(std::move(a));
  }
};
template <>
struct Action<grammar::mul_tail> {
  template <class In>
  static void apply(const In& in, Builder& b) {
    if (in.peek_char() == '*')
      binary<'*'>(b, in.position().byte);
    else
      binary<'/'>(b, in.position().byte);
  }
};
template <>
struct Action<grammar::add_tail> {
  template <class In>
  static void apply(const In& in, Builder& b) {
    if (in.peek_char() == '+')
      binary<'+'>(b, in.position().byte);
    else
      binary<'-'>(b, in.position().byte);
  }
};

// A syntax error at a byte of the text. Not pegtl::parse_error: its message formats the
// position with std::ostringstream, which links all of iostream's locale machinery into
// the wasm (~68 KB of code) for a message we rewrite anyway.
struct SyntaxError {
  const char* message;
  std::size_t byte;
};

// Error messages of the must<> points, and the nesting limit on `unary` (every nested
// level of parentheses, arguments, signs and exponents passes through it).
template <class Rule>
struct Control : pegtl::normal<Rule> {
  static const char* message() {
    if (std::is_same<Rule, grammar::close_paren>::value) return "expected ')'";
    if (std::is_same<Rule, pegtl::eof>::value) return "unexpected text";
    return "expected a number, a name or '('";
  }
  template <class In, class... States>
  [[noreturn]] static void raise(const In& in, States&&...) {
    throw SyntaxError{message(), in.position().byte};
  }
  template <class In>
  static void start(const In& in, Builder& b) {
    if (std::is_same<Rule, grammar::unary>::value && ++b.depth > kMaxNesting)
      throw SyntaxError{"nested too deeply", in.position().byte};
  }
  template <class In>
  static void success(const In&, Builder& b) {
    if (std::is_same<Rule, grammar::unary>::value) --b.depth;
  }
  template <class In>
  static void failure(const In&, Builder& b) {
    if (std::is_same<Rule, grammar::unary>::value) --b.depth;
  }
};

// Characters (UTF-8 code points) before byte `byte`, plus one.
int columnOf(const std::string& text, std::size_t byte) {
  int column = 1;
  for (std::size_t i = 0; i < byte && i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0u) != 0x80u) ++column;
  return column;
}

// The character at byte `byte`, for "unexpected …" messages.
std::string characterAt(const std::string& text, std::size_t byte) {
  if (byte >= text.size()) return "end of text";
  std::size_t end = byte + 1;
  while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0u) == 0x80u) ++end;
  const std::string c = text.substr(byte, end - byte);
  if (c == "\n") return "line break";
  return "\"" + escapeControl(c) + "\"";
}

// ---- functions -----------------------------------------------------------------------
struct Function {
  const char* name;
  int arity;
  Op op;
  const char* latex;
};
const Function kFunctions[] = {
    {"sqrt", 1, Op::Sqrt, "\\sqrt"}, {"sin", 1, Op::Sin, "\\sin"},
    {"cos", 1, Op::Cos, "\\cos"},    {"tan", 1, Op::Tan, "\\tan"},
    {"exp", 1, Op::Exp, "\\exp"},    {"log", 1, Op::Log, "\\log"},
    {"abs", 1, Op::Abs, ""},         {"atan2", 2, Op::Atan2, "\\operatorname{atan2}"},
};
const Function* findFunction(const std::string& name) {
  for (const Function& f : kFunctions)
    if (name == f.name) return &f;
  return nullptr;
}

std::string functionList() {
  std::string s;
  for (const Function& f : kFunctions) s += (s.empty() ? "" : ", ") + std::string(f.name);
  return s;
}

// ---- LaTeX ---------------------------------------------------------------------------
const char* kGreek[] = {"alpha", "beta",   "gamma",   "delta", "epsilon", "zeta",  "eta",   "theta",  "iota",
                        "kappa", "lambda", "mu",      "nu",    "xi",      "rho",   "sigma", "tau",    "upsilon",
                        "phi",   "chi",    "psi",     "omega", "Gamma",   "Delta", "Theta", "Lambda", "Xi",
                        "Pi",    "Sigma",  "Upsilon", "Phi",   "Psi",     "Omega"};

std::string nameAsLatex(const std::string& name) {
  std::string base = name, sub;
  const auto underscore = name.find('_');
  if (underscore != std::string::npos && underscore > 0) {
    base = name.substr(0, underscore);
    sub = name.substr(underscore + 1);
  } else {
    std::size_t k = name.size();
    while (k > 1 && std::isdigit(static_cast<unsigned char>(name[k - 1]))) --k;
    if (k < name.size()) {
      base = name.substr(0, k);
      sub = name.substr(k);
    }
  }
  std::string out;
  bool greek = false;
  for (const char* g : kGreek) greek = greek || base == g;
  if (base == "th") base = "theta", greek = true;
  if (base == "ph") base = "phi", greek = true;
  if (greek)
    out = "\\" + base;
  else if (base.size() > 1)
    out = "\\mathrm{" + base + "}";
  else
    out = base;
  if (!sub.empty()) {
    std::string clean;
    for (char c : sub) clean += c == '_' ? ',' : c;
    out += "_{" + clean + "}";
  }
  return out;
}

std::string latexNumber(const std::string& text) {
  const auto e = text.find_first_of("eE");
  if (e == std::string::npos) return text;
  std::string exponent = text.substr(e + 1);
  if (!exponent.empty() && exponent[0] == '+') exponent.erase(0, 1);
  return text.substr(0, e) + " \\times 10^{" + exponent + "}";
}

int precedence(const Ast& a) {
  if (a.kind == Ast::Kind::Binary) return a.op == '+' || a.op == '-' ? 1 : a.op == '^' ? 4 : 2;
  if (a.kind == Ast::Kind::Neg) return 3;
  return 5;
}

struct Printer {
  const std::vector<Ast>& nodes;
  std::string wrap(int id, int needed) const {
    const std::string s = print(id);
    return precedence(nodes[static_cast<std::size_t>(id)]) < needed ? "\\left(" + s + "\\right)" : s;
  }
  std::string print(int id) const {
    const Ast& a = nodes[static_cast<std::size_t>(id)];
    switch (a.kind) {
      case Ast::Kind::Number: return latexNumber(a.text);
      case Ast::Kind::Name: {
        if (a.text == "pi") return "\\pi";
        const std::string n = nameAsLatex(a.text);
        return a.velocity ? "\\dot{" + n + "}" : n;
      }
      case Ast::Kind::Call: {
        const Function* f = findFunction(a.text);
        std::string args;
        for (std::size_t k = 0; k < a.kids.size(); ++k) args += (k ? ", " : "") + print(a.kids[k]);
        if (!f) return "\\mathrm{" + a.text + "}\\left(" + args + "\\right)";
        if (f->op == Op::Sqrt) return "\\sqrt{" + args + "}";
        if (f->op == Op::Abs) return "\\left|" + args + "\\right|";
        return std::string(f->latex) + "\\left(" + args + "\\right)";
      }
      case Ast::Kind::Neg: return "-" + wrap(a.kids[0], 2);
      case Ast::Kind::Binary: {
        const int l = a.kids[0], r = a.kids[1];
        switch (a.op) {
          case '+': return print(l) + " + " + wrap(r, 2);
          case '-': return print(l) + " - " + wrap(r, 2);
          case '/': return "\\frac{" + print(l) + "}{" + print(r) + "}";
          case '^': return "{" + wrap(l, 5) + "}^{" + print(r) + "}";
          default: {
            const Ast& right = nodes[static_cast<std::size_t>(r)];
            const bool numeric = right.kind == Ast::Kind::Number ||
                                 (right.kind == Ast::Kind::Binary && right.op == '^' &&
                                  nodes[static_cast<std::size_t>(right.kids[0])].kind == Ast::Kind::Number);
            return wrap(l, 2) + (numeric ? " \\cdot " : "\\,") + wrap(r, 3);
          }
        }
      }
    }
    return "";
  }
};

// ---- lowering into the graph ---------------------------------------------------------
struct Lowering {
  const std::string& text;
  const std::string& field;
  const Scope& scope;
  const std::vector<Ast>& nodes;
  Graph& graph;

  [[noreturn]] void fail(InputErrorCode code, const Ast& a, const std::string& problem,
                         const std::string& detail = "") const {
    throw ExpressionError(code, field, problem, columnOf(text, a.byte), detail);
  }

  int coordinate(const std::string& name) const {
    for (std::size_t i = 0; i < scope.coordinates.size(); ++i)
      if (scope.coordinates[i] == name) return static_cast<int>(i);
    return -1;
  }

  std::string known() const {
    std::string s = "coordinates: ";
    for (std::size_t i = 0; i < scope.coordinates.size(); ++i) s += (i ? ", " : "") + scope.coordinates[i];
    if (!scope.constants.empty()) {
      s += "; constants: ";
      for (std::size_t i = 0; i < scope.constants.size(); ++i) s += (i ? ", " : "") + scope.constants[i].first;
    }
    return " (" + s + ")";
  }

  int velocityOf(const Ast& a, int i) const {
    if (!scope.velocities)
      fail(InputErrorCode::Invalid, a, "velocity \"" + a.text + (a.velocity ? "'" : "") + "\" is not allowed here",
           " (" + std::string(scope.timeUse) + ")");
    return graph.variable(static_cast<int>(scope.coordinates.size()) + i);
  }

  int lower(int id) const {
    const Ast& a = nodes[static_cast<std::size_t>(id)];
    switch (a.kind) {
      case Ast::Kind::Number: {
        const double x = std::strtod(a.text.c_str(), nullptr);
        // As every number the core reads or reports: within ±1e300, so sums and squares
        // of the values it enters stay finite.
        if (!(std::abs(x) <= limits::kMaxMagnitude))
          fail(InputErrorCode::Range, a, "number " + cutForMessage(a.text) + " is out of range (beyond ±1e300)");
        return graph.constant(x);
      }
      case Ast::Kind::Name: {
        const int i = coordinate(a.text);
        if (a.velocity) {
          if (i >= 0) return velocityOf(a, i);
          bool constant = a.text == "pi" || a.text == "t";
          for (const auto& k : scope.constants) constant = constant || k.first == a.text;
          if (constant)
            fail(InputErrorCode::Invalid, a, "\"" + a.text + "'\": only coordinates have velocities", known());
          fail(InputErrorCode::UnknownId, a, "unknown name \"" + cutForMessage(a.text) + "\"", known());
        }
        if (i >= 0) return graph.variable(i);
        for (std::size_t k = 0; k < scope.constants.size(); ++k)
          if (scope.constants[k].first == a.text)
            return scope.symbols >= 0 ? graph.variable(scope.symbols + static_cast<int>(k))
                                      : graph.constant(scope.constants[k].second);
        if (a.text == "pi")
          return scope.symbols >= 0 ? graph.variable(scope.symbols + static_cast<int>(scope.constants.size()))
                                    : graph.constant(dm::pi);
        if (a.text == "t") {
          if (!scope.time)
            fail(InputErrorCode::Invalid, a, "time t is not allowed here", std::string(" (") + scope.timeUse + ")");
          return graph.variable(2 * static_cast<int>(scope.coordinates.size()));
        }
        if (a.text.size() > 3 && a.text.compare(a.text.size() - 3, 3, "dot") == 0) {
          const int j = coordinate(a.text.substr(0, a.text.size() - 3));
          if (j >= 0) return velocityOf(a, j);
        }
        if (findFunction(a.text))
          fail(InputErrorCode::Syntax, a, "function " + a.text + " needs parentheses: " + a.text + "(…)");
        fail(InputErrorCode::UnknownId, a, "unknown name \"" + cutForMessage(a.text) + "\"", known());
      }
      case Ast::Kind::Call: {
        const Function* f = findFunction(a.text);
        if (!f)
          fail(InputErrorCode::UnknownId, a, "unknown function \"" + cutForMessage(a.text) + "\"",
               " (functions: " + functionList() + ")");
        if (static_cast<int>(a.kids.size()) != f->arity)
          fail(InputErrorCode::Length, a,
               std::string(f->name) + " takes " + std::to_string(f->arity) + " argument" + (f->arity > 1 ? "s" : "") +
                   ", got " + std::to_string(a.kids.size()));
        const int x = lower(a.kids[0]);
        if (f->op == Op::Atan2) return graph.atan2(x, lower(a.kids[1]));
        return graph.unary(f->op, x);
      }
      case Ast::Kind::Neg: return graph.neg(lower(a.kids[0]));
      case Ast::Kind::Binary: {
        const int l = lower(a.kids[0]), r = lower(a.kids[1]);
        switch (a.op) {
          case '+': return graph.add(l, r);
          case '-': return graph.sub(l, r);
          case '*': return graph.mul(l, r);
          case '/': return graph.div(l, r);
          default: return graph.pow(l, r);
        }
      }
    }
    return graph.constant(0);
  }
};

}  // namespace

ExpressionError::ExpressionError(InputErrorCode code, const std::string& field, const std::string& problem, int column,
                                 const std::string& detail)
    : InputError(code, field, problem + " at column " + std::to_string(column) + detail), column_(column) {}

bool reservedName(const std::string& name) { return name == "pi" || name == "t" || findFunction(name); }

bool validIdentifier(const std::string& name) {
  if (name.empty() || name.size() > 32) return false;
  if (!(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

std::string latexName(const std::string& name) { return nameAsLatex(name); }

Parsed parseExpression(const std::string& text, const std::string& field, const Scope& scope, Graph& graph) {
  if (text.size() > static_cast<std::size_t>(kMaxExpressionBytes))
    throw InputError(InputErrorCode::TooLarge, field,
                     "too long (" + std::to_string(text.size()) + " bytes; the limit is " +
                         std::to_string(kMaxExpressionBytes) + ")");
  Builder b;
  try {
    pegtl::memory_input<> in(text, field);
    pegtl::parse<grammar::whole, Action, Control>(in, b);
  } catch (const SyntaxError& e) {
    const std::size_t byte = e.byte;
    const std::string message(e.message);
    if (message == "nested too deeply")
      throw ExpressionError(InputErrorCode::TooLarge, field,
                            "nested more than " + std::to_string(kMaxNesting) + " levels deep", columnOf(text, byte));
    std::string problem = message;
    if (message == "unexpected text" || message.rfind("expected ", 0) == 0)
      problem =
          (message == "unexpected text" ? std::string("unexpected ") : message + ", found ") + characterAt(text, byte);
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) problem = "is empty";
    throw ExpressionError(InputErrorCode::Syntax, field, problem, columnOf(text, byte));
  }
  if (b.stack.size() != 1) throw InputError(InputErrorCode::Syntax, field, "could not be parsed");
  Parsed out;
  Lowering lowering{text, field, scope, b.nodes, graph};
  out.node = lowering.lower(b.stack.back());
  out.latex = Printer{b.nodes}.print(b.stack.back());
  return out;
}

}  // namespace vilab::expr
