// Spanish for the registry's entries: their prose files, core/prose/<kind>/<id>.es.json
// (core/prose/README.md), fetched with this chunk and flattened into the catalogue's keys
// (web/i18n/prose.js). A claim is looked up by its English words, so the English files'
// claims come along (only those).
import { proseCatalogue } from '../prose.js';

export default proseCatalogue(
  import.meta.glob('../../../core/prose/*/*.es.json', { eager: true, import: 'default' }),
  import.meta.glob('../../../core/prose/integrators/*.en.json', { eager: true, import: 'claims' }),
);
