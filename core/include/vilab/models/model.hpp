// The models, as one type: constant parameters (MuJoCo's model/data split: the model
// never changes during a run; the State is the data).
#pragma once

#include <type_traits>
#include <variant>

#include "vilab/models/chain.hpp"
#include "vilab/models/field_model.hpp"
#include "vilab/models/lagrangian.hpp"
#include "vilab/models/mechanism.hpp"
#include "vilab/models/oscillator.hpp"
#include "vilab/models/rigid_body.hpp"

namespace vilab {

using Model = std::variant<OscillatorModel, ChainModel, RigidBodyModel, LagrangianModel, MechanismModel, FieldModel>;

// ModelKind (vocabulary.hpp: VILAB_MODEL_KINDS) lists the model types in the order of
// Model, so a model's index in the variant is its kind; the applicability table uses it.
static_assert(
    std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(ModelKind::Oscillator), Model>,
                   OscillatorModel> &&
    std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(ModelKind::Chain), Model>, ChainModel> &&
    std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(ModelKind::RigidBody), Model>, RigidBodyModel> &&
    std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(ModelKind::Lagrangian), Model>,
                   LagrangianModel> &&
    std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(ModelKind::Mechanism), Model>, MechanismModel> &&
    std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(ModelKind::Field), Model>, FieldModel> &&
    std::variant_size_v<Model> == Vocabulary<ModelKind>::size);

inline ModelKind kindOf(const Model& m) { return static_cast<ModelKind>(m.index()); }

inline const char* modelKindName(ModelKind k) { return idOf(k); }

// What the canonical state of a model is: the free and heavy rigid bodies carry a unit
// quaternion and Π, a mechanism each body's position and quaternion and its p and Π;
// every other model positions and their conjugate momenta.
inline StateKind stateKindOf(ModelKind k) {
  if (k == ModelKind::RigidBody) return StateKind::Quaternion;
  if (k == ModelKind::Mechanism) return StateKind::Bodies;
  return StateKind::Cotangent;
}

// Bodies of a model: links of a chain, 1 otherwise.
inline int bodyCount(const Model& m) {
  if (const auto* c = std::get_if<ChainModel>(&m)) return c->bobs();
  if (const auto* l = std::get_if<LagrangianModel>(&m)) return static_cast<int>(l->problem->bodies.size());
  if (const auto* k = std::get_if<MechanismModel>(&m)) return static_cast<int>(k->bodies.size());
  return 1;
}

}  // namespace vilab
