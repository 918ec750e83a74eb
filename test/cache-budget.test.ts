import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, api } from './support/http.js';
import { createSite, type RunningSite } from './support/site.js';

const SITES = {
  sites: {
    shop: { locales: ['en', 'de', 'fr'], defaultLocale: 'en' },
    blog: { locales: ['en', 'de'], defaultLocale: 'en' },
  },
  globalLocales: ['en', 'de', 'fr'],
};

interface Manifest {
  id: string;
  kind: string;
  site?: string;
  collection: string;
  type: string;
  locales: Record<string, unknown>;
}

/** Every combination of the list filters that the client can check against the whole list. */
function queries(): Array<Record<string, string>> {
  const all: Array<Record<string, string>> = [];
  for (const kind of [undefined, 'page', 'fragment', 'data'])
    for (const site of [undefined, 'shop', 'blog'])
      for (const collection of [undefined, 'pages', 'blocks', 'facts'])
        for (const locales of [undefined, 'en', 'de', 'fr', 'de,fr'])
          for (const type of [undefined, 'visual', 'json']) {
            const query: Record<string, string> = {};
            if (kind) query.kind = kind;
            if (site) query.site = site;
            if (collection) query.collection = collection;
            if (locales) query.locales = locales;
            if (type) query.type = type;
            all.push(query);
          }
  return all;
}

function expected(all: Manifest[], query: Record<string, string>): string[] {
  return all
    .filter(
      (item) =>
        (!query.kind || item.kind === query.kind) &&
        (!query.site || item.site === query.site) &&
        (!query.collection || item.collection === query.collection) &&
        (!query.type || item.type === query.type) &&
        (!query.locales || query.locales.split(',').some((locale) => locale in item.locales)),
    )
    .map((item) => item.id);
}

/**
 * A server whose answer cache holds only a few lists: many distinct valid list queries, asked
 * twice over, each answer right every time (recomputed once pushed out of the budget).
 */
describe('many distinct list queries under a small cache budget (production)', () => {
  let server: RunningSite;
  let client: ApiClient;

  beforeAll(async () => {
    const site = await createSite({
      name: 'cache-budget',
      config: '{ requireIdentity: false, limits: { cacheBytes: 16384 } }',
      content: { 'sites.json': JSON.stringify(SITES) },
    });
    server = await site.buildAndStart();
    client = api(server.url);
    for (let n = 0; n < 24; n++) {
      const site = n % 2 ? 'shop' : 'blog';
      const kind = ['page', 'fragment', 'data'][n % 3]!;
      const body =
        kind === 'page'
          ? { kind, site, collection: 'pages', type: 'visual', locales: { en: { pathname: `/p-${n}`, content: {} } } }
          : kind === 'fragment'
            ? { kind, collection: 'blocks', type: 'visual', name: `block-${n}`, locales: { en: { content: {} } } }
            : {
                kind,
                collection: 'facts',
                type: 'json',
                name: `fact-${n}`,
                locales: { en: { content: { data: { n } } } },
              };
      if (n % 4 === 0)
        (body.locales as Record<string, unknown>).de =
          kind === 'page' ? { inherit: true, pathname: `/de-${n}` } : { inherit: true };
      const created = await client.post('/content', { body });
      expect(created.status, created.text).toBe(201);
    }
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('answers every query right, the first time and again after the cache moved on', async () => {
    const all = (await client.get('/content')).json.items as Manifest[];
    expect(all).toHaveLength(24);
    const list = queries();
    expect(list.length).toBeGreaterThan(400);
    for (const pass of [1, 2]) {
      for (const query of list) {
        const response = await client.get('/content', { query });
        expect(response.status, `${pass} ${JSON.stringify(query)}: ${response.text}`).toBe(200);
        const ids = (response.json.items as Manifest[]).map((item) => item.id);
        expect(ids, `${pass} ${JSON.stringify(query)}`).toEqual(expected(all, query));
        expect(response.json.total).toBe(ids.length);
      }
    }
    const health = await client.get('/content', { query: { kind: 'page' } });
    expect(health.status).toBe(200);
  }, 240_000);
});
