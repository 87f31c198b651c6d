// English words for the furniture of a system defined by data (params.bodies entries of
// a kind other than "body"), as the Definition editor lists them.
export default {
  'furniture.row': 'Furniture {n}: {kind}',
  'furniture.kept': 'drawn only; kept as the scenario gives it',
  'furniture.remove': 'Remove furniture {n}',
  'furniture.kind.hoop': 'hoop',
  'furniture.kind.pulley': 'pulley',
  'furniture.kind.wire': 'wire',
  'furniture.kind.curve': 'curve',
  'furniture.kind.floor': 'floor',
  'furniture.kind.wall': 'wall',
};
