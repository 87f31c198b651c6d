// The models, as one type: constant parameters (MuJoCo's model/data split: the model
// never changes during a run; the State is the data).
#pragma once

#include <variant>

#include "vilab/models/chain.hpp"
#include "vilab/models/oscillator.hpp"
#include "vilab/models/rigid_body.hpp"

namespace vilab {

using Model = std::variant<OscillatorModel, ChainModel, RigidBodyModel>;

// The index of a model type in Model, used by the applicability table.
enum class ModelKind { Oscillator = 0, Chain = 1, RigidBody = 2 };

inline ModelKind kindOf(const Model& m) { return static_cast<ModelKind>(m.index()); }

inline const char* modelKindName(ModelKind k) {
  switch (k) {
    case ModelKind::Oscillator: return "oscillator";
    case ModelKind::Chain: return "chain";
    case ModelKind::RigidBody: return "rigid-body";
  }
  return "unknown";
}

// Bodies of a model: links of a chain, 1 otherwise.
inline int bodyCount(const Model& m) {
  if (const auto* c = std::get_if<ChainModel>(&m)) return c->bobs();
  return 1;
}

}  // namespace vilab
