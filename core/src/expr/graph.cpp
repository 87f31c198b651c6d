// Building expression graphs: simplification, constant folding and differentiation
// (cold: once per scenario). Evaluation is in program.cpp.
#include "vilab/expr/graph.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "vilab/detmath.hpp"

namespace vilab::expr {

namespace {

std::uint64_t bitsOf(double x) {
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

}  // namespace

std::size_t Graph::KeyHash::operator()(const Key& k) const {
  std::uint64_t h = 1469598103934665603ull;
  const auto mix = [&](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  mix(static_cast<std::uint64_t>(k.op));
  mix(static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.a)));
  mix(static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.b)));
  mix(static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.n)));
  mix(k.bits);
  return static_cast<std::size_t>(h);
}

int Graph::intern(const Node& n, std::uint64_t deps) {
  const Key key{n.op, n.a, n.b, n.n, n.op == Op::Const ? bitsOf(n.value) : 0};
  const auto it = index_.find(key);
  if (it != index_.end()) return it->second;
  const int id = static_cast<int>(nodes_.size());
  nodes_.push_back(n);
  deps_.push_back(deps);
  index_.emplace(key, id);
  return id;
}

bool Graph::isConstant(int id, double value) const {
  const Node& n = nodes_[static_cast<std::size_t>(id)];
  return n.op == Op::Const && n.value == value;
}

int Graph::constant(double x) {
  Node n;
  n.op = Op::Const;
  n.value = x == 0 ? 0.0 : x;  // one zero: −0 and 0 fold alike
  return intern(n, 0);
}

int Graph::variable(int index) {
  Node n;
  n.op = Op::Var;
  n.n = index;
  return intern(n, std::uint64_t{1} << index);
}

namespace {
Node binaryNode(Op op, int a, int b) {
  Node n;
  n.op = op;
  n.a = a;
  n.b = b;
  return n;
}
}  // namespace

int Graph::add(int a, int b) {
  if (isConstant(a) && isConstant(b)) return constant((*this)[a].value + (*this)[b].value);
  if (isConstant(a, 0)) return b;
  if (isConstant(b, 0)) return a;
  if ((*this)[b].op == Op::Neg) return sub(a, (*this)[b].a);
  if ((*this)[a].op == Op::Neg) return sub(b, (*this)[a].a);
  if (a > b) std::swap(a, b);
  return intern(binaryNode(Op::Add, a, b), deps_[a] | deps_[b]);
}

int Graph::sub(int a, int b) {
  if (isConstant(a) && isConstant(b)) return constant((*this)[a].value - (*this)[b].value);
  if (isConstant(b, 0)) return a;
  if (isConstant(a, 0)) return neg(b);
  if (a == b) return constant(0);
  if ((*this)[b].op == Op::Neg) return add(a, (*this)[b].a);
  return intern(binaryNode(Op::Sub, a, b), deps_[a] | deps_[b]);
}

int Graph::mul(int a, int b) {
  if (isConstant(a) && isConstant(b)) return constant((*this)[a].value * (*this)[b].value);
  if (isConstant(a, 0) || isConstant(b, 0)) return constant(0);
  if (isConstant(a, 1)) return b;
  if (isConstant(b, 1)) return a;
  if (isConstant(a, -1)) return neg(b);
  if (isConstant(b, -1)) return neg(a);
  if ((*this)[a].op == Op::Neg && (*this)[b].op == Op::Neg) return mul((*this)[a].a, (*this)[b].a);
  if ((*this)[a].op == Op::Neg) return neg(mul((*this)[a].a, b));
  if ((*this)[b].op == Op::Neg) return neg(mul(a, (*this)[b].a));
  if (a == b) return powInt(a, 2);
  if (a > b) std::swap(a, b);
  return intern(binaryNode(Op::Mul, a, b), deps_[a] | deps_[b]);
}

int Graph::div(int a, int b) {
  if (isConstant(a) && isConstant(b) && (*this)[b].value != 0) return constant((*this)[a].value / (*this)[b].value);
  if (isConstant(a, 0)) return constant(0);
  if (isConstant(b, 1)) return a;
  if (isConstant(b, -1)) return neg(a);
  if (a == b) return constant(1);
  return intern(binaryNode(Op::Div, a, b), deps_[a] | deps_[b]);
}

int Graph::neg(int a) {
  if (isConstant(a)) return constant(-(*this)[a].value);
  if ((*this)[a].op == Op::Neg) return (*this)[a].a;
  Node n;
  n.op = Op::Neg;
  n.a = a;
  return intern(n, deps_[a]);
}

int Graph::powInt(int a, int n) {
  if (n == 0) return constant(1);
  if (n == 1) return a;
  if (isConstant(a)) return constant(apply(Op::PowInt, (*this)[a].value, 0, n));
  if ((*this)[a].op == Op::PowInt) {
    const long m = static_cast<long>((*this)[a].n) * n;
    if (m >= -1024 && m <= 1024) return powInt((*this)[a].a, static_cast<int>(m));
  }
  Node node;
  node.op = Op::PowInt;
  node.a = a;
  node.n = n;
  return intern(node, deps_[a]);
}

int Graph::pow(int a, int b) {
  if (isConstant(b)) {
    const double e = (*this)[b].value;
    if (e == std::floor(e) && std::abs(e) <= 1024) return powInt(a, static_cast<int>(e));
    if (e == 0.5) return unary(Op::Sqrt, a);
  }
  if (isConstant(a) && isConstant(b)) return constant(apply(Op::Pow, (*this)[a].value, (*this)[b].value, 0));
  return intern(binaryNode(Op::Pow, a, b), deps_[a] | deps_[b]);
}

int Graph::unary(Op op, int a) {
  if (isConstant(a)) return constant(apply(op, (*this)[a].value, 0, 0));
  if (op == Op::Sign && (*this)[a].op == Op::Sign) return a;
  Node n;
  n.op = op;
  n.a = a;
  return intern(n, deps_[a]);
}

int Graph::atan2(int a, int b) {
  if (isConstant(a) && isConstant(b)) return constant(apply(Op::Atan2, (*this)[a].value, (*this)[b].value, 0));
  return intern(binaryNode(Op::Atan2, a, b), deps_[a] | deps_[b]);
}

int Graph::sum(const std::vector<int>& terms) {
  int s = constant(0);
  for (int t : terms) s = add(s, t);
  return s;
}

std::vector<int> Graph::valueGradientHessian(int node, int variables) {
  std::vector<int> outputs = {node};
  for (int i = 0; i < variables; ++i) outputs.push_back(derivative(node, i));
  for (int i = 0; i < variables; ++i)
    for (int j = i; j < variables; ++j) outputs.push_back(derivative(outputs[static_cast<std::size_t>(1 + i)], j));
  return outputs;
}

int Graph::derivative(int id, int variable) {
  if (!dependsOn(id, variable)) return constant(0);
  const std::uint64_t key = (static_cast<std::uint64_t>(id) << 6) | static_cast<std::uint64_t>(variable);
  const auto it = derivatives_.find(key);
  if (it != derivatives_.end()) return it->second;
  const Node n = (*this)[id];  // a copy: the calls below grow nodes_
  int d = constant(0);
  const auto da = [&] { return derivative(n.a, variable); };
  const auto db = [&] { return derivative(n.b, variable); };
  switch (n.op) {
    case Op::Const: break;
    case Op::Var: d = constant(n.n == variable ? 1 : 0); break;
    case Op::Add: d = add(da(), db()); break;
    case Op::Sub: d = sub(da(), db()); break;
    case Op::Mul: d = add(mul(da(), n.b), mul(n.a, db())); break;
    // (a/b)' = (a' − (a/b) b')/b
    case Op::Div: d = div(sub(da(), mul(id, db())), n.b); break;
    case Op::Neg: d = neg(da()); break;
    case Op::PowInt: d = mul(mul(constant(n.n), powInt(n.a, n.n - 1)), da()); break;
    // (a^b)' = a^b (b' log a + b a'/a)
    case Op::Pow: d = mul(id, add(mul(db(), unary(Op::Log, n.a)), div(mul(n.b, da()), n.a))); break;
    case Op::Sqrt: d = div(da(), mul(constant(2), id)); break;
    case Op::Sin: d = mul(unary(Op::Cos, n.a), da()); break;
    case Op::Cos: d = neg(mul(unary(Op::Sin, n.a), da())); break;
    case Op::Tan: d = mul(add(constant(1), powInt(id, 2)), da()); break;
    case Op::Exp: d = mul(id, da()); break;
    case Op::Log: d = div(da(), n.a); break;
    case Op::Abs: d = mul(unary(Op::Sign, n.a), da()); break;
    case Op::Sign: break;
    // atan2(a, b)' = (b a' − a b')/(a² + b²)
    case Op::Atan2: d = div(sub(mul(n.b, da()), mul(n.a, db())), add(powInt(n.a, 2), powInt(n.b, 2))); break;
  }
  derivatives_.emplace(key, d);
  return d;
}

Program::Program(const Graph& graph, const std::vector<int>& outputs) {
  // Mark what the outputs need; node ids are already in topological order.
  std::vector<char> needed(static_cast<std::size_t>(graph.size()), 0);
  for (int o : outputs) needed[static_cast<std::size_t>(o)] = 1;
  for (int id = graph.size() - 1; id >= 0; --id) {
    if (!needed[static_cast<std::size_t>(id)]) continue;
    const Node& n = graph[id];
    if (n.a >= 0) needed[static_cast<std::size_t>(n.a)] = 1;
    if (n.b >= 0) needed[static_cast<std::size_t>(n.b)] = 1;
  }
  std::vector<int> reg(static_cast<std::size_t>(graph.size()), -1);
  for (int id = 0; id < graph.size(); ++id) {
    if (!needed[static_cast<std::size_t>(id)] || graph[id].op != Op::Const) continue;
    reg[static_cast<std::size_t>(id)] = static_cast<int>(code_.size());
    code_.push_back(Instruction{Op::Const, -1, -1, 0, graph[id].value});
  }
  constants_ = code_.size();
  for (int id = 0; id < graph.size(); ++id) {
    if (!needed[static_cast<std::size_t>(id)] || graph[id].op == Op::Const) continue;
    const Node& n = graph[id];
    Instruction ins{n.op, n.a >= 0 ? reg[static_cast<std::size_t>(n.a)] : -1,
                    n.b >= 0 ? reg[static_cast<std::size_t>(n.b)] : -1, n.n, n.value};
    reg[static_cast<std::size_t>(id)] = static_cast<int>(code_.size());
    code_.push_back(ins);
  }
  for (int o : outputs) {
    outputs_.push_back(reg[static_cast<std::size_t>(o)]);
    constantOutputs_ = constantOutputs_ && graph.isConstant(o);
  }
  fuse();
}

}  // namespace vilab::expr
