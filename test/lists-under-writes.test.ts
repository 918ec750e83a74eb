import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ListFilters } from '../src/content/filters.js';
import { createContentQueries } from '../src/content/queries.js';
import { type ContentStore, createContentStore } from '../src/content/store.js';
import type { Item } from '../src/content/types.js';
import { isStale } from '../src/content/views.js';
import { QuireError } from '../src/errors.js';
import { createChangeFeed } from '../src/events/feed.js';
import { createSitesConfig } from '../src/sites/sites-config.js';
import { isUntranslated } from '../src/sites/untranslated.js';

// Cached lists survive writes: a write re-checks only the item it changed. Property: after each of
// 200 random writes, every cached list, needs-review and untranslated answer equals a recomputation
// from all items.

const SITES = {
  sites: {
    web: { locales: ['en', 'de', 'fr'], defaultLocale: 'en' },
    shop: { locales: ['en', 'de'], defaultLocale: 'en' },
  },
  globalLocales: ['en', 'de', 'fr'],
};
const WRITES = 200;
const PAST = '2020-01-01T00:00:00.000Z';
const FUTURE = '2099-01-01T00:00:00.000Z';

const LISTS: ListFilters[] = [
  {},
  { kind: 'page' },
  { kind: 'page', site: 'web', localization: 'complete', published: true },
  { localization: 'partial' },
  { localization: 'one' },
  { locales: ['de'] },
  { locales: ['fr'], published: false },
  { published: true },
  { missingLocales: ['fr'] },
  { kind: 'data', collection: 'facts' },
  { kind: 'fragment', type: 'mdx' },
];
const REVIEWS: Array<[string, 'page' | undefined]> = [
  ['de', undefined],
  ['fr', 'page'],
];
const UNTRANSLATED = [
  { locale: 'de', excludeSites: [], includeUnpublished: false },
  { locale: 'fr', excludeSites: ['shop'], includeUnpublished: true },
];

/** A linear congruential generator: the same run every time, so a failing write can be replayed. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('cached lists under writes', () => {
  let root: string;
  let store: ContentStore;

  beforeEach(async () => {
    root = path.join(await mkdtemp(path.join(os.tmpdir(), 'quire-lists-')), 'content');
    await mkdir(root);
    await writeFile(path.join(root, 'sites.json'), JSON.stringify(SITES));
    const sites = createSitesConfig(root);
    store = createContentStore({
      root,
      sites,
      metadataBytes: 4096,
      excluded: [path.join(root, 'assets')],
      feed: createChangeFeed(),
    });
    await store.ready;
  });

  afterEach(async () => {
    store.close();
    await rm(path.dirname(root), { recursive: true, force: true });
  });

  it('keeps every cached answer equal to a recomputation after each of 200 random writes', async () => {
    const sites = createSitesConfig(root);
    const queries = createContentQueries(store, sites);
    const rand = seeded(3);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
    const ids: string[] = [];
    let counter = 0;

    const answers = async () => [
      ...(await Promise.all(LISTS.map((filters) => store.selection({ of: 'list', filters })))),
      ...(await Promise.all(
        REVIEWS.map(([locale, kind]) => store.selection({ of: 'needs-review', locale, kind, customized: false })),
      )),
      ...(await Promise.all(UNTRANSLATED.map(({ locale, ...options }) => queries.untranslated(locale, options)))),
    ];
    const manifests = (items: Item[]) => ({ items: items.map((item) => store.manifestOf(item)), total: items.length });
    const recomputed = async () => {
      const all = await store.list({});
      const now = Date.now();
      return [
        ...(await Promise.all(LISTS.map(async (filters) => manifests(await store.list(filters))))),
        ...REVIEWS.map(([locale, kind]) =>
          manifests(
            all.filter((item) => {
              const stored = item.locales.get(locale);
              return (!kind || item.kind === kind) && stored !== undefined && isStale(item, stored);
            }),
          ),
        ),
        ...UNTRANSLATED.map(({ locale, ...options }) =>
          manifests(all.filter((item) => isUntranslated(item, sites.get(), locale, { ...options, now }))),
        ),
      ];
    };

    const locales = () => {
      const chosen: Record<string, Record<string, unknown>> = {};
      for (const locale of ['de', 'fr']) {
        const roll = rand();
        if (roll < 0.35) chosen[locale] = { inherit: true };
        else if (roll < 0.6) chosen[locale] = { content: {} };
      }
      return chosen;
    };
    const writes: Record<string, () => Promise<unknown>> = {
      async createPage() {
        const n = ++counter;
        const site = pick(['web', 'shop']);
        const extra = locales();
        if (site === 'shop') delete extra.fr;
        const input = {
          kind: 'page' as const,
          site,
          collection: 'pages',
          type: 'visual' as const,
          locales: {
            en: { pathname: `/p-${n}`, content: { visualData: { n } }, publishAt: pick([PAST, FUTURE]) },
            ...Object.fromEntries(
              Object.entries(extra).map(([code, value]) => [code, { ...value, pathname: `/${code}-${n}` }]),
            ),
          },
        };
        ids.push((await store.create(input, 'ada')).id);
      },
      async createData() {
        const n = ++counter;
        const input = {
          kind: 'data' as const,
          collection: pick(['facts', 'other']),
          type: 'json' as const,
          name: `fact-${n}`,
          locales: { en: { content: { data: { n } } }, ...locales() },
        };
        ids.push((await store.create(input, 'ada')).id);
      },
      async createFragment() {
        const n = ++counter;
        const input = {
          kind: 'fragment' as const,
          collection: 'blocks',
          type: pick(['mdx', 'visual'] as const),
          name: `block-${n}`,
          locales: { en: { content: {} } },
        };
        ids.push((await store.create(input, 'ada')).id);
      },
      updateDefault: () =>
        store.updateLocale(pick(ids), 'en', { meta: { title: `t${++counter}` }, content: {} }, '', 'bob'),
      schedule: () => store.updateLocale(pick(ids), pick(['en', 'de']), { publishAt: pick([PAST, FUTURE]) }, '', 'bob'),
      addLocale: () =>
        store.updateLocale(pick(ids), pick(['de', 'fr']), { inherit: rand() < 0.5, content: {} }, '', 'bob'),
      async removeLocale() {
        const id = pick(ids);
        const locale = pick(['de', 'fr']);
        const { etag } = await store.getLocale(id, locale);
        await store.remove(id, locale, etag, 'bob');
      },
      async removeItem() {
        const id = pick(ids);
        const { etag } = await store.getLocale(id, 'en');
        await store.remove(id, undefined, etag, 'bob');
        ids.splice(ids.indexOf(id), 1);
      },
      async review() {
        const id = pick(ids);
        const locale = pick(['de', 'fr']);
        const { etag } = await store.getLocale(id, locale);
        const action = pick(['markReviewed', 'breakInheritance', 'revertToInherited'] as const);
        await store[action](id, locale, etag, 'bob');
      },
    };
    const names = Object.keys(writes);

    await writes.createPage!();
    await writes.createData!();
    await answers();
    let applied = 0;
    for (let n = 0; n < WRITES; n++) {
      const name = ids.length < 4 ? pick(['createPage', 'createData', 'createFragment']) : pick(names);
      try {
        await writes[name]!();
        applied++;
      } catch (error) {
        // A random write may not apply (a missing locale, a transition of a locale in the wrong state).
        if (!(error instanceof QuireError)) throw error;
      }
      const cached = (await answers()).map((texts) => ({
        items: texts.map((text) => JSON.parse(text)),
        total: texts.length,
      }));
      expect(cached, `after write ${n + 1} (${name})`).toEqual(await recomputed());
    }
    expect(applied).toBeGreaterThan(WRITES / 2);
  }, 120_000);
});
