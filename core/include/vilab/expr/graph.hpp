// Expressions as a hash-consed DAG, differentiated by transforming the graph, and
// compiled to straight-line programs (as CasADi's SX graphs, or Tapenade's source
// transformation: forward-mode AD applied once, when the system is loaded, instead of
// at every evaluation).
//
// Why on the graph, not with jets at run time: a typed Lagrangian is evaluated for its
// gradient and Hessian in (q, q̇) at every Newton iteration. Differentiating the graph
// once, with constant folding and sharing, leaves only what depends on the state:
// for L = ½ m |ẋ|² − m g z the Hessian folds to constants and the gradient to 2N
// products. Evaluating the same tape over nested jets costs N² operations per node at
// every iteration (see ad.hpp), about 10× more on the double pendulum.
//
// Determinism: the elementary functions are vilab::dm's (musl, in both builds), powers
// with integer exponents are repeated multiplications, and constant folding uses the
// same functions, so a program gives the same bits natively and in wasm.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace vilab::expr {

enum class Op : std::uint8_t {
  Const,  // value
  Var,    // variable index
  Add,
  Sub,
  Mul,
  Div,
  Neg,
  PowInt,  // a^n, n an integer (repeated multiplication)
  Pow,     // a^b = exp(b log a), a > 0
  Sqrt,
  Sin,
  Cos,
  Tan,
  Exp,
  Log,
  Abs,
  Sign,   // the derivative of abs: −1, 0 or 1
  Atan2,  // atan2(a, b)
};

struct Node {
  Op op = Op::Const;
  int a = -1, b = -1;  // operands (node ids)
  int n = 0;           // Var: the variable; PowInt: the exponent
  double value = 0;    // Const
};

// Variables are numbered 0 … 63 (the Lagrangian uses q_i, q̇_i and t).
class Graph {
 public:
  int constant(double x);
  int variable(int index);
  int add(int a, int b);
  int sub(int a, int b);
  int mul(int a, int b);
  int div(int a, int b);
  int neg(int a);
  int powInt(int a, int n);
  int pow(int a, int b);
  int unary(Op op, int a);  // Sqrt … Sign
  int atan2(int a, int b);

  // ∂node/∂x_variable, memoized.
  int derivative(int node, int variable);
  // The nodes a Lagrangian's program outputs, in order: `node` itself, its gradient in
  // the first `variables` variables (q, q̇, t), then its Hessian's upper triangle row by
  // row (∂²/∂x_i∂x_j, j ≥ i).
  std::vector<int> valueGradientHessian(int node, int variables);
  // Σ_i terms[i]: a sum of many nodes.
  int sum(const std::vector<int>& terms);

  const Node& operator[](int id) const { return nodes_[static_cast<std::size_t>(id)]; }
  int size() const { return static_cast<int>(nodes_.size()); }
  bool isConstant(int id) const { return nodes_[static_cast<std::size_t>(id)].op == Op::Const; }
  bool isConstant(int id, double value) const;
  // Bit i set when the node depends on variable i.
  std::uint64_t dependencies(int id) const { return deps_[static_cast<std::size_t>(id)]; }
  bool dependsOn(int id, int variable) const { return (deps_[static_cast<std::size_t>(id)] >> variable) & 1u; }

 private:
  int intern(const Node& n, std::uint64_t deps);
  struct Key {
    Op op;
    int a, b, n;
    std::uint64_t bits;
    bool operator==(const Key& o) const { return op == o.op && a == o.a && b == o.b && n == o.n && bits == o.bits; }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };
  std::vector<Node> nodes_;
  std::vector<std::uint64_t> deps_;
  std::unordered_map<Key, int, KeyHash> index_;
  std::unordered_map<std::uint64_t, int> derivatives_;  // (node, variable) → node
};

// Evaluates one node's operation on double operands (constant folding and programs
// share it, so folded and evaluated values agree bit for bit).
double apply(Op op, double a, double b, int n);

class Program;

// A program compiled to machine code by the host: the wasm bindings compile each program
// to a WebAssembly function at its first run, so a system's programs are compiled as it
// loads and a scenario only validated compiles none (natively no compiler is set: the
// interpreter runs every program). It must give the interpreter's bits for every input.
using CompiledProgram = void (*)(const double* variables, double* out);
struct ProgramCompiler {
  CompiledProgram (*compile)(const Program&) = nullptr;  // null: not compiled (the interpreter runs it)
  void (*release)(CompiledProgram) = nullptr;            // when no program uses it any more
};
// Set once by the host.
void setProgramCompiler(const ProgramCompiler& compiler);
// false: every program runs on the interpreter from its next run on; true: compiled again
// (tests compare both; a fallback).
void setCompiledPrograms(bool enabled);
bool compiledProgramsEnabled();
struct ProgramCounts {
  std::uint64_t compiled = 0;         // programs compiled
  std::uint64_t failed = 0;           // programs whose compilation failed (interpreted instead)
  std::uint64_t compiledRuns = 0;     // runs of compiled code
  std::uint64_t interpretedRuns = 0;  // runs of the interpreter
};
ProgramCounts programCounts();
namespace detail {
// setCompiledPrograms' switch and the counts, read by Program::run's inline fast path.
extern bool compiledEnabled;
extern ProgramCounts counts;
}  // namespace detail

// A straight-line program computing chosen nodes of a graph from the variables:
// the nodes they need, in topological order, constants folded into the code.
class Program {
 public:
  struct Instruction {
    Op op;
    int a, b, n;
    double value;
  };
  Program() = default;
  Program(const Graph& graph, const std::vector<int>& outputs);
  int outputs() const { return static_cast<int>(outputs_.size()); }
  int instructions() const { return static_cast<int>(code_.size()); }
  // out[k] = value of output k at the variables. `registers` belongs to this program:
  // its constants are written on the first run only. Runs the fused form (below).
  void run(const double* variables, double* out, std::vector<double>& registers) const {
    if (compiled_ && detail::compiledEnabled) {  // inline: a step runs several small programs
      ++detail::counts.compiledRuns;
      (*compiled_)(variables, out);
      return;
    }
    runUncompiled(variables, out, registers);
  }
  // The same values by interpreting code_ one instruction at a time: the reference the
  // fused form is tested against (same bits).
  void runReference(const double* variables, double* out, std::vector<double>& registers) const;
  // How many operations the fused form dispatches (variable loads and constants excluded).
  int fusedInstructions() const { return static_cast<int>(fused_.size()); }
  // True when every output is a constant.
  bool constantOutputs() const { return constantOutputs_; }
  // The canonical form, for code generators: the instructions (operands are registers,
  // i.e. earlier instructions' indices; constants first) and the outputs' registers.
  const std::vector<Instruction>& code() const { return code_; }
  const std::vector<int>& outputRegisters() const { return outputs_; }
  bool compiled() const { return compiled_ != nullptr; }

 private:
  void compile() const;
  // run() before the first compilation, or when compiled programs are off or failed.
  void runUncompiled(const double* variables, double* out, std::vector<double>& registers) const;
  mutable std::shared_ptr<const CompiledProgram> compiled_;  // shared by copies; released with the last
  mutable bool compileTried_ = false;
  std::vector<Instruction> code_;  // constants first
  std::size_t constants_ = 0;      // how many
  std::vector<int> outputs_;       // registers
  bool constantOutputs_ = true;

  // The form run() executes, built from code_ by fuse(): variable loads hoisted into a
  // copy loop, and a product used once folded into its only consumer (a·b ± c, a·b·c,
  // a·b ± c·d, each operation rounded as in code_: no fused multiply-add), then ordered by
  // level and code so that independent operations of one kind run in one loop. Registers
  // keep code_'s numbering (single assignment), so both forms share one register file.
  struct Fused {
    std::uint8_t code;
    Op op;  // for the operations evaluated by apply()
    int n;
    std::uint32_t d, a, b, c, e;
  };
  std::vector<Fused> fused_;  // by level (longest path from the variables), then code
  // Runs of one code in fused_ (begin, end, code): one dispatch per run, not per operation.
  std::vector<std::uint32_t> runs_;
  std::vector<std::uint32_t> loads_;  // pairs (register, variable)
  void fuse();
  void schedule();
};

// A bound on some outputs of a program that holds wherever the variables it may read are
// finite: for any m ≥ max(1, |x_i|) over those variables, every value those outputs depend
// on, and so each output, is at most scale · m^degree in magnitude (rounding included, for
// scale · m^degree ≤ 1e290: see surelyWithin). Found from the program's operations, each
// bounded by its operands' bounds (|a ± b| ≤ |a| + |b|, |ab| = |a||b|, a^k for k ≥ 0,
// |sin|, |cos| ≤ 1, |atan2| ≤ π, sign, abs); an output that depends on an operation whose
// value its operands do not bound (a division, sqrt, log, exp, tan, a real or negative
// power), or on a variable outside [0, variables) other than `time`, has none.
struct MagnitudeBound {
  bool bounded = false;
  double scale = 0;
  int degree = 0;
  // scale · m^degree ≤ limit, for m ≥ 1 (false when the bound is not, or m is not finite).
  // Every value is at most scale · m^degree · (1 + ε)^k after k roundings on its path, a
  // factor below 1 + 1e-10 for any program a system can define: a limit 1e10 below
  // ±1e300 covers it, and the products here round by less. Inline: every unrecorded step
  // of a system defined by data asks it (LagrangianModel::rowSurelyRepresentable).
  bool surelyWithin(double m, double limit) const {
    if (!bounded || !(m >= 1 && m <= std::numeric_limits<double>::max())) return false;
    double b = scale;
    for (int k = 0; k < degree; ++k) b *= m;
    return b <= limit;
  }
};
// Outputs [first, first + count) of p; variables [0, variables) and `time` (−1: none) may
// be read.
MagnitudeBound magnitudeBound(const Program& p, int first, int count, int variables, int time);

}  // namespace vilab::expr
