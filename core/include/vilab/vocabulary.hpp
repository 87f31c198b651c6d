// The closed vocabularies of the library, each written once: an X-macro list of
// (enumerator, id) from which the enum, its stable ids and the published list
// (registryJson() "vocabulary", generated into the TypeScript unions of web/sim/ids.d.ts)
// all come. Ids never change once published; the JS API, the page and the tests read
// them from the registry, never from a copy.
#pragma once

#include <cstddef>

namespace vilab {

// Why a step was refused (outcome.hpp).
#define VILAB_REFUSAL_CODES(X)                                                                                  \
  X(NoConvergence, "no-convergence")   /* the iteration ran out of iterations while still contracting */        \
  X(Diverged, "diverged")              /* the iteration stopped contracting with a fresh Jacobian */            \
  X(SingularMatrix, "singular-matrix") /* the Newton (or projection) matrix is singular to working precision */ \
  X(NonFinite, "non-finite")           /* a residual, update or the new state is not finite */                  \
  X(SpuriousRoot, "spurious-root")     /* the solver found a root far from the motion */

// What a refused step suggests, beside its words (Refusal::suggestion): the page acts on it.
#define VILAB_SUGGESTION_ACTIONS(X)                                                                     \
  X(ReduceH, "reduce-h")                 /* a smaller time step h (measured to help) */                 \
  X(LoosenTolerance, "loosen-tolerance") /* a looser tolerance of an adaptive method, or a smaller h */ \
  X(ChangeScenario, "change-scenario")   /* a smaller h was measured not to help: change the state or system */

// What is wrong with an input (InputError::code, and every other error of the JS API).
#define VILAB_INPUT_ERROR_CODES(X)                                                                            \
  X(Syntax, "syntax")                     /* not valid JSON, UTF-8, a name or an expression */                \
  X(Type, "type")                         /* a value of the wrong kind: a string where a number belongs */    \
  X(Range, "range")                       /* a number outside its range, not finite or not whole */           \
  X(Length, "length")                     /* an array or list of the wrong length */                          \
  X(Missing, "missing")                   /* a required field is absent */                                    \
  X(UnknownKey, "unknown-key")            /* a field or option that does not exist */                         \
  X(UnknownId, "unknown-id")              /* a system, integrator or other name that does not exist */        \
  X(NotApplicable, "not-applicable")      /* an integrator that does not apply to this system */              \
  X(Conflict, "conflict")                 /* two inputs that cannot both hold */                              \
  X(TooLarge, "too-large")                /* beyond a size or nesting limit */                                \
  X(OffManifold, "off-manifold")          /* a state off the constraint manifold or its tangent space */      \
  X(Invalid, "invalid")                   /* well-formed but meaningless: a singular or degenerate problem */ \
  X(FullModule, "full-module")            /* in the full module, not the lean one (NotInLeanBuild) */         \
  X(NoExactSolution, "no-exact-solution") /* no exact solution is known for this scenario */                  \
  X(Disposed, "disposed")                 /* an object used after dispose() */                                \
  X(OutOfMemory, "out-of-memory")         /* the WebAssembly heap cannot grow further */                      \
  X(ModuleLoad, "module-load")            /* the WebAssembly module could not be loaded */                    \
  X(Internal, "internal")                 /* a defect: an error the library did not expect */

// The model behind a system (models/model.hpp): the order is that of the Model variant.
#define VILAB_MODEL_KINDS(X)  \
  X(Oscillator, "oscillator") \
  X(Chain, "chain")           \
  X(RigidBody, "rigid-body")  \
  X(Lagrangian, "lagrangian") \
  X(Mechanism, "mechanism")   \
  X(Field, "field")

// Which scene draws a system.
#define VILAB_VIEW_KINDS(X)                                                        \
  X(Linkage, "linkage")       /* pendulums and chains: bobs on links */            \
  X(Oscillator, "oscillator") /* a mass on a spring */                             \
  X(Rigid, "rigid")           /* a free rigid body */                              \
  X(Top, "top")               /* a rigid body about a fixed point under gravity */ \
  X(Bodies, "bodies")         /* the bodies a system defined by data lists */      \
  X(Mechanism, "mechanism")   /* rigid bodies joined by joints */                  \
  X(Field, "field")           /* a string u(x, t) over its grid */

// What the canonical state (q, p) of a system is.
#define VILAB_STATE_KINDS(X)                                                                                 \
  X(Cotangent, "cotangent")   /* positions and their conjugate momenta: (q, p) ∈ T*Q, ∮ p·dq defined */ \
  X(Quaternion, "quaternion") /* a unit quaternion [w, x, y, z] and the body angular momentum Π */          \
  X(Bodies, "bodies")         /* per body x and a unit quaternion; per body p = m ẋ and Π */

// Exact solutions the library knows (core/include/vilab/exact/).
#define VILAB_EXACT_SOLUTIONS(X) \
  X(Oscillator, "oscillator")    \
  X(Pendulum, "pendulum")        \
  X(RigidBody, "rigid-body")

// Families of integrators.
#define VILAB_INTEGRATOR_FAMILIES(X)   \
  X(Variational, "variational")        \
  X(EnergyMomentum, "energy-momentum") \
  X(Baseline, "baseline")

// What an integrator's claim (IntegratorEntry::conserves) is about: a badge applies where
// the run's system has that structure.
#define VILAB_CLAIM_KINDS(X)                                                                 \
  X(Symplectic, "symplectic")        /* the symplectic form */                               \
  X(Momentum, "momentum")            /* a momentum map (Noether) */                          \
  X(Constraints, "constraints")      /* the constraints, or |q| = 1 */                       \
  X(Energy, "energy")                /* the energy, exactly (to rounding) */                 \
  X(EnergyBounded, "energy-bounded") /* the energy, up to bounded oscillations (no drift) */ \
  X(Casimir, "casimir")              /* |Π| of a rigid body */

// What a system's parameter is (ParamSpec::quantity), where the page needs to know: the
// controls offer places' gravity, the scenes draw a body from its moments and centre of mass.
#define VILAB_QUANTITIES(X)                                                       \
  X(Gravity, "gravity")                    /* g, along −z */                    \
  X(Mass, "mass")                          /* the mass of a body */               \
  X(PrincipalMoments, "principal-moments") /* a rigid body's principal moments */ \
  X(CenterOfMass, "center-of-mass")        /* in the body frame, from the fixed point */

// The ids of a vocabulary's enum E, in enumerator order (specialized below).
template <class E>
struct Vocabulary;

#define VILAB_VOCABULARY_ENUMERATOR(name, id) name,
#define VILAB_VOCABULARY_ID(name, id) id,
#define VILAB_VOCABULARY(Enum, LIST)                                  \
  enum class Enum { LIST(VILAB_VOCABULARY_ENUMERATOR) };              \
  template <>                                                         \
  struct Vocabulary<Enum> {                                           \
    static constexpr const char* ids[] = {LIST(VILAB_VOCABULARY_ID)}; \
    static constexpr std::size_t size = sizeof(ids) / sizeof(ids[0]); \
  };

VILAB_VOCABULARY(SuggestionAction, VILAB_SUGGESTION_ACTIONS)
VILAB_VOCABULARY(InputErrorCode, VILAB_INPUT_ERROR_CODES)
VILAB_VOCABULARY(ModelKind, VILAB_MODEL_KINDS)
VILAB_VOCABULARY(ViewKind, VILAB_VIEW_KINDS)
VILAB_VOCABULARY(StateKind, VILAB_STATE_KINDS)
VILAB_VOCABULARY(ExactSolution, VILAB_EXACT_SOLUTIONS)
VILAB_VOCABULARY(IntegratorFamily, VILAB_INTEGRATOR_FAMILIES)
VILAB_VOCABULARY(ClaimKind, VILAB_CLAIM_KINDS)
VILAB_VOCABULARY(Quantity, VILAB_QUANTITIES)

// RefusalCode also has None (a step that was not refused), which is not published.
enum class RefusalCode { VILAB_REFUSAL_CODES(VILAB_VOCABULARY_ENUMERATOR) None };
template <>
struct Vocabulary<RefusalCode> {
  static constexpr const char* ids[] = {VILAB_REFUSAL_CODES(VILAB_VOCABULARY_ID)};
  static constexpr std::size_t size = sizeof(ids) / sizeof(ids[0]);
};

// The stable id of a value ("no-convergence", "rigid-body", …); "none" for RefusalCode::None.
template <class E>
constexpr const char* idOf(E value) {
  const auto i = static_cast<std::size_t>(value);
  return i < Vocabulary<E>::size ? Vocabulary<E>::ids[i] : "none";
}

}  // namespace vilab
