import { Hono } from 'hono';
import { findNamed } from '../../content/names.js';
import type { ContentStore } from '../../content/store.js';
import { QuireError } from '../../errors.js';
import type { AppEnv } from '../app-env.js';
import { DataByNameQuerySchema, DataListQuerySchema, DataNameAvailableQuerySchema } from '../schemas/sites.js';
import { parseInput } from '../validate.js';

/** Data entries: structured items found by collection and name. */
export function dataRoutes(store: ContentStore) {
  return new Hono<AppEnv>()
    .get('/collections', async (c) => {
      const collections = new Set((await store.list({ kind: 'data' })).map((item) => item.collection));
      return c.json({ collections: [...collections].sort() });
    })
    .get('/name-available', async (c) => {
      const { name, collection, excludeId } = parseInput(DataNameAvailableQuerySchema, c.req.query(), 'query');
      const owner = findNamed(await store.list({ kind: 'data', collection }), { kind: 'data', collection }, name, { exceptId: excludeId });
      return c.json(owner ? { available: false, existingId: owner.id } : { available: true });
    })
    .get('/', async (c) => {
      const { collection, locale } = parseInput(DataListQuerySchema, c.req.query(), 'query');
      const items = await store.list({ kind: 'data', collection, ...(locale && { locales: [locale] }) });
      return c.json({ items: items.map((item) => store.manifestOf(item, locale)), total: items.length });
    })
    .get('/:name', async (c) => {
      const { collection, locale } = parseInput(DataByNameQuerySchema, c.req.query(), 'query');
      const name = c.req.param('name');
      const item = findNamed(await store.list({ kind: 'data', collection }), { kind: 'data', collection }, name);
      if (!item || (locale !== undefined && !item.locales.has(locale))) {
        throw new QuireError('CONTENT_NOT_FOUND', `No data entry named "${name}" in collection "${collection}"${locale ? ` with locale ${locale}` : ''}.`, { name, collection, locale });
      }
      return c.json(store.manifestOf(item, locale));
    });
}
