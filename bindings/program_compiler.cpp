// Expression programs compiled to WebAssembly as they load (the full module only: the
// lean one runs no system defined by data). Each program's canonical instructions go to
// the JS code generator the loader hands the module (Module.compileProgram,
// web/sim/program-compiler.js); it emits a small module that reads the variables from
// this module's memory and calls this module's elementary functions, and the function
// goes into this module's table, so the step calls it by call_indirect with no JS in
// between. The generated code repeats the interpreter's operations in its order (the
// elementary functions are the same functions, imported from here), so it gives the
// interpreter's bits; the interpreter runs whatever could not be compiled.
#include <emscripten.h>
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <vector>

#include "vilab/detmath.hpp"
#include "vilab/expr/graph.hpp"
#include "vilab/expr/parse.hpp"

using emscripten::typed_memory_view;
using emscripten::val;
using vilab::expr::Op;

namespace {

// The generator's operation codes (web/sim/program-compiler.js OPS, in this order).
int operationCode(Op op) {
  switch (op) {
    case Op::Const: return 0;
    case Op::Var: return 1;
    case Op::Add: return 2;
    case Op::Sub: return 3;
    case Op::Mul: return 4;
    case Op::Div: return 5;
    case Op::Neg: return 6;
    case Op::PowInt: return 7;
    case Op::Pow: return 8;
    case Op::Sqrt: return 9;
    case Op::Sin: return 10;
    case Op::Cos: return 11;
    case Op::Tan: return 12;
    case Op::Exp: return 13;
    case Op::Log: return 14;
    case Op::Abs: return 15;
    case Op::Sign: return 16;
    case Op::Atan2: return 17;
  }
  return -1;
}

// The interpreter's own functions, which the generated code imports.
// (apply's cases, without its switch).
double sinOf(double x) { return vilab::dm::sin(x); }
double cosOf(double x) { return vilab::dm::cos(x); }
double tanOf(double x) { return vilab::dm::tan(x); }
double expOf(double x) { return vilab::dm::exp(x); }
double logOf(double x) { return vilab::dm::log(x); }
double atan2Of(double y, double x) { return vilab::dm::atan2(y, x); }
double powOf(double a, double b) { return vilab::expr::apply(Op::Pow, a, b, 0); }

using Unary = double (*)(double);
using Binary = double (*)(double, double);

// Returns the table index of the compiled function, 0 when not compiled (no generator,
// or generation failed: the generator's message is kept in Module.programFailures).
// clang-format off
EM_JS(int, vilab_compile_program, (const std::int32_t* fields, int count, const double* values,
                                   const std::int32_t* outputs, int outputCount, const std::int32_t* imports), {
  var generate = Module["compileProgram"];
  if (typeof generate !== "function") return 0;
  try {
    var program = {
      fields: HEAP32.slice(fields >> 2, (fields >> 2) + 4 * count),
      values: HEAPF64.slice(values >> 3, (values >> 3) + count),
      outputs: HEAP32.slice(outputs >> 2, (outputs >> 2) + outputCount)
    };
    var names = ["sin", "cos", "tan", "exp", "log", "atan2", "pow"];
    var env = { memory: wasmMemory };
    for (var k = 0; k < names.length; k++) env[names[k]] = wasmTable.get(HEAP32[(imports >> 2) + k]);
    var run = generate(program, env);
    var free = Module["programSlots"] || (Module["programSlots"] = []);
    var slot = free.length ? free.pop() : wasmTable.grow(1);
    wasmTable.set(slot, run);
    return slot;
  } catch (e) {
    (Module["programFailures"] || (Module["programFailures"] = [])).push(String((e && e.message) || e));
    return 0;
  }
});

// Frees a compiled function's table slot for the next program.
EM_JS(void, vilab_release_program, (int slot), {
  wasmTable.set(slot, null);
  (Module["programSlots"] || (Module["programSlots"] = [])).push(slot);
});
// clang-format on

vilab::expr::CompiledProgram compileProgram(const vilab::expr::Program& program) {
  const auto& code = program.code();
  std::vector<std::int32_t> fields;
  std::vector<double> values;
  fields.reserve(4 * code.size());
  values.reserve(code.size());
  for (const auto& c : code) {
    const int op = operationCode(c.op);
    if (op < 0) return nullptr;
    fields.insert(fields.end(), {op, c.a, c.b, c.n});
    values.push_back(c.value);
  }
  const std::vector<std::int32_t>& outputs = program.outputRegisters();
  const auto index = [](auto f) { return static_cast<std::int32_t>(reinterpret_cast<std::intptr_t>(f)); };
  const std::int32_t imports[] = {index(static_cast<Unary>(&sinOf)), index(static_cast<Unary>(&cosOf)),
                                  index(static_cast<Unary>(&tanOf)), index(static_cast<Unary>(&expOf)),
                                  index(static_cast<Unary>(&logOf)), index(static_cast<Binary>(&atan2Of)),
                                  index(static_cast<Binary>(&powOf))};
  const int slot = vilab_compile_program(fields.data(), static_cast<int>(code.size()), values.data(), outputs.data(),
                                         static_cast<int>(outputs.size()), imports);
  if (slot <= 0) return nullptr;
  return reinterpret_cast<vilab::expr::CompiledProgram>(static_cast<std::intptr_t>(slot));
}

void releaseProgram(vilab::expr::CompiledProgram f) {
  vilab_release_program(static_cast<int>(reinterpret_cast<std::intptr_t>(f)));
}

// {compiled, failed, compiledRuns, interpretedRuns, enabled, generator}: whether the step
// runs compiled programs (the counts since the module started).
val programCounts() {
  const vilab::expr::ProgramCounts c = vilab::expr::programCounts();
  val out = val::object();
  out.set("compiled", static_cast<double>(c.compiled));
  out.set("failed", static_cast<double>(c.failed));
  out.set("compiledRuns", static_cast<double>(c.compiledRuns));
  out.set("interpretedRuns", static_cast<double>(c.interpretedRuns));
  out.set("enabled", vilab::expr::compiledProgramsEnabled());
  return out;
}

void setCompiledPrograms(bool enabled) { vilab::expr::setCompiledPrograms(enabled); }

// For the tests and the benchmark of the generated code: the program a Lagrangian takes of
// one expression (its value, gradient and Hessian in (q, q̇, t), as the expression fuzzer
// builds it), run `repeats` times at each of `points` (a Float64Array of whole variable
// vectors, copied bit for bit) by whichever path is enabled: {ok, values (Float64Array),
// compiled, instructions, outputs, operations (the instructions counted by kind)} or
// {ok: false, error: message}.
val runExpressionProgram(const std::string& text, int coordinates, bool velocities, bool time, val points,
                         int repeats) {
  val out = val::object();
  try {
    using namespace vilab::expr;
    static const char* const names[] = {"x", "th", "phi", "q1", "r", "z", "psi", "y"};
    Scope scope;
    const int n = coordinates < 1 ? 1 : coordinates > 8 ? 8 : coordinates;
    for (int i = 0; i < n; ++i) scope.coordinates.push_back(names[i]);
    scope.constants = {{"m", 1.5}, {"g", 9.81}, {"l", 0.75}, {"k", 1e3}};
    scope.velocities = velocities;
    scope.time = time;
    scope.timeUse = "here";
    Graph graph;
    const Parsed parsed = parseExpression(text, "expression", scope, graph);
    const int variables = 2 * n + 1;
    const std::vector<int> outputs = graph.valueGradientHessian(parsed.node, variables);
    const Program program(graph, outputs);
    const std::size_t count = points["length"].as<std::size_t>() / static_cast<std::size_t>(variables);
    std::vector<double> at(count * static_cast<std::size_t>(variables));
    val(typed_memory_view(at.size(), at.data())).call<void>("set", points.call<val>("subarray", 0, at.size()));
    std::vector<double> values(count * outputs.size()), registers;
    for (int r = 0; r < repeats; ++r)
      for (std::size_t k = 0; k < count; ++k)
        program.run(at.data() + k * static_cast<std::size_t>(variables), values.data() + k * outputs.size(), registers);
    out.set("ok", true);
    out.set("values", val::global("Float64Array").new_(val(typed_memory_view(values.size(), values.data()))));
    out.set("compiled", program.compiled() && compiledProgramsEnabled());
    out.set("instructions", program.instructions());
    out.set("outputs", program.outputs());
    std::vector<int> ops(static_cast<std::size_t>(operationCode(Op::Atan2) + 1));
    for (const auto& c : program.code()) ++ops[static_cast<std::size_t>(operationCode(c.op))];
    val histogram = val::array();
    for (int k : ops) histogram.call<void>("push", k);
    out.set("operations", histogram);
  } catch (const std::exception& e) {
    out.set("ok", false);
    out.set("error", std::string(e.what()));
  } catch (...) {
    out.set("ok", false);
    out.set("error", std::string("failed"));
  }
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(vilab_programs) {
  vilab::expr::setProgramCompiler({&compileProgram, &releaseProgram});
  emscripten::function("programCounts", &programCounts);
  emscripten::function("setCompiledPrograms", &setCompiledPrograms);
  emscripten::function("runExpressionProgram", &runExpressionProgram);
}
