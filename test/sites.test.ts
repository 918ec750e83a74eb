import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuireClient, NotFoundError, type QuireClient } from '../src/client/index.js';
import { type ApiClient, api } from './support/http.js';
import { idLabels } from './support/ids.js';
import { createSite, type RunningSite, type TestSite } from './support/site.js';

const SITES = {
  sites: {
    shop: { locales: ['en', 'de', 'fr'], defaultLocale: 'en', domains: { en: 'shop.example', de: 'shop.example.de' } },
    blog: { locales: ['en', 'de'], defaultLocale: 'en' },
  },
  globalLocales: ['en', 'de'],
};

/** A GET with a chosen Host header (fetch does not let a caller set it). */
function requestWithHost(url: string, host: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { host }, timeout: 15_000 }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, location: response.headers.location });
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
  });
}

describe.each(['dev', 'production'] as const)('sites, data, fragments and redirects (%s)', (mode) => {
  let site: TestSite;
  let server: RunningSite;
  let client: ApiClient;
  /** The typed client, for the sections that use it. */
  let quire: QuireClient;
  const labels = idLabels();
  const idOf = labels.idOf;
  /** The labels of a list's items (in the list's order, which is by ID). */
  const ids = (response: { json: { items: Array<{ id: string }> } }) =>
    response.json.items.map((item) => labels.of(item.id));

  beforeAll(async () => {
    site = await createSite({
      name: `sites-${mode}`,
      config: '{ requireIdentity: false }',
      content: { 'sites.json': JSON.stringify(SITES, null, 2) },
      // Pages at the non-ASCII pathnames pages are moved to, and the site's own 404 page.
      files: {
        'src/pages/über-das-team.astro': '---\n---\n<html><body><h1>Über das Team</h1></body></html>\n',
        'src/pages/команда.astro': '---\n---\n<html><body><h1>Команда</h1></body></html>\n',
        'src/pages/404.astro':
          "---\nexport const prerender = false;\n---\n<html><body><h1>The site's own 404</h1></body></html>\n",
      },
    });
    server = mode === 'dev' ? await site.startDev() : await site.buildAndStart();
    client = api(server.url);
    quire = createQuireClient({ baseUrl: server.url });

    /** Creates an item and names its ID `label` (its readable part, unless given). */
    const create = async (body: unknown, label: string, readable = label) => {
      const response = await client.post('/content', { body });
      expect(response.status, response.text).toBe(201);
      return labels.name(response.json.id as string, label, readable);
    };
    const page = (siteName: string, pathname: string, label: string, locales: Record<string, unknown> = {}) =>
      create(
        {
          kind: 'page',
          site: siteName,
          collection: 'pages',
          type: 'visual',
          locales: {
            en: { pathname, meta: { title: pathname }, content: { visualData: { text: pathname } } },
            ...locales,
          },
        },
        label,
      );
    await page('shop', '/', 'home', { de: { pathname: '/de', inherit: true } });
    await page('shop', '/shoes', 'shoes', {
      de: { pathname: '/de/schuhe', content: {} },
      fr: { pathname: '/fr/chaussures', content: {} },
    });
    await page('shop', '/hats', 'hats');
    await create(
      {
        kind: 'page',
        site: 'shop',
        collection: 'landing',
        type: 'mdx',
        locales: { en: { pathname: '/sale', content: { mdx: '# Sale' } } },
      },
      'sale',
    );
    await page('blog', '/hello', 'hello');
    await create(
      {
        kind: 'page',
        site: 'blog',
        collection: 'pages',
        type: 'visual',
        locales: { en: { pathname: '/draft', publishAt: '2999-01-01T00:00:00Z', content: {} } },
      },
      'draft',
    );
    const fragment = (name: string, label: string, extra: Record<string, unknown> = {}) =>
      create(
        {
          kind: 'fragment',
          collection: 'components',
          type: 'visual',
          name,
          locales: { en: { content: { visualData: { name } } } },
          ...extra,
        },
        label,
        name,
      );
    await fragment('header', 'header', {
      locales: { en: { content: { visualData: { scope: 'global' } } }, de: { inherit: true } },
    });
    await fragment('footer', 'footer');
    await create(
      {
        kind: 'fragment',
        collection: 'callouts',
        type: 'mdx',
        name: 'tip',
        locales: { en: { content: { mdx: 'Tip' } } },
      },
      'tip',
    );
    await fragment('header', 'header-2', {
      site: 'shop',
      locales: { en: { content: { visualData: { scope: 'shop' } } } },
    });
    await create(
      {
        kind: 'data',
        collection: 'authors',
        type: 'json',
        name: 'ada',
        locales: { en: { content: { data: { born: 1815 } } }, de: { inherit: true } },
      },
      'ada',
    );
    await create(
      {
        kind: 'data',
        collection: 'authors',
        type: 'json',
        name: 'grace',
        locales: { en: { content: { data: { born: 1906 } } } },
      },
      'grace',
    );
    await create(
      {
        kind: 'data',
        collection: 'settings',
        type: 'json',
        name: 'checkout',
        locales: { en: { content: { data: { currency: 'EUR' } } } },
      },
      'checkout',
    );
  });

  afterAll(async () => {
    await server?.stop();
  });

  describe('sites', () => {
    it('returns sites.json exactly', async () => {
      const response = await client.get('/sites');
      expect(response.status).toBe(200);
      expect(response.json).toEqual(SITES);
    });

    it('lists collections of a site, and of the fragment scope', async () => {
      expect((await client.get('/shop/collections')).json).toEqual({ collections: ['landing', 'pages'] });
      expect((await client.get('/blog/collections')).json).toEqual({ collections: ['pages'] });
      expect((await client.get('/fragments/collections')).json).toEqual({ collections: ['callouts', 'components'] });
      expect((await client.get('/blocks/collections')).json).toEqual({ collections: ['callouts', 'components'] });
      const unknown = await client.get('/nowhere/collections');
      expect(unknown.status).toBe(404);
      expect(unknown.json.error.code).toBe('SITE_NOT_FOUND');
    });

    it('lists the pages of a site, optionally reduced to one locale', async () => {
      const all = await client.get('/shop/pages');
      expect(all.status).toBe(200);
      expect(ids(all)).toEqual(['home', 'hats', 'sale', 'shoes'].sort());
      expect(all.json.total).toBe(4);
      const german = await client.get('/shop/pages', { query: { locale: 'de' } });
      expect(ids(german).sort()).toEqual(['home', 'shoes']);
      for (const item of german.json.items) expect(Object.keys(item.locales)).toEqual(['de']);
      for (const scope of ['fragments', 'blocks']) {
        const misuse = await client.get(`/${scope}/pages`);
        expect(misuse.status).toBe(400);
        expect(misuse.json.error.code).toBe('INVALID_REQUEST');
      }
      expect((await client.get('/nowhere/pages')).status).toBe(404);
    });

    it('checks pathname availability per site and locale', async () => {
      expect((await client.get('/shop/pathname-available', { query: { pathname: '/shoes' } })).json).toEqual({
        available: false,
        existingId: idOf('shoes'),
      });
      expect(
        (await client.get('/shop/pathname-available', { query: { pathname: '/shoes', excludeId: idOf('shoes') } }))
          .json,
      ).toEqual({ available: true });
      expect(
        (await client.get('/shop/pathname-available', { query: { pathname: '/shoes', locale: 'de' } })).json,
      ).toEqual({ available: true });
      expect(
        (await client.get('/shop/pathname-available', { query: { pathname: '/de/schuhe', locale: 'de' } })).json,
      ).toEqual({ available: false, existingId: idOf('shoes') });
      expect((await client.get('/blog/pathname-available', { query: { pathname: '/shoes' } })).json).toEqual({
        available: true,
      });
      const missing = await client.get('/shop/pathname-available');
      expect(missing.status).toBe(400);
      expect(missing.json.error.code).toBe('MISSING_REQUIRED_FIELD');
      const bad = await client.get('/shop/pathname-available', { query: { pathname: 'shoes/' } });
      expect(bad.status).toBe(400);
      expect(bad.json.error.code).toBe('INVALID_REQUEST');
      expect((await client.get('/fragments/pathname-available', { query: { pathname: '/x' } })).status).toBe(400);
      expect((await client.get('/nowhere/pathname-available', { query: { pathname: '/x' } })).status).toBe(404);
    });
  });

  describe('moves and redirects', () => {
    const move = async (id: string, pathname: string, locale = 'en', siteName = 'shop') => {
      const etag = (await client.get(`/content/${id}/${locale}`)).json.localized.etag;
      return client.post(`/${siteName}/move`, { body: { id, pathname, locale, etag } });
    };
    const follow = (pathname: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${pathname}`, { redirect: 'manual', headers, signal: AbortSignal.timeout(15_000) });

    it('validates the move body and answers 404, 409 and 412', async () => {
      const etag = (await client.get(`/content/${idOf('hats')}/en`)).json.localized.etag;
      const full = { id: idOf('hats'), pathname: '/caps', locale: 'en', etag };
      for (const field of ['id', 'pathname', 'locale', 'etag'] as const) {
        const { [field]: _dropped, ...body } = full;
        const response = await client.post('/shop/move', { body });
        expect(response.status).toBe(400);
        expect(response.json.error.code).toBe('MISSING_REQUIRED_FIELD');
        expect(response.json.error.details.fields.map((f: { field: string }) => f.field)).toEqual([field]);
      }
      expect((await client.post('/nowhere/move', { body: full })).json.error.code).toBe('SITE_NOT_FOUND');
      const unknown = await client.post('/shop/move', { body: { ...full, id: 'nothing' } });
      expect(unknown.status).toBe(404);
      expect(unknown.json.error.code).toBe('CONTENT_NOT_FOUND');
      const otherSite = await client.post('/blog/move', { body: full });
      expect(otherSite.status).toBe(404);
      const taken = await client.post('/shop/move', { body: { ...full, pathname: '/shoes' } });
      expect(taken.status).toBe(409);
      expect(taken.json.error.code).toBe('PATHNAME_TAKEN');
      const stale = await client.post('/shop/move', { body: { ...full, etag: 'old.etag' } });
      expect(stale.status).toBe(412);
      expect(stale.json.error.code).toBe('STALE_WRITE');
      expect((await client.post('/fragments/move', { body: full })).status).toBe(400);
      expect((await client.get(`/content/${idOf('hats')}/en`)).json.localized.pathname).toBe('/hats');
    });

    it('moves a page, keeps the old pathname on disk and redirects it with a 301', async () => {
      const response = await move(idOf('hats'), '/caps');
      expect(response.status, response.text).toBe(200);
      expect(response.json).toEqual({
        moved: true,
        previousPathname: '/hats',
        etag: expect.stringMatching(/^[\w-]+\.[\w-]+$/),
      });
      expect((await client.get(`/content/${idOf('hats')}/en`)).json.localized).toMatchObject({
        pathname: '/caps',
        previousPathnames: ['/hats'],
        etag: response.json.etag,
      });
      const file = JSON.parse(
        await readFile(path.join(site.contentRoot, `pages/shop/pages/${idOf('hats')}.en.json`), 'utf8'),
      );
      expect(file.previousPathnames).toEqual(['/hats']);

      const redirects = await client.get('/redirects', { query: { site: 'shop', locale: 'en' } });
      expect(redirects.json).toEqual({
        items: [{ site: 'shop', locale: 'en', from: '/hats', to: '/caps', id: idOf('hats') }],
        total: 1,
      });
      const redirected = await follow('/hats?color=red');
      expect(redirected.status).toBe(301);
      expect(redirected.headers.get('location')).toBe('/caps?color=red');
      expect((await follow('/')).status).toBe(200);
    });

    it('collapses chains to one hop, never loops, and drops a redirect when another page takes the pathname', async () => {
      expect((await move(idOf('hats'), '/beanies')).status).toBe(200);
      const chain = (await client.get('/redirects', { query: { site: 'shop' } })).json.items;
      expect(chain).toEqual([
        { site: 'shop', locale: 'en', from: '/caps', to: '/beanies', id: idOf('hats') },
        { site: 'shop', locale: 'en', from: '/hats', to: '/beanies', id: idOf('hats') },
      ]);
      expect((await follow('/hats')).headers.get('location')).toBe('/beanies');

      expect((await move(idOf('hats'), '/hats')).status).toBe(200);
      const back = (await client.get('/redirects', { query: { site: 'shop' } })).json.items;
      expect(back.map((redirect: { from: string }) => redirect.from)).toEqual(['/beanies', '/caps']);
      expect(back.every((redirect: { to: string }) => redirect.to === '/hats')).toBe(true);
      expect((await follow('/caps')).headers.get('location')).toBe('/hats');

      expect((await move(idOf('sale'), '/caps')).status).toBe(200);
      const reused = (await client.get('/redirects', { query: { site: 'shop' } })).json.items;
      expect(reused.map((redirect: { from: string }) => redirect.from)).toEqual(['/beanies', '/sale']);
      expect((await follow('/caps')).status).not.toBe(301);
    });

    it('filters redirects by site and locale, and picks the site by the request domain', async () => {
      expect((await move(idOf('hello'), '/hello-world', 'en', 'blog')).status).toBe(200);
      expect((await follow('/hello')).headers.get('location')).toBe('/hello-world');
      expect((await client.get('/redirects', { query: { site: 'blog' } })).json.total).toBe(1);
      expect((await client.get('/redirects', { query: { locale: 'de' } })).json.total).toBe(0);

      // Both sites moved a page away from /promo: only the request's domain can tell which one is meant.
      for (const siteName of ['shop', 'blog']) {
        const created = await client.post('/content', {
          body: {
            kind: 'page',
            site: siteName,
            collection: 'pages',
            type: 'visual',
            locales: { en: { pathname: '/promo', content: {} } },
          },
        });
        labels.name(created.json.id, siteName === 'shop' ? 'promo' : 'promo-2', 'promo');
        expect((await move(created.json.id, `/promo-${siteName}`, 'en', siteName)).status).toBe(200);
      }
      expect((await follow('/promo')).status).not.toBe(301);
      // Vite's dev server refuses Host headers it does not know (403), so the domain is checked on the built server.
      if (mode === 'production') {
        expect(await requestWithHost(`${server.url}/promo`, 'shop.example')).toEqual({
          status: 301,
          location: '/promo-shop',
        });
      }
    });
  });

  describe('untranslated', () => {
    it('lists published items lacking a locale their scope has', async () => {
      const german = await client.get('/untranslated/de');
      expect(german.status).toBe(200);
      // The two promo pages share a readable part: their order is their random suffixes'.
      expect(ids(german).sort()).toEqual([
        'checkout',
        'footer',
        'grace',
        'hats',
        'header-2',
        'hello',
        'promo',
        'promo-2',
        'sale',
        'tip',
      ]);
      expect(german.json.total).toBe(german.json.items.length);
    });

    it('honours excludeSites and includeUnpublished, and site locales', async () => {
      expect(ids(await client.get('/untranslated/de', { query: { excludeSites: 'shop,blog' } })).sort()).toEqual([
        'checkout',
        'footer',
        'grace',
        'tip',
      ]);
      expect(
        ids(await client.get('/untranslated/de', { query: { includeUnpublished: 'true', excludeSites: 'shop' } })),
      ).toContain('draft');
      expect(ids(await client.get('/untranslated/de', { query: { excludeSites: 'shop' } }))).not.toContain('draft');
      // fr is a locale of the shop only: the blog's pages and the global items are not asked for it.
      expect(ids(await client.get('/untranslated/fr')).sort()).toEqual(['hats', 'header-2', 'home', 'promo', 'sale']);
    });
  });

  describe('data entries', () => {
    const itemIds = (list: { items: Array<{ id: string }> }) => list.items.map((item) => labels.of(item.id));

    it('lists data collections and entries, optionally by collection and locale', async () => {
      expect(await quire.data.collections()).toEqual({ collections: ['authors', 'settings'] });
      expect(itemIds(await quire.data.list())).toEqual(['ada', 'checkout', 'grace']);
      expect(itemIds(await quire.data.list({ collection: 'authors' }))).toEqual(['ada', 'grace']);
      const german = await quire.data.list({ locale: 'de' });
      expect(itemIds(german)).toEqual(['ada']);
      expect(Object.keys(german.items[0]!.locales)).toEqual(['de']);
    });

    it('checks name availability', async () => {
      expect(await quire.data.nameAvailable('ada', 'authors')).toEqual({ available: false, existingId: idOf('ada') });
      expect(await quire.data.nameAvailable('ada', 'authors', { excludeId: idOf('ada') })).toEqual({ available: true });
      expect(await quire.data.nameAvailable('ada', 'settings')).toEqual({ available: true });
      // Requests the typed client cannot express.
      for (const query of [{ name: 'ada' }, { collection: 'authors' }]) {
        const response = await client.get('/data/name-available', { query });
        expect(response.status).toBe(400);
        expect(response.json.error.code).toBe('MISSING_REQUIRED_FIELD');
      }
    });

    it('returns an entry by name as a manifest, reduced to one locale on request', async () => {
      const whole = await quire.data.get('ada', 'authors');
      expect(whole).toMatchObject({ id: idOf('ada'), type: 'json', kind: 'data', collection: 'authors' });
      expect(Object.keys(whole.locales)).toEqual(['de', 'en']);
      expect('content' in whole.locales.en!).toBe(false);
      const german = await quire.data.get('ada', 'authors', { locale: 'de' });
      expect(Object.keys(german.locales)).toEqual(['de']);
      const noCollection = await client.get('/data/ada');
      expect(noCollection.status).toBe(400);
      expect(noCollection.json.error.code).toBe('MISSING_REQUIRED_FIELD');
      for (const [collection, locale] of [
        ['settings', undefined],
        ['authors', 'fr'],
      ] as const) {
        const missing = await quire.data.get('ada', collection, { locale }).catch((error: unknown) => error);
        expect(missing).toBeInstanceOf(NotFoundError);
        expect(missing).toMatchObject({ status: 404, code: 'CONTENT_NOT_FOUND' });
      }
    });
  });

  describe.each([
    ['fragments', 'fragment'],
    ['blocks', 'block'],
  ] as const)('%s', (scope, word) => {
    it('lists global items by default, all collections, with the right kind', async () => {
      const all = await client.get(`/${scope}`);
      expect(ids(all)).toEqual(['footer', 'header', 'tip']);
      expect(
        all.json.items.every(
          (item: { kind: string; scope?: string }) => item.kind === word && item.scope === undefined,
        ),
      ).toBe(true);
      expect(ids(await client.get(`/${scope}`, { query: { collection: 'callouts' } }))).toEqual(['tip']);
      const german = await client.get(`/${scope}`, { query: { locale: 'de' } });
      expect(ids(german)).toEqual(['header']);
      expect(Object.keys(german.json.items[0].locales)).toEqual(['de']);
    });

    it('merges site items over global ones with a scope annotation', async () => {
      const merged = await client.get(`/${scope}`, { query: { site: 'shop' } });
      expect(merged.json.items.map((item: { id: string; scope: string }) => [labels.of(item.id), item.scope])).toEqual([
        ['footer', 'global'],
        ['header-2', 'site'],
        ['tip', 'global'],
      ]);
      expect(ids(await client.get(`/${scope}`, { query: { site: 'blog' } }))).toEqual(['footer', 'header', 'tip']);
      expect((await client.get(`/${scope}`, { query: { site: 'nowhere' } })).status).toBe(404);
    });

    it('checks name availability with its defaults and scopes', async () => {
      expect((await client.get(`/${scope}/name-available`, { query: { name: 'header' } })).json).toEqual({
        available: false,
        existingId: idOf('header'),
      });
      expect(
        (await client.get(`/${scope}/name-available`, { query: { name: 'header', excludeId: idOf('header') } })).json,
      ).toEqual({ available: true });
      expect((await client.get(`/${scope}/name-available`, { query: { name: 'header', locale: 'de' } })).json).toEqual({
        available: false,
        existingId: idOf('header'),
      });
      expect((await client.get(`/${scope}/name-available`, { query: { name: 'footer', locale: 'de' } })).json).toEqual({
        available: true,
      });
      expect((await client.get(`/${scope}/name-available`, { query: { name: 'tip' } })).json).toEqual({
        available: true,
      });
      expect(
        (await client.get(`/${scope}/name-available`, { query: { name: 'tip', collection: 'callouts' } })).json,
      ).toEqual({ available: false, existingId: idOf('tip') });
      expect((await client.get(`/${scope}/name-available`, { query: { name: 'header', site: 'shop' } })).json).toEqual({
        available: false,
        existingId: idOf('header-2'),
      });
      expect((await client.get(`/${scope}/name-available`, { query: { name: 'footer', site: 'shop' } })).json).toEqual({
        available: true,
      });
      const missing = await client.get(`/${scope}/name-available`);
      expect(missing.status).toBe(400);
      expect(missing.json.error.code).toBe('MISSING_REQUIRED_FIELD');
    });

    it('finds an item by name: the site one first, then the global one', async () => {
      const global = await client.get(`/${scope}/header`);
      expect(global.status).toBe(200);
      expect(global.json).toMatchObject({ id: idOf('header'), kind: word, collection: 'components' });
      expect((await client.get(`/${scope}/header`, { query: { site: 'shop' } })).json.id).toBe(idOf('header-2'));
      expect((await client.get(`/${scope}/footer`, { query: { site: 'shop' } })).json.id).toBe(idOf('footer'));
      const german = await client.get(`/${scope}/header`, { query: { locale: 'de' } });
      expect(Object.keys(german.json.locales)).toEqual(['de']);
      expect((await client.get(`/${scope}/tip`, { query: { collection: 'callouts' } })).json.id).toBe(idOf('tip'));
      for (const [name, query] of [
        ['tip', {}],
        ['nothing', {}],
        ['footer', { locale: 'de' }],
      ] as const) {
        const missing = await client.get(`/${scope}/${name}`, { query });
        expect(missing.status).toBe(404);
        expect(missing.json.error.code).toBe('CONTENT_NOT_FOUND');
        expect(missing.json.error.message).toContain(word);
      }
    });
  });

  describe('names and sites.json', () => {
    it('refuses fragment and data names that a fixed route would shadow', async () => {
      for (const name of ['collections', 'pages', 'pathname-available', 'name-available', 'move']) {
        const response = await client.post('/content', {
          body: { kind: 'fragment', collection: 'components', type: 'visual', name, locales: { en: { content: {} } } },
        });
        expect(response.status).toBe(400);
        expect(response.json.error.code).toBe('INVALID_REQUEST');
      }
    });

    it('refuses a site named like a fixed route with a message naming it, without crashing', async () => {
      const file = path.join(site.contentRoot, 'sites.json');
      await writeFile(
        file,
        JSON.stringify({ ...SITES, sites: { ...SITES.sites, assets: { locales: ['en'], defaultLocale: 'en' } } }),
      );
      const broken = await client.get('/sites');
      expect(broken.status).toBe(500);
      expect(broken.json.error.code).toBe('INTERNAL_ERROR');
      expect(broken.json.error.message).toContain('"assets"');
      await writeFile(file, JSON.stringify(SITES, null, 2));
      expect((await client.get('/sites')).json).toEqual(SITES);
    });
  });

  describe('redirects of non-ASCII pathnames', () => {
    const get = (
      target: string,
      host?: string,
    ): Promise<{ status: number; location: string | undefined; text?: string }> =>
      host
        ? requestWithHost(`${server.url}${target}`, host)
        : fetch(`${server.url}${target}`, { redirect: 'manual', signal: AbortSignal.timeout(15_000) }).then(
            async (response) => ({
              status: response.status,
              location: response.headers.get('location') ?? undefined,
              text: await response.text(),
            }),
          );

    it.each([
      ['Latin with diacritics', '/über-uns', '/über-das-team'],
      ['Cyrillic', '/о-нас', '/команда'],
    ])('%s: the encoded old URL answers 301 with an encoded Location that leads to the page', async (_, from, to) => {
      const created = await client.post('/content', {
        body: {
          kind: 'page',
          site: 'shop',
          collection: 'pages',
          type: 'visual',
          locales: { en: { pathname: from, content: {} } },
        },
      });
      expect(created.status, created.text).toBe(201);
      const moved = await client.post('/shop/move', {
        body: { id: created.json.id, pathname: to, locale: 'en', etag: created.json.etag },
      });
      expect(moved.status, moved.text).toBe(200);

      const redirected = await get(`${encodeURI(from)}?ref=mail&q=%C3%A4`);
      expect(redirected.status).toBe(301);
      expect(redirected.location).toBe(`${encodeURI(to)}?ref=mail&q=%C3%A4`);
      // Decomposed (NFD) in the request, composed in the store: the same pathname.
      expect((await get(encodeURI(from.normalize('NFD')))).location).toBe(encodeURI(to));
      const followed = await get(redirected.location!);
      expect(followed.status).toBe(200);
      expect(followed.text).toContain(to === '/команда' ? 'Команда' : 'Über das Team');
      if (mode === 'production') {
        // The site's domain picks the site; the Location is encoded the same way.
        expect(await get(encodeURI(from), 'shop.example')).toEqual({ status: 301, location: encodeURI(to) });
      }
    });

    it("answers a malformed percent-encoding with the site's own 404, never a 500", async () => {
      // Astro decodes the path up to ten times before the middleware sees it: these arrive malformed.
      for (const target of ['/%25C3', '/%25E0%25A4%25A', '/%25zz-uns', '/%25C3%25BCber-uns%25']) {
        const response = await get(target);
        expect(response.status, target).toBe(404);
        expect(response.text, target).toContain("The site's own 404");
      }
      // A path that is malformed as sent never reaches a middleware: @astrojs/node answers 400 itself
      // (and `astro dev` its own error page, before any middleware).
      if (mode === 'production') expect((await get('/%C3')).status).toBe(400);
    });
  });

  describe('restart', () => {
    it('keeps moves and their redirects', async () => {
      const before = (await client.get('/redirects')).json;
      await server.stop();
      server = mode === 'dev' ? await site.startDev() : await site.buildAndStart();
      client = api(server.url);
      expect((await client.get('/redirects')).json).toEqual(before);
      const redirected = await fetch(`${server.url}/beanies`, {
        redirect: 'manual',
        signal: AbortSignal.timeout(15_000),
      });
      expect(redirected.status).toBe(301);
      expect(redirected.headers.get('location')).toBe('/hats');
    });
  });
});
