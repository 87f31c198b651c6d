// Evaluation of expression programs and of single operations (the hot path of
// systems defined by data; graph.cpp builds them).
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

namespace {

// The host's compiler and the counts (a WebAssembly instance runs one thread).
ProgramCompiler hostCompiler;
bool compiledEnabled = true;
ProgramCounts counts;

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

void Program::run(const double* variables, double* out, std::vector<double>& r) const {
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

}  // namespace vilab::expr
