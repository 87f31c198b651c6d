// Evaluation of expression programs and of single operations (the hot path of
// systems defined by data; graph.cpp builds them).
#include <algorithm>
#include <cmath>
#include <limits>

#include "vilab/detmath.hpp"
#include "vilab/expr/graph.hpp"

namespace vilab::expr {

namespace {

// x^n by repeated squaring; n < 0 as 1/x^|n|.
double integerPower(double x, int n) {
  unsigned m = static_cast<unsigned>(n < 0 ? -static_cast<long>(n) : n);
  double result = 1, base = x;
  while (m) {
    if (m & 1u) result *= base;
    base *= base;
    m >>= 1;
  }
  return n < 0 ? 1.0 / result : result;
}

}  // namespace

double apply(Op op, double a, double b, int n) {
  switch (op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::Div: return a / b;
    case Op::Neg: return -a;
    case Op::PowInt: return integerPower(a, n);
    case Op::Pow:
      return a > 0 ? dm::exp(b * dm::log(a)) : (a == 0 && b > 0 ? 0.0 : std::numeric_limits<double>::quiet_NaN());
    case Op::Sqrt: return dm::sqrt(a);
    case Op::Sin: return dm::sin(a);
    case Op::Cos: return dm::cos(a);
    case Op::Tan: return dm::tan(a);
    case Op::Exp: return dm::exp(a);
    case Op::Log: return dm::log(a);
    case Op::Abs: return dm::fabs(a);
    case Op::Sign: return a > 0 ? 1.0 : (a < 0 ? -1.0 : 0.0);
    case Op::Atan2: return dm::atan2(a, b);
    case Op::Const:
    case Op::Var: break;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

namespace detail {
bool compiledEnabled = true;
ProgramCounts counts;  // a WebAssembly instance runs one thread
}  // namespace detail
using detail::compiledEnabled;
using detail::counts;

namespace {
ProgramCompiler hostCompiler;  // the host's
}  // namespace

void setProgramCompiler(const ProgramCompiler& compiler) { hostCompiler = compiler; }
void setCompiledPrograms(bool enabled) { compiledEnabled = enabled; }
bool compiledProgramsEnabled() { return compiledEnabled; }
ProgramCounts programCounts() { return counts; }

void Program::compile() const {
  compileTried_ = true;
  if (code_.empty()) return;
  const CompiledProgram f = hostCompiler.compile(*this);
  if (!f) {
    ++counts.failed;
    return;
  }
  ++counts.compiled;
  const auto release = hostCompiler.release;
  compiled_ = std::shared_ptr<const CompiledProgram>(new CompiledProgram(f), [release](const CompiledProgram* p) {
    if (release) release(*p);
    delete p;
  });
}

void Program::runReference(const double* variables, double* out, std::vector<double>& r) const {
  if (r.size() != code_.size()) {
    r.resize(code_.size());
    for (std::size_t i = 0; i < constants_; ++i) r[i] = code_[i].value;
  }
  double* x = r.data();
  const std::size_t count = code_.size();
  for (std::size_t i = constants_; i < count; ++i) {
    const Instruction& c = code_[i];
    switch (c.op) {
      case Op::Const: x[i] = c.value; break;
      case Op::Var: x[i] = variables[c.n]; break;
      case Op::Add: x[i] = x[c.a] + x[c.b]; break;
      case Op::Sub: x[i] = x[c.a] - x[c.b]; break;
      case Op::Mul: x[i] = x[c.a] * x[c.b]; break;
      case Op::Div: x[i] = x[c.a] / x[c.b]; break;
      case Op::Neg: x[i] = -x[c.a]; break;
      case Op::PowInt:
        if (c.n == 2) {
          x[i] = x[c.a] * x[c.a];
          break;
        }
        x[i] = apply(c.op, x[c.a], 0, c.n);
        break;
      default: x[i] = apply(c.op, x[c.a], c.b >= 0 ? x[c.b] : 0.0, c.n); break;
    }
  }
  for (std::size_t k = 0; k < outputs_.size(); ++k) out[k] = x[outputs_[k]];
}

namespace {

// The fused form's operations (dense, so the dispatch is one jump table).
enum Code : std::uint8_t {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kNeg,
  kSquare,   // a·a
  kMulAdd,   // a·b + c
  kMulSub,   // a·b − c
  kSubMul,   // c − a·b
  kMul3,     // (a·b)·c
  kDot2,     // a·b + c·e
  kDot2Sub,  // a·b − c·e
  kApply,    // apply(op, a, b, n)
};

}  // namespace

void Program::fuse() {
  const std::size_t count = code_.size();
  // How often each register is read; an output counts twice, so it is always written.
  std::vector<int> uses(count, 0);
  for (std::size_t i = constants_; i < count; ++i) {
    if (code_[i].op == Op::Var || code_[i].op == Op::Const) continue;
    if (code_[i].a >= 0) ++uses[static_cast<std::size_t>(code_[i].a)];
    if (code_[i].b >= 0) ++uses[static_cast<std::size_t>(code_[i].b)];
  }
  for (int o : outputs_) uses[static_cast<std::size_t>(o)] += 2;
  std::vector<Fused> form(count);
  std::vector<char> absorbed(count, 0);
  // A plain product read by one instruction only: its operands are folded into that one.
  auto lone = [&](int r) {
    const std::size_t k = static_cast<std::size_t>(r);
    return k >= constants_ && code_[k].op == Op::Mul && form[k].code == kMul && uses[k] == 1;
  };
  auto u = [](int r) { return static_cast<std::uint32_t>(r); };
  for (std::size_t i = constants_; i < count; ++i) {
    const Instruction& c = code_[i];
    if (c.op == Op::Var) {
      loads_.push_back(static_cast<std::uint32_t>(i));
      loads_.push_back(static_cast<std::uint32_t>(c.n));
      continue;
    }
    Fused f{kApply, c.op, c.n, static_cast<std::uint32_t>(i), u(c.a), u(c.b), 0, 0};
    const Instruction* pa = c.a >= 0 && lone(c.a) ? &code_[static_cast<std::size_t>(c.a)] : nullptr;
    const Instruction* pb = c.b >= 0 && c.b != c.a && lone(c.b) ? &code_[static_cast<std::size_t>(c.b)] : nullptr;
    switch (c.op) {
      case Op::Add:
      case Op::Sub: {
        const bool add = c.op == Op::Add;
        if (pa && pb) {
          f = {add ? kDot2 : kDot2Sub, c.op, 0, f.d, u(pa->a), u(pa->b), u(pb->a), u(pb->b)};
        } else if (pa) {
          f = {add ? kMulAdd : kMulSub, c.op, 0, f.d, u(pa->a), u(pa->b), u(c.b), 0};
        } else if (pb) {
          f = {add ? kMulAdd : kSubMul, c.op, 0, f.d, u(pb->a), u(pb->b), u(c.a), 0};
        } else {
          f.code = add ? kAdd : kSub;
        }
        break;
      }
      case Op::Mul:
        if (pa) pb = nullptr;
        if (pa || pb) {
          const Instruction& p = pa ? *pa : *pb;
          f = {kMul3, c.op, 0, f.d, u(p.a), u(p.b), u(pa ? c.b : c.a), 0};
        } else {
          f.code = kMul;
        }
        break;
      case Op::Div: f.code = kDiv; break;
      case Op::Neg: f.code = kNeg; break;
      case Op::PowInt:
        if (c.n == 2) f.code = kSquare;
        break;
      default: break;
    }
    if (f.code >= kMulAdd && f.code <= kDot2Sub) {
      if (pa) absorbed[static_cast<std::size_t>(c.a)] = 1;
      if (pb) absorbed[static_cast<std::size_t>(c.b)] = 1;
    }
    form[i] = f;
  }
  for (std::size_t i = constants_; i < count; ++i)
    if (code_[i].op != Op::Var && !absorbed[i]) fused_.push_back(form[i]);
  schedule();
}

namespace {

// The registers an operation of the fused form reads.
template <class F, class Visit>
void forEachRead(const F& f, Visit&& visit) {
  visit(f.a);
  const bool binary = f.code != kNeg && f.code != kSquare && f.b != static_cast<std::uint32_t>(-1);
  if (binary) visit(f.b);
  if (f.code >= kMulAdd && f.code <= kDot2Sub) visit(f.c);
  if (f.code == kDot2 || f.code == kDot2Sub) visit(f.e);
}

}  // namespace

void Program::schedule() {
  // Level: 1 + the largest level of what an operation reads (variables and constants 0).
  // Operations of one level are independent, so any order among them gives the same bits.
  std::vector<std::uint32_t> level(code_.size(), 0), levels;
  for (const Fused& f : fused_) {
    std::uint32_t l = 0;
    forEachRead(f, [&](std::uint32_t r) { l = std::max(l, level[r]); });
    level[f.d] = l + 1;
    levels.push_back(l + 1);
  }
  std::vector<std::size_t> order(fused_.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
    return levels[i] != levels[j] ? levels[i] < levels[j] : fused_[i].code < fused_[j].code;
  });
  std::vector<Fused> sorted;
  for (std::size_t k : order) sorted.push_back(fused_[k]);
  fused_ = std::move(sorted);
  for (std::size_t k = 0; k < fused_.size(); ++k) {
    if (k == 0 || fused_[k].code != fused_[k - 1].code) {
      if (k > 0) runs_.push_back(static_cast<std::uint32_t>(k));
      runs_.push_back(static_cast<std::uint32_t>(k));
      runs_.push_back(fused_[k].code);
    }
  }
  if (!fused_.empty()) runs_.push_back(static_cast<std::uint32_t>(fused_.size()));
}

void Program::runUncompiled(const double* variables, double* out, std::vector<double>& r) const {
  if (compiledEnabled && hostCompiler.compile) {
    if (!compileTried_) compile();
    if (compiled_) {
      ++counts.compiledRuns;
      (*compiled_)(variables, out);
      return;
    }
  }
  if (code_.empty()) return;  // no outputs
  ++counts.interpretedRuns;
  if (r.size() != code_.size()) {
    r.resize(code_.size());
    for (std::size_t i = 0; i < constants_; ++i) r[i] = code_[i].value;
  }
  double* x = r.data();
  for (std::size_t k = 0; k < loads_.size(); k += 2) x[loads_[k]] = variables[loads_[k + 1]];
  const Fused* const base = fused_.data();
  for (std::size_t r = 0; r < runs_.size(); r += 3) {
    const Fused* f = base + runs_[r];
    const Fused* const end = base + runs_[r + 2];
    switch (runs_[r + 1]) {
      case kAdd:
        for (; f != end; ++f) x[f->d] = x[f->a] + x[f->b];
        break;
      case kSub:
        for (; f != end; ++f) x[f->d] = x[f->a] - x[f->b];
        break;
      case kMul:
        for (; f != end; ++f) x[f->d] = x[f->a] * x[f->b];
        break;
      case kDiv:
        for (; f != end; ++f) x[f->d] = x[f->a] / x[f->b];
        break;
      case kNeg:
        for (; f != end; ++f) x[f->d] = -x[f->a];
        break;
      case kSquare:
        for (; f != end; ++f) x[f->d] = x[f->a] * x[f->a];
        break;
      case kMulAdd:
        for (; f != end; ++f) x[f->d] = x[f->a] * x[f->b] + x[f->c];
        break;
      case kMulSub:
        for (; f != end; ++f) x[f->d] = x[f->a] * x[f->b] - x[f->c];
        break;
      case kSubMul:
        for (; f != end; ++f) x[f->d] = x[f->c] - x[f->a] * x[f->b];
        break;
      case kMul3:
        for (; f != end; ++f) x[f->d] = x[f->a] * x[f->b] * x[f->c];
        break;
      case kDot2:
        for (; f != end; ++f) x[f->d] = x[f->a] * x[f->b] + x[f->c] * x[f->e];
        break;
      case kDot2Sub:
        for (; f != end; ++f) x[f->d] = x[f->a] * x[f->b] - x[f->c] * x[f->e];
        break;
      default:
        for (; f != end; ++f)
          x[f->d] = apply(f->op, x[f->a], f->b != static_cast<std::uint32_t>(-1) ? x[f->b] : 0.0, f->n);
        break;
    }
  }
  for (std::size_t k = 0; k < outputs_.size(); ++k) out[k] = x[outputs_[k]];
}

MagnitudeBound magnitudeBound(const Program& p, int first, int count, int variables, int time) {
  // Per register: whether bounded, and the largest scale and degree over the values it
  // depends on (itself included), so that every intermediate value stays below the bound.
  constexpr int kMaxDegree = 64;
  const std::vector<Program::Instruction>& code = p.code();
  std::vector<MagnitudeBound> reg(code.size());
  for (std::size_t i = 0; i < code.size(); ++i) {
    const Program::Instruction& c = code[i];
    MagnitudeBound& r = reg[i];
    const auto join = [&](double scale, int degree, std::initializer_list<int> operands) {
      r.bounded = true;
      r.scale = scale;
      r.degree = degree;
      for (const int o : operands) {
        const MagnitudeBound& a = reg[static_cast<std::size_t>(o)];
        if (!a.bounded) {
          r.bounded = false;
          return;
        }
        r.scale = std::max(r.scale, a.scale);
        r.degree = std::max(r.degree, a.degree);
      }
      r.bounded = r.degree <= kMaxDegree && std::isfinite(r.scale);
    };
    const auto of = [&](int o) { return reg[static_cast<std::size_t>(o)]; };
    switch (c.op) {
      case Op::Const: join(std::abs(c.value), 0, {}); break;
      case Op::Var:
        if ((c.n >= 0 && c.n < variables) || c.n == time) join(1, 1, {});
        break;
      case Op::Add:
      case Op::Sub: join(of(c.a).scale + of(c.b).scale, std::max(of(c.a).degree, of(c.b).degree), {c.a, c.b}); break;
      case Op::Mul: join(of(c.a).scale * of(c.b).scale, of(c.a).degree + of(c.b).degree, {c.a, c.b}); break;
      case Op::Neg:
      case Op::Abs: join(of(c.a).scale, of(c.a).degree, {c.a}); break;
      case Op::PowInt:
        if (c.n >= 0) join(std::pow(std::max(of(c.a).scale, 1.0), c.n), of(c.a).degree * c.n, {c.a});
        break;
      // Of a finite argument: |sin|, |cos| ≤ 1 and |atan2| ≤ π (2 and 4 leave room for the
      // last bits of any implementation).
      case Op::Sin:
      case Op::Cos: join(2, 0, {c.a}); break;
      case Op::Sign: join(1, 0, {c.a}); break;
      case Op::Atan2: join(4, 0, {c.a, c.b}); break;
      case Op::Div:
      case Op::Pow:
      case Op::Sqrt:
      case Op::Tan:
      case Op::Exp:
      case Op::Log: break;
    }
  }
  MagnitudeBound out;
  out.bounded = true;
  const std::vector<int>& outputs = p.outputRegisters();
  for (int k = first; k < first + count; ++k) {
    const MagnitudeBound& r = reg[static_cast<std::size_t>(outputs[static_cast<std::size_t>(k)])];
    if (!r.bounded) return MagnitudeBound{};
    out.scale = std::max(out.scale, r.scale);
    out.degree = std::max(out.degree, r.degree);
  }
  return out;
}

}  // namespace vilab::expr
