import type { ContentQueries } from '../../content/queries.js';
import type { API } from '../endpoints.js';
import type { AreaHandlers } from '../register.js';

/** Data entries: structured items found by collection and name. */
export function dataHandlers(queries: ContentQueries): AreaHandlers<typeof API.data> {
  return {
    collections: async (_, c) => c.json({ collections: await queries.collections(['data']) }),
    nameAvailable: async ({ query: { name, collection, excludeId } }, c) =>
      c.json(await queries.nameAvailability({ kind: 'data', collection }, name, { excludeId })),
    list: async ({ query: { collection, locale } }, c) => c.json(await queries.dataEntries({ collection }, locale)),
    get: async ({ params, query }, c) => c.json(await queries.dataEntry(query.collection, params.name, query.locale)),
  };
}
