import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './reliability/support/counting.js';
import { type ApiClient, api } from './support/http.js';
import { idLabels, idLike } from './support/ids.js';
import { createSite, type RunningSite, type TestSite } from './support/site.js';

const SITES = {
  sites: {
    shop: { locales: ['en', 'de', 'fr'], defaultLocale: 'en' },
    blog: { locales: ['en', 'de'], defaultLocale: 'en' },
  },
  globalLocales: ['en', 'de', 'fr'],
};

const ETAG = /^[\w-]+\.[\w-]+$/;

/** A page create body; `extra` locales are merged over the default English one. */
function pageBody(pathname: string, extra: Record<string, unknown> = {}, site = 'shop') {
  return {
    kind: 'page',
    site,
    collection: 'pages',
    type: 'visual',
    meta: { author: 'Ada' },
    locales: {
      en: {
        pathname,
        meta: { title: `Title of ${pathname}` },
        content: { visualData: { blocks: [{ type: 'hero', text: pathname }] } },
      },
      ...extra,
    },
  };
}

describe.each(['dev', 'production'] as const)('content API (%s)', (mode) => {
  let site: TestSite;
  let server: RunningSite;
  let client: ApiClient;
  const labels = idLabels();
  let aboutTeam: string;
  let promo: string;

  const start = () => (mode === 'dev' ? site.startDev() : site.buildAndStart());

  beforeAll(async () => {
    site = await createSite({
      name: `content-${mode}`,
      config: '{ requireIdentity: false, limits: { metadataBytes: 2048, jsonBodyBytes: 65536 } }',
      content: { 'sites.json': JSON.stringify(SITES) },
    });
    server = await start();
    client = api(server.url);
  });

  afterAll(async () => {
    await server?.stop();
  });

  async function create(body: unknown) {
    const response = await client.post('/content', { body });
    expect(response.status, response.text).toBe(201);
    return response.json as { success: true; id: string; etag: string; created: string };
  }

  async function etagOf(id: string, locale: string): Promise<string> {
    const response = await client.get(`/content/${id}/${locale}`);
    expect(response.status, response.text).toBe(200);
    return response.json.localized.etag;
  }

  describe('create and read', () => {
    it('creates a page with a readable ID and reads it back whole and per locale', async () => {
      const created = await create(
        pageBody('/about/team', {
          de: { pathname: '/ueber/team', inherit: true, meta: { title: 'Team' } },
          fr: { pathname: '/equipe', content: { visualData: { blocks: [] } } },
        }),
      );
      expect(created).toMatchObject({ success: true, id: expect.stringMatching(idLike('about-team')) });
      aboutTeam = labels.name(created.id, 'about-team');
      expect(created.etag).toMatch(ETAG);
      expect(Date.parse(created.created)).not.toBeNaN();

      const entry = await client.get(`/content/${aboutTeam}`);
      expect(entry.status).toBe(200);
      expect(entry.json).toMatchObject({
        id: aboutTeam,
        type: 'visual',
        kind: 'page',
        site: 'shop',
        collection: 'pages',
      });
      expect(Object.keys(entry.json.locales).sort()).toEqual(['de', 'en', 'fr']);
      const { en, de, fr } = entry.json.locales;
      expect(en).toMatchObject({
        locale: 'en',
        pathname: '/about/team',
        meta: { title: 'Title of /about/team', author: 'Ada' },
        etag: created.etag,
      });
      expect(en.inheritance).toBeUndefined();
      expect(de.content).toEqual(en.content);
      expect(de.inheritance).toEqual({
        state: 'inherited',
        from: 'en',
        inheritedEtag: en.etag.split('.')[1],
        stale: false,
      });
      expect(de.meta).toEqual({ title: 'Team', author: 'Ada' });
      expect(fr.inheritance).toMatchObject({ state: 'customized', from: 'en' });
      expect(fr.content).toEqual({ visualData: { blocks: [] } });

      const localized = await client.get(`/content/${aboutTeam}/de`);
      expect(localized.status).toBe(200);
      expect(localized.headers.get('etag')).toBe(`"${de.etag}"`);
      expect(localized.json).toMatchObject({
        id: aboutTeam,
        kind: 'page',
        site: 'shop',
        localized: { locale: 'de', etag: de.etag, pathname: '/ueber/team' },
      });
      expect(localized.json.localized.content).toEqual(en.content);
    });

    it('stores one readable file per item and locale', async () => {
      promo = labels.name(
        (
          await create({
            kind: 'fragment',
            collection: 'components',
            type: 'mdx',
            name: 'promo',
            locales: { en: { meta: { title: 'Promo' }, content: { mdx: '# Sale\n\nEverything *half* price.\n' } } },
          })
        ).id,
        'promo',
      );
      const mdx = await readFile(path.join(site.contentRoot, `fragments/components/${promo}.en.mdx`), 'utf8');
      expect(mdx).toMatch(/^---\nname: promo\n/);
      expect(mdx.endsWith('---\n# Sale\n\nEverything *half* price.\n')).toBe(true);
      const json = JSON.parse(
        await readFile(path.join(site.contentRoot, `pages/shop/pages/${aboutTeam}.en.json`), 'utf8'),
      );
      expect(Object.keys(json)).toEqual(['type', 'pathname', 'created', 'modified', 'meta', 'content']);
    });

    it('answers 404 CONTENT_NOT_FOUND for an unknown item or locale', async () => {
      for (const url of ['/content/no-such-thing', '/content/no-such-thing/en', `/content/${aboutTeam}/pt`]) {
        const response = await client.get(url);
        expect(response.status).toBe(404);
        expect(response.json.error.code).toBe('CONTENT_NOT_FOUND');
      }
    });

    it('refuses a taken pathname (409 PATHNAME_TAKEN) and a taken name (409 ALREADY_EXISTS)', async () => {
      const page = await client.post('/content', { body: pageBody('/about/team') });
      expect(page.status).toBe(409);
      expect(page.json.error.code).toBe('PATHNAME_TAKEN');
      const otherSite = await client.post('/content', { body: pageBody('/about/team', {}, 'blog') });
      expect(otherSite.status).toBe(201);
      // The same readable part, made distinct by the random suffix.
      expect(otherSite.json.id).not.toBe(aboutTeam);
      labels.name(otherSite.json.id, 'about-team-2', 'about-team');
      const fragment = await client.post('/content', {
        body: {
          kind: 'fragment',
          collection: 'components',
          type: 'mdx',
          name: 'promo',
          locales: { en: { content: { mdx: 'x' } } },
        },
      });
      expect(fragment.status).toBe(409);
      expect(fragment.json.error.code).toBe('ALREADY_EXISTS');
    });

    it('validates the create body: missing fields, wrong types, bad codes and pathnames', async () => {
      const cases: Array<[unknown, number, string, string]> = [
        [
          { collection: 'pages', type: 'visual', locales: { en: { content: {} } } },
          400,
          'MISSING_REQUIRED_FIELD',
          'kind',
        ],
        [
          { kind: 'page', collection: 'pages', type: 'visual', locales: { en: { pathname: '/x', content: {} } } },
          400,
          'MISSING_REQUIRED_FIELD',
          'site',
        ],
        [
          { kind: 'page', site: 'shop', collection: 'pages', type: 'visual', locales: { en: { pathname: '/x' } } },
          400,
          'MISSING_REQUIRED_FIELD',
          'locales.en.content',
        ],
        [{ kind: 'poem', collection: 'pages', type: 'visual', locales: {} }, 400, 'INVALID_REQUEST', 'kind'],
        [
          { kind: 'data', collection: 5, type: 'json', locales: { en: { content: {} } } },
          400,
          'INVALID_REQUEST',
          'collection',
        ],
        [
          { kind: 'data', collection: 'Bad Name', type: 'json', locales: { en: { content: {} } } },
          400,
          'INVALID_REQUEST',
          'collection',
        ],
        [
          { kind: 'data', collection: 'settings', type: 'json', locales: { EN_us: { content: {} } } },
          400,
          'INVALID_REQUEST',
          'locales',
        ],
        [
          { kind: 'data', collection: 'settings', type: 'json', locales: { en: { content: { body: 'x' } } } },
          400,
          'INVALID_REQUEST',
          'locales.en.content',
        ],
        [
          {
            kind: 'data',
            collection: 'settings',
            type: 'json',
            locales: { en: { publishAt: 'tomorrow', content: {} } },
          },
          400,
          'INVALID_REQUEST',
          'locales.en.publishAt',
        ],
      ];
      for (const pathname of ['about', '/about/', '/a//b', '/a/../b', '/a?x=1', '/a#top', `/${'x'.repeat(512)}`]) {
        cases.push([pageBody(pathname), 400, 'INVALID_REQUEST', 'locales.en.pathname']);
      }
      for (const [body, status, code, field] of cases) {
        const response = await client.post('/content', { body });
        expect(response.status, JSON.stringify(body).slice(0, 200)).toBe(status);
        expect(response.json.error.code).toBe(code);
        expect(response.json.error.message).toEqual(expect.any(String));
        expect(JSON.stringify(response.json.error.details)).toContain(field);
      }
    });

    it('answers unknown sites, unconfigured locales and a missing default locale clearly', async () => {
      const unknown = await client.post('/content', { body: pageBody('/x', {}, 'nowhere') });
      expect(unknown.status).toBe(404);
      expect(unknown.json.error.code).toBe('SITE_NOT_FOUND');
      const blogFr = await client.post('/content', {
        body: pageBody('/x', { fr: { pathname: '/x', content: {} } }, 'blog'),
      });
      expect(blogFr.status).toBe(400);
      expect(blogFr.json.error.code).toBe('INVALID_REQUEST');
      expect(blogFr.json.error.message).toContain('fr');
      const noDefault = await client.post('/content', {
        body: {
          kind: 'page',
          site: 'shop',
          collection: 'pages',
          type: 'visual',
          locales: { de: { pathname: '/nur-de', content: {} } },
        },
      });
      expect(noDefault.status).toBe(400);
      expect(noDefault.json.error.code).toBe('MISSING_REQUIRED_FIELD');
    });

    it('rejects malformed JSON, oversized meta and oversized bodies without storing anything', async () => {
      const before = await client.get('/content');
      const malformed = await client.post('/content', {
        rawBody: '{"kind": "page",',
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.status).toBe(400);
      expect(malformed.json.error.code).toBe('INVALID_REQUEST');

      const bigMeta = await client.post('/content', {
        body: pageBody('/big', { de: { pathname: '/gross', content: {}, meta: { description: 'x'.repeat(3000) } } }),
      });
      expect(bigMeta.status).toBe(400);
      expect(bigMeta.json.error.code).toBe('METADATA_TOO_LARGE');

      const bigBody = await client.post('/content', {
        body: pageBody('/huge', { de: { pathname: '/riesig', content: { mdx: 'x'.repeat(70_000) } } }),
      });
      expect(bigBody.status).toBe(413);
      expect(bigBody.json.error.code).toBe('PAYLOAD_TOO_LARGE');

      expect((await client.get('/content')).json.total).toBe(before.json.total);
    });

    it('answers a body far over the limit with the 413, not a reset, to a client still sending it', async () => {
      // Node's own client writes the whole body and reports a reset (EPIPE) if the server closes on it early.
      const oversized = Buffer.alloc(10 * 1024 * 1024, 0x20);
      const answers = new Set<string>();
      for (let round = 0; round < 20; round++) {
        await Promise.all(
          Array.from({ length: 4 }, () =>
            rawRequest(server.url, 'POST', '/__cms/api/content', {
              body: oversized,
              headers: { 'content-type': 'application/json' },
            }).then(
              (response) => answers.add(`${response.status} ${JSON.parse(response.text).error.code}`),
              (error: Error) => answers.add(error.message),
            ),
          ),
        );
      }
      expect(answers).toEqual(new Set(['413 PAYLOAD_TOO_LARGE']));
    });
  });

  describe('updates', () => {
    let id: string;
    beforeAll(async () => {
      id = (
        await create(pageBody('/pricing', { de: { pathname: '/preise', content: { visualData: { blocks: ['de'] } } } }))
      ).id;
    });

    it('PUT changes only what is sent, merges meta, returns the new etag in header and body', async () => {
      const etag = await etagOf(id, 'en');
      const response = await client.put(`/content/${id}`, {
        query: { locale: 'en', etag },
        body: { meta: { description: 'Plans', author: null } },
      });
      expect(response.status, response.text).toBe(200);
      expect(response.json).toMatchObject({
        success: true,
        etag: expect.stringMatching(ETAG),
        modified: expect.any(String),
      });
      expect(response.headers.get('etag')).toBe(`"${response.json.etag}"`);
      expect(response.json.etag.split('.')[1]).toBe(etag.split('.')[1]);
      const en = (await client.get(`/content/${id}/en`)).json.localized;
      expect(en.meta).toEqual({ title: 'Title of /pricing', description: 'Plans' });
      expect(en.pathname).toBe('/pricing');
      expect(en.content).toEqual({ visualData: { blocks: [{ type: 'hero', text: '/pricing' }] } });
    });

    it('PATCH behaves like PUT; quoted, weak and bare etags are accepted', async () => {
      for (const format of [(e: string) => `"${e}"`, (e: string) => `W/"${e}"`, (e: string) => e]) {
        const etag = await etagOf(id, 'de');
        const response = await client.patch(`/content/${id}`, {
          query: { locale: 'de', etag: format(etag) },
          body: { meta: { title: `Preise ${format(etag).length}` } },
        });
        expect(response.status, response.text).toBe(200);
      }
    });

    it('rejects a stale etag with 412 STALE_WRITE and changes nothing', async () => {
      const before = (await client.get(`/content/${id}/en`)).json;
      const response = await client.put(`/content/${id}`, {
        query: { locale: 'en', etag: 'stale.etag' },
        body: { meta: { title: 'Lost' } },
      });
      expect(response.status).toBe(412);
      expect(response.json.error.code).toBe('STALE_WRITE');
      expect((await client.get(`/content/${id}/en`)).json).toEqual(before);
    });

    it('accepts a PUT without etag (no conflict check), and needs a locale', async () => {
      const unchecked = await client.put(`/content/${id}`, {
        query: { locale: 'en' },
        body: { publishAt: '2020-01-01T00:00:00Z' },
      });
      expect(unchecked.status).toBe(200);
      const noLocale = await client.put(`/content/${id}`, { body: { meta: { title: 'x' } } });
      expect(noLocale.status).toBe(400);
      expect(noLocale.json.error).toMatchObject({
        code: 'MISSING_REQUIRED_FIELD',
        details: { fields: [{ field: 'locale' }] },
      });
      const badLocale = await client.put(`/content/${id}`, { query: { locale: 'EN!' }, body: {} });
      expect(badLocale.status).toBe(400);
      expect(badLocale.json.error.code).toBe('INVALID_REQUEST');
      const wrongType = await client.put(`/content/${id}`, {
        query: { locale: 'en' },
        body: { meta: { tags: 'not-a-list' } },
      });
      expect(wrongType.status).toBe(400);
      expect(wrongType.json.error.details.fields[0].field).toBe('meta.tags');
      const missing = await client.put('/content/nothing-here', { query: { locale: 'en' }, body: {} });
      expect(missing.status).toBe(404);
      expect(missing.json.error.code).toBe('CONTENT_NOT_FOUND');
    });

    it('refuses a PUT whose meta is too large, and a pathname another page uses', async () => {
      const big = await client.put(`/content/${id}`, {
        query: { locale: 'en' },
        body: { meta: { description: 'x'.repeat(3000) } },
      });
      expect(big.status).toBe(400);
      expect(big.json.error.code).toBe('METADATA_TOO_LARGE');
      const taken = await client.put(`/content/${id}`, { query: { locale: 'en' }, body: { pathname: '/about/team' } });
      expect(taken.status).toBe(409);
      expect(taken.json.error.code).toBe('PATHNAME_TAKEN');
    });

    it('adds a locale by PUT: customized with content, inherited without', async () => {
      const fr = await client.put(`/content/${id}`, { query: { locale: 'fr' }, body: { pathname: '/tarifs' } });
      expect(fr.status, fr.text).toBe(200);
      const entry = (await client.get(`/content/${id}`)).json;
      expect(entry.locales.fr.inheritance).toMatchObject({ state: 'inherited', from: 'en', stale: false });
      expect(entry.locales.fr.content).toEqual(entry.locales.en.content);

      const fragment = await create({
        kind: 'fragment',
        collection: 'components',
        type: 'visual',
        name: 'banner',
        locales: { en: { content: { visualData: { text: 'Hi' } } } },
      });
      labels.name(fragment.id, 'banner');
      const de = await client.put(`/content/${fragment.id}`, {
        query: { locale: 'de' },
        body: { content: { visualData: { text: 'Hallo' } } },
      });
      expect(de.status).toBe(200);
      const deRecord = (await client.get(`/content/${fragment.id}/de`)).json.localized;
      expect(deRecord).toMatchObject({
        name: 'banner',
        inheritance: { state: 'customized' },
        content: { visualData: { text: 'Hallo' } },
      });

      const solo = labels.name((await create(pageBody('/solo'))).id, 'solo');
      const noPathname = await client.put(`/content/${solo}`, { query: { locale: 'de' }, body: {} });
      expect(noPathname.status).toBe(400);
      expect(noPathname.json.error.code).toBe('MISSING_REQUIRED_FIELD');
    });

    it('lets exactly one of 20 concurrent writers with the same etag win', async () => {
      const etag = await etagOf(id, 'en');
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          client.put(`/content/${id}`, { query: { locale: 'en', etag }, body: { meta: { title: `Writer ${n}` } } }),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 412)).toHaveLength(19);
      const winner = responses.find((response) => response.status === 200)!;
      const stored = (await client.get(`/content/${id}/en`)).json.localized;
      expect(stored.etag).toBe(winner.json.etag);
    });
  });

  describe('inheritance', () => {
    let id: string;
    beforeAll(async () => {
      id = (
        await create(
          pageBody('/features', {
            de: { pathname: '/funktionen', inherit: true },
            fr: { pathname: '/fonctions', inherit: true },
          }),
        )
      ).id;
    });

    it('marks inherited locales stale when the default content changes, until reviewed', async () => {
      const put = await client.put(`/content/${id}`, {
        query: { locale: 'en', etag: await etagOf(id, 'en') },
        body: { content: { visualData: { blocks: ['v2'] } } },
      });
      expect(put.status).toBe(200);
      const review = await client.get('/content/needs-review', { query: { locale: 'de' } });
      expect(review.status).toBe(200);
      expect(review.json.items.map((item: { id: string }) => item.id)).toContain(id);
      expect(review.json.total).toBe(review.json.items.length);
      const item = review.json.items.find((entry: { id: string }) => entry.id === id);
      expect(item.locales.de.inheritance.stale).toBe(true);
      expect(item.locales.de.content).toBeUndefined();
      expect(
        (await client.get('/content/needs-review', { query: { locale: 'de', kind: 'fragment' } })).json.items,
      ).toEqual([]);

      const deEtag = await etagOf(id, 'de');
      expect((await client.get(`/content/${id}/de`)).json.localized.content).toEqual({
        visualData: { blocks: ['v2'] },
      });
      const stale = await client.post(`/content/${id}/mark-reviewed`, { query: { locale: 'de', etag: 'old.etag' } });
      expect(stale.status).toBe(412);
      expect(stale.json.error.code).toBe('STALE_WRITE');
      const reviewed = await client.post(`/content/${id}/mark-reviewed`, { query: { locale: 'de', etag: deEtag } });
      expect(reviewed.status, reviewed.text).toBe(200);
      expect(reviewed.json).toEqual({ success: true, etag: expect.stringMatching(ETAG) });
      const after = (await client.get(`/content/${id}/de`)).json.localized;
      expect(after.inheritance.stale).toBe(false);
      expect(after.etag).toBe(reviewed.json.etag);
      const ids = (await client.get('/content/needs-review', { query: { locale: 'de' } })).json.items.map(
        (entry: { id: string }) => entry.id,
      );
      expect(ids).not.toContain(id);
      expect(
        (await client.get('/content/needs-review', { query: { locale: 'fr' } })).json.items.map(
          (entry: { id: string }) => entry.id,
        ),
      ).toContain(id);
    });

    it('needs locale and etag on transitions, and refuses the wrong state', async () => {
      const noLocale = await client.get('/content/needs-review');
      expect(noLocale.status).toBe(400);
      expect(noLocale.json.error.code).toBe('MISSING_REQUIRED_FIELD');
      for (const action of ['mark-reviewed', 'break-inheritance', 'revert-to-inherited']) {
        const missing = await client.post(`/content/${id}/${action}`, { query: { locale: 'de' } });
        expect(missing.status).toBe(400);
        expect(missing.json.error.code).toBe('MISSING_REQUIRED_FIELD');
        const unknown = await client.post(`/content/nothing/${action}`, { query: { locale: 'de', etag: 'a.b' } });
        expect(unknown.status).toBe(404);
      }
      const onDefault = await client.post(`/content/${id}/break-inheritance`, {
        query: { locale: 'en', etag: await etagOf(id, 'en') },
      });
      expect(onDefault.status).toBe(400);
      expect(onDefault.json.error.code).toBe('INVALID_REQUEST');
      const revertInherited = await client.post(`/content/${id}/revert-to-inherited`, {
        query: { locale: 'de', etag: await etagOf(id, 'de') },
      });
      expect(revertInherited.status).toBe(400);
    });

    it('breaks inheritance into a local copy that later default edits leave alone, and reverts to it', async () => {
      const broken = await client.post(`/content/${id}/break-inheritance`, {
        query: { locale: 'de', etag: await etagOf(id, 'de') },
      });
      expect(broken.status, broken.text).toBe(200);
      const copy = (await client.get(`/content/${id}/de`)).json.localized;
      expect(copy.inheritance.state).toBe('customized');
      expect(copy.content).toEqual({ visualData: { blocks: ['v2'] } });
      const markCustomized = await client.post(`/content/${id}/mark-reviewed`, {
        query: { locale: 'de', etag: copy.etag },
      });
      expect(markCustomized.status).toBe(400);

      await client.put(`/content/${id}`, {
        query: { locale: 'de', etag: copy.etag },
        body: { content: { visualData: { blocks: ['eigene'] } }, meta: { title: 'Funktionen' } },
      });
      await client.put(`/content/${id}`, {
        query: { locale: 'en', etag: await etagOf(id, 'en') },
        body: { content: { visualData: { blocks: ['v3'] } } },
      });
      const custom = (await client.get(`/content/${id}/de`)).json.localized;
      expect(custom.content).toEqual({ visualData: { blocks: ['eigene'] } });
      expect(custom.inheritance.stale).toBe(false);

      const reverted = await client.post(`/content/${id}/revert-to-inherited`, {
        query: { locale: 'de', etag: custom.etag },
      });
      expect(reverted.status, reverted.text).toBe(200);
      const back = (await client.get(`/content/${id}/de`)).json.localized;
      expect(back.inheritance).toMatchObject({ state: 'inherited', stale: false });
      expect(back.content).toEqual({ visualData: { blocks: ['v3'] } });
      expect(back.meta.title).toBe('Funktionen');
      expect(back.pathname).toBe('/funktionen');
    });
  });

  describe('delete', () => {
    it('needs If-Match, checks it, protects the default locale, and removes files', async () => {
      const { id, etag } = await create(pageBody('/old', { de: { pathname: '/alt', content: {} } }));
      const noHeader = await client.delete(`/content/${id}`);
      expect(noHeader.status).toBe(400);
      expect(noHeader.json.error.code).toBe('MISSING_REQUIRED_FIELD');
      const wrong = await client.delete(`/content/${id}`, { headers: { 'if-match': '"nope.nope"' } });
      expect(wrong.status).toBe(412);
      expect(wrong.json.error.code).toBe('STALE_WRITE');
      const defaultFirst = await client.delete(`/content/${id}`, {
        query: { locale: 'en' },
        headers: { 'if-match': `"${etag}"` },
      });
      expect(defaultFirst.status).toBe(400);
      expect(defaultFirst.json.error.code).toBe('INVALID_REQUEST');

      const deEtag = await etagOf(id, 'de');
      const one = await client.delete(`/content/${id}`, {
        query: { locale: 'de' },
        headers: { 'if-match': `"${deEtag}"` },
      });
      expect(one).toMatchObject({ status: 200, json: { success: true } });
      expect((await client.get(`/content/${id}/de`)).status).toBe(404);
      expect((await client.get(`/content/${id}/en`)).status).toBe(200);

      const all = await client.delete(`/content/${id}`, { headers: { 'if-match': etag } });
      expect(all).toMatchObject({ status: 200, json: { success: true } });
      expect((await client.get(`/content/${id}`)).status).toBe(404);
      await expect(readFile(path.join(site.contentRoot, `pages/shop/pages/${id}.en.json`))).rejects.toThrow();
      const again = await client.delete(`/content/${id}`, { headers: { 'if-match': etag } });
      expect(again.status).toBe(404);
      expect(again.json.error.code).toBe('CONTENT_NOT_FOUND');
    });
  });

  describe('batch', () => {
    it('applies operations independently: 200 when all succeed, 207 when some fail', async () => {
      const a = await create(pageBody('/batch-a'));
      const b = await create(pageBody('/batch-b'));
      const ok = await client.post('/content/batch', {
        body: {
          operations: [
            { id: a.id, locale: 'en', etag: a.etag, data: { meta: { title: 'A2' } } },
            { id: b.id, locale: 'en', etag: b.etag, data: { meta: { title: 'B2' } } },
          ],
        },
      });
      expect(ok.status).toBe(200);
      expect(ok.json).toMatchObject({ success: true, failed: 0, updated: 2 });
      expect(ok.json.operations[0]).toMatchObject({
        id: a.id,
        locale: 'en',
        updated: true,
        etag: expect.stringMatching(ETAG),
      });

      const mixed = await client.post('/content/batch', {
        body: {
          operations: [
            { id: a.id, locale: 'en', etag: a.etag, data: { meta: { title: 'stale' } } },
            { id: b.id, locale: 'en', etag: ok.json.operations[1].etag, data: { meta: { title: 'B3' } } },
            { id: 'missing', locale: 'en', etag: '', data: {} },
            { id: b.id, locale: 'en', etag: '', data: { pathname: 'no-slash' } },
          ],
        },
      });
      expect(mixed.status).toBe(207);
      expect(mixed.json).toMatchObject({ success: false, failed: 3, updated: 1 });
      expect(mixed.json.operations.map((operation: { updated: boolean }) => operation.updated)).toEqual([
        false,
        true,
        false,
        false,
      ]);
      for (const failed of mixed.json.operations.filter((operation: { updated: boolean }) => !operation.updated)) {
        expect(failed.error.message).toEqual(expect.any(String));
      }
      expect((await client.get(`/content/${a.id}/en`)).json.localized.meta.title).toBe('A2');
      expect((await client.get(`/content/${b.id}/en`)).json.localized.meta.title).toBe('B3');

      const notABatch = await client.post('/content/batch', { body: { operations: 'x' } });
      expect(notABatch.status).toBe(400);
    });
  });

  describe('lists and filters', () => {
    beforeAll(async () => {
      labels.name(
        (
          await create({
            kind: 'data',
            collection: 'settings',
            type: 'json',
            name: 'checkout',
            locales: { en: { content: { data: { currency: 'EUR' } } } },
          })
        ).id,
        'checkout',
      );
      const later = labels.name(
        (
          await create(
            pageBody(
              '/later',
              { de: { pathname: '/spaeter', content: {}, publishAt: '2999-01-01T00:00:00Z' } },
              'blog',
            ),
          )
        ).id,
        'later',
      );
      await client.put(`/content/${later}`, { query: { locale: 'en' }, body: { publishAt: '2999-01-01T00:00:00Z' } });
    });

    const ids = async (query: Record<string, string>) => {
      const response = await client.get('/content', { query });
      expect(response.status, response.text).toBe(200);
      expect(response.json.total).toBe(response.json.items.length);
      for (const item of response.json.items) {
        for (const record of Object.values(item.locales) as Array<Record<string, unknown>>)
          expect(record.content).toBeUndefined();
      }
      return response.json.items.map((item: { id: string }) => labels.of(item.id)) as string[];
    };

    it('filters by kind, site, collection and type', async () => {
      expect(await ids({ kind: 'data' })).toEqual(['checkout']);
      expect(await ids({ kind: 'fragment', type: 'mdx' })).toEqual(['promo']);
      expect(await ids({ site: 'blog' })).toEqual(['about-team-2', 'later']);
      expect(await ids({ collection: 'components' })).toEqual(['banner', 'promo']);
    });

    it('filters by locales, missingLocales, localization and published', async () => {
      const withFr = await ids({ locales: 'fr' });
      expect(withFr).toContain('about-team');
      expect(withFr).not.toContain('later');
      expect(await ids({ missingLocales: 'en' })).toEqual([]);
      const noDeOrFr = await ids({ missingLocales: 'de,fr', kind: 'page' });
      expect(noDeOrFr).toContain('solo');
      expect(noDeOrFr).not.toContain('about-team');
      expect(await ids({ localization: 'complete', site: 'shop' })).toContain('about-team');
      expect(await ids({ localization: 'complete', site: 'blog' })).toEqual(['later']);
      expect(await ids({ localization: 'one', kind: 'data' })).toEqual(['checkout']);
      const partial = await ids({ localization: 'partial' });
      expect(partial).toContain('banner');
      expect(partial).not.toContain('about-team');
      expect(await ids({ published: 'false' })).toEqual(['later']);
      expect(await ids({ published: 'true', site: 'blog' })).toEqual(['about-team-2']);
    });

    it('rejects unknown filter values with 400 naming the field', async () => {
      for (const [field, value] of [
        ['kind', 'poem'],
        ['type', 'html'],
        ['published', 'yes'],
        ['localization', 'most'],
      ]) {
        const response = await client.get('/content', { query: { [field]: value } });
        expect(response.status).toBe(400);
        expect(response.json.error.code).toBe('INVALID_REQUEST');
        expect(response.json.error.details.fields[0].field).toBe(field);
      }
    });

    it('lists collections of sites and fragments', async () => {
      const response = await client.get('/content/collections');
      expect(response.json).toEqual({ collections: ['components', 'pages'] });
    });
  });

  describe('If-Match on every etag-guarded write', () => {
    type Etags = { ifMatch?: string; etag?: string };
    interface GuardedWrite {
      name: string;
      /** A fresh page in the state the write needs; `locale` is the locale the write guards. */
      prepare(): Promise<{ id: string; locale: string }>;
      send(id: string, locale: string, etags: Etags): Promise<{ status: number; json: any }>;
    }
    const headers = ({ ifMatch }: Etags): Record<string, string> =>
      ifMatch === undefined ? {} : { 'if-match': ifMatch };
    const query = (locale: string, { etag }: Etags) => ({ locale, ...(etag !== undefined && { etag }) });
    let pages = 0;
    const fresh = async (locales: Record<string, unknown> = {}) => {
      pages++;
      return (await create(pageBody(`/guarded-${pages}`, locales))).id;
    };
    const withGerman = (state: 'inherit' | 'custom') => async () => {
      const id = await fresh({
        de: {
          pathname: `/geschuetzt-${pages + 1}`,
          ...(state === 'inherit' ? { inherit: true } : { content: { visualData: { de: true } } }),
        },
      });
      return { id, locale: 'de' };
    };
    const transition = (name: string, path: string, prepare: GuardedWrite['prepare']): GuardedWrite => ({
      name,
      prepare,
      send: (id, locale, etags) =>
        client.post(`/content/${id}/${path}`, { query: query(locale, etags), headers: headers(etags) }),
    });
    const WRITES: GuardedWrite[] = [
      ...(['put', 'patch'] as const).map(
        (method): GuardedWrite => ({
          name: method.toUpperCase(),
          prepare: async () => ({ id: await fresh(), locale: 'en' }),
          send: (id, locale, etags) =>
            client[method](`/content/${id}`, {
              query: query(locale, etags),
              headers: headers(etags),
              body: { meta: { title: 'Overwritten' } },
            }),
        }),
      ),
      transition('mark-reviewed', 'mark-reviewed', async () => {
        const prepared = await withGerman('inherit')();
        // The default locale's content changes: the inherited German locale is now stale, waiting for review.
        const put = await client.put(`/content/${prepared.id}`, {
          query: { locale: 'en' },
          body: { content: { visualData: { v: 2 } } },
        });
        expect(put.status).toBe(200);
        return prepared;
      }),
      transition('break-inheritance', 'break-inheritance', withGerman('inherit')),
      transition('revert-to-inherited', 'revert-to-inherited', withGerman('custom')),
      {
        name: 'move',
        prepare: async () => ({ id: await fresh(), locale: 'en' }),
        send: (id, locale, { ifMatch, etag }) =>
          client.post('/shop/move', {
            headers: headers({ ifMatch }),
            body: { id, locale, pathname: `/moved-${id}`, ...(etag !== undefined && { etag }) },
          }),
      },
    ];

    const fileOf = (id: string, locale: string) => path.join(site.contentRoot, `pages/shop/pages/${id}.${locale}.json`);

    /** A page whose locale has an old etag (from before a meta edit) and a current one. */
    async function staleAndCurrent(write: GuardedWrite) {
      const { id, locale } = await write.prepare();
      const old = await etagOf(id, locale);
      const edit = await client.patch(`/content/${id}`, {
        query: { locale, etag: old },
        body: { meta: { note: 'someone else' } },
      });
      expect(edit.status, edit.text).toBe(200);
      return { id, locale, old, current: edit.json.etag as string };
    }

    it.each(WRITES.map((write) => [write.name, write] as const))(
      '%s: a stale If-Match alone, or one that disagrees with etag, is 412 and changes nothing',
      async (_, write) => {
        const { id, locale, old, current } = await staleAndCurrent(write);
        const before = await readFile(fileOf(id, locale), 'utf8');
        for (const etags of [
          { ifMatch: `"${old}"` },
          { ifMatch: `W/"${old}"` },
          { ifMatch: old },
          { ifMatch: `"${current}"`, etag: old },
          { ifMatch: `"${old}"`, etag: current },
        ]) {
          const response = await write.send(id, locale, etags);
          expect(response.status, JSON.stringify(etags)).toBe(412);
          expect(response.json.error.code).toBe('STALE_WRITE');
          expect(await readFile(fileOf(id, locale), 'utf8')).toBe(before);
        }
      },
    );

    it.each(WRITES.map((write) => [write.name, write] as const))(
      '%s: the current etag as If-Match alone succeeds',
      async (_, write) => {
        const { id, locale, current } = await staleAndCurrent(write);
        const response = await write.send(id, locale, { ifMatch: `"${current}"` });
        expect(response.status, JSON.stringify(response.json)).toBe(200);
        expect(response.json.etag).not.toBe(current);
        expect(await etagOf(id, locale)).toBe(response.json.etag);
      },
    );

    it('still needs an etag in one form or the other where the API requires one', async () => {
      for (const write of WRITES.filter((entry) => !['PUT', 'PATCH'].includes(entry.name))) {
        const { id, locale } = await write.prepare();
        const response = await write.send(id, locale, {});
        expect(response.status, write.name).toBe(400);
        expect(response.json.error.code).toBe('MISSING_REQUIRED_FIELD');
      }
    });
  });

  describe('files changed outside the API', () => {
    it('shows a hand edit, a new file and a removed file on the next request', async () => {
      const file = path.join(site.contentRoot, `pages/shop/pages/${aboutTeam}.en.json`);
      const stored = JSON.parse(await readFile(file, 'utf8'));
      stored.meta.title = 'Edited by hand';
      await writeFile(file, JSON.stringify(stored, null, 2));
      expect((await client.get(`/content/${aboutTeam}/en`)).json.localized.meta.title).toBe('Edited by hand');

      const folder = path.join(site.contentRoot, 'data/authors');
      await mkdir(folder, { recursive: true });
      await writeFile(
        path.join(folder, 'grace.en.json'),
        JSON.stringify({ type: 'json', name: 'grace', meta: { title: 'Grace' }, content: { data: { born: 1906 } } }),
      );
      expect(
        (await client.get('/content', { query: { collection: 'authors' } })).json.items.map(
          (item: { id: string }) => item.id,
        ),
      ).toEqual(['grace']);

      await rm(folder, { recursive: true });
      expect((await client.get('/content', { query: { collection: 'authors' } })).json.total).toBe(0);
    });
  });

  describe('a long list', () => {
    it('arrives whole and exact when it is sent in many chunks, non-ASCII text included, with HEAD answered alike', async () => {
      // Each title escapes to ~5,400 characters of ASCII JSON: 30 of them are several of the answer's chunks.
      const title = (n: number) => `${'é'.repeat(880)} ${n} 😀`;
      const made: string[] = [];
      for (let n = 0; n < 30; n++) {
        made.push(
          (
            await create({
              kind: 'data',
              collection: 'long-titles',
              type: 'json',
              name: `long-${n}`,
              locales: { en: { meta: { title: title(n) }, content: { data: {} } } },
            })
          ).id,
        );
      }
      const response = await fetch(`${server.url}/__cms/api/content?collection=long-titles`);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(response.status).toBe(200);
      expect(bytes.length).toBeGreaterThan(150_000);
      expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
      const answer = JSON.parse(bytes.toString('utf8'));
      expect(answer.total).toBe(30);
      expect(answer.items.map((item: { id: string }) => item.id)).toEqual([...made].sort());
      for (const item of answer.items) expect(item.locales.en.meta.title).toBe(title(made.indexOf(item.id)));

      const head = await fetch(`${server.url}/__cms/api/content?collection=long-titles`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
    });
  });

  describe('routing', () => {
    it('answers unknown paths with 404 ROUTE_NOT_FOUND and wrong methods with 405 and Allow', async () => {
      const unknown = await client.get('/nothing/here');
      expect(unknown.status).toBe(404);
      expect(unknown.json.error.code).toBe('ROUTE_NOT_FOUND');
      const wrong = await client.post(`/content/${aboutTeam}/en`, { body: {} });
      expect(wrong.status).toBe(405);
      expect(wrong.json.error.code).toBe('METHOD_NOT_ALLOWED');
      expect(wrong.headers.get('allow')).toBe('GET, HEAD');
      const put = await client.put('/content', { body: {} });
      expect(put.status).toBe(405);
      expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    });
  });

  describe('restart', () => {
    it('serves identical entries and etags after a restart', async () => {
      const before = await client.get('/content');
      const entryBefore = await client.get(`/content/${aboutTeam}`);
      await server.stop();
      server = await (mode === 'dev' ? site.startDev() : site.buildAndStart());
      client = api(server.url);
      const after = await client.get('/content');
      expect(after.json).toEqual(before.json);
      expect((await client.get(`/content/${aboutTeam}`)).json).toEqual(entryBefore.json);
    });
  });
});
