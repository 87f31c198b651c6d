// The models, as one type: constant parameters (MuJoCo's model/data split: the model
// never changes during a run; the State is the data).
#pragma once

#include <variant>

#include "vilab/models/chain.hpp"
#include "vilab/models/lagrangian.hpp"
#include "vilab/models/oscillator.hpp"
#include "vilab/models/rigid_body.hpp"

namespace vilab {

using Model = std::variant<OscillatorModel, ChainModel, RigidBodyModel, LagrangianModel>;

// The index of a model type in Model, used by the applicability table.
enum class ModelKind { Oscillator = 0, Chain = 1, RigidBody = 2, Lagrangian = 3 };

inline ModelKind kindOf(const Model& m) { return static_cast<ModelKind>(m.index()); }

inline const char* modelKindName(ModelKind k) {
  switch (k) {
    case ModelKind::Oscillator: return "oscillator";
    case ModelKind::Chain: return "chain";
    case ModelKind::RigidBody: return "rigid-body";
    case ModelKind::Lagrangian: return "lagrangian";
  }
  return "unknown";
}

// Bodies of a model: links of a chain, 1 otherwise.
inline int bodyCount(const Model& m) {
  if (const auto* c = std::get_if<ChainModel>(&m)) return c->bobs();
  if (const auto* l = std::get_if<LagrangianModel>(&m)) return static_cast<int>(l->problem->bodies.size());
  return 1;
}

}  // namespace vilab
