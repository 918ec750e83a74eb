import { Hono } from 'hono';
import { findFragment, fragmentsInScope } from '../../content/fragment-scope.js';
import { findNamed } from '../../content/names.js';
import type { ContentStore } from '../../content/store.js';
import type { Item } from '../../content/types.js';
import { QuireError } from '../../errors.js';
import { requireSite, type SitesSource } from '../../sites/sites-config.js';
import type { AppEnv } from '../app-env.js';
import { FragmentByNameQuerySchema, FragmentListQuerySchema, FragmentNameAvailableQuerySchema } from '../schemas/sites.js';
import { parseInput } from '../validate.js';

/**
 * `/fragments` and `/blocks`: the same items under two words. Also answers the Sites routes for
 * this scope (`/fragments/collections`, and 400 for pages, pathnames and moves), which must win
 * over `/:name`.
 */
export function fragmentRoutes(store: ContentStore, sites: SitesSource, word: 'fragment' | 'block') {
  const requireKnownSite = (site: string | undefined) => {
    if (site !== undefined) requireSite(sites.get(), site);
  };
  const manifest = (item: Item, locale?: string) => ({ ...store.manifestOf(item, locale), kind: word });
  const scopeMisuse = () => {
    throw new QuireError('INVALID_REQUEST', `The ${word}s scope has no pages, pathnames or moves; use a site name instead of "${word}s".`);
  };

  return new Hono<AppEnv>()
    .get('/collections', async (c) => {
      const collections = new Set((await store.list({ kind: 'fragment' })).map((item) => item.collection));
      return c.json({ collections: [...collections].sort() });
    })
    .get('/pages', scopeMisuse)
    .get('/pathname-available', scopeMisuse)
    .post('/move', scopeMisuse)
    .get('/name-available', async (c) => {
      const { name, collection, locale, excludeId, site } = parseInput(FragmentNameAvailableQuerySchema, c.req.query(), 'query');
      requireKnownSite(site);
      const owner = findNamed(await store.list({ kind: 'fragment', collection }), { kind: 'fragment', collection, ...(site !== undefined && { site }) }, name, { exceptId: excludeId, locale });
      return c.json(owner ? { available: false, existingId: owner.id } : { available: true });
    })
    .get('/', async (c) => {
      const { collection, locale, site } = parseInput(FragmentListQuerySchema, c.req.query(), 'query');
      requireKnownSite(site);
      const fragments = await store.list({ kind: 'fragment', collection, ...(locale && { locales: [locale] }) });
      const items = fragmentsInScope(fragments, site).map(({ item, scope }) => (site === undefined ? manifest(item, locale) : { ...manifest(item, locale), scope }));
      return c.json({ items, total: items.length });
    })
    .get('/:name', async (c) => {
      const { collection, locale, site } = parseInput(FragmentByNameQuerySchema, c.req.query(), 'query');
      requireKnownSite(site);
      const name = c.req.param('name');
      const item = findFragment(await store.list({ kind: 'fragment', collection }), collection, name, site);
      if (!item || (locale !== undefined && !item.locales.has(locale))) {
        throw new QuireError('CONTENT_NOT_FOUND', `No ${word} named "${name}" in collection "${collection}"${locale ? ` with locale ${locale}` : ''}.`, { name, collection, locale });
      }
      return c.json(manifest(item, locale));
    });
}
