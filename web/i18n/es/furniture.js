// Palabras del mobiliario de un sistema definido por datos (entradas de params.bodies de
// un tipo distinto de "body"), tal como las muestra el editor de la definición.
export default {
  'furniture.row': 'Mobiliario {n}: {kind}',
  'furniture.kept': 'solo se dibuja; se conserva tal como lo da el escenario',
  'furniture.remove': 'Quitar el mobiliario {n}',
  'furniture.kind.hoop': 'aro',
  'furniture.kind.pulley': 'polea',
  'furniture.kind.wire': 'alambre',
  'furniture.kind.curve': 'curva',
  'furniture.kind.floor': 'suelo',
  'furniture.kind.wall': 'pared',
};
