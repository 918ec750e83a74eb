import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewSchema } from '../src/http/schemas/responses.js';
import { gitCli } from './support/git-cli.js';
import { type ApiClient, api } from './support/http.js';
import { createSite, type RunningSite, type TestSite } from './support/site.js';

const SITES = { sites: { web: { locales: ['en', 'de', 'fr'], defaultLocale: 'en' } }, globalLocales: ['en', 'de'] };
const CACHE_FOLDER = '.quire-source-cache';

/** The English content of version `n` of the page: a hero text and a list whose second entry changes. */
const version = (n: number) => ({
  visualData: {
    blocks: [
      { type: 'hero', text: `Welcome to version ${n} of the shop` },
      { type: 'list', items: ['a', `b${n}`] },
    ],
  },
});

const mdxVersion = (n: number) => `# About us\n\nWe sell ${n === 1 ? 'red' : 'blue'} shoes.\n\nSince 1999.\n`;

async function ok(response: Promise<{ status: number; json: any; text: string }>, status = 200) {
  const answer = await response;
  expect(answer.status, answer.text).toBe(status);
  return answer.json;
}

describe('translation review', () => {
  let site: TestSite;
  let server: RunningSite;
  let client: ApiClient;
  let commits = 0;
  const shas: string[] = [];
  const ids = { page: '', mdx: '', moved: '', customized: '' };
  const devAnswers = new Map<string, unknown>();

  /** Commits everything in the content root, one day after the previous commit (so history has a clear order). */
  async function commit(message: string): Promise<string> {
    commits += 1;
    const date = new Date(Date.UTC(2026, 0, commits, 10)).toISOString();
    const env = { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
    await gitCli(site.contentRoot, ['add', '-A']);
    await gitCli(site.contentRoot, ['commit', '-q', '-m', message], { env });
    return (await gitCli(site.contentRoot, ['rev-parse', 'HEAD'])).trim();
  }

  const etagOf = async (id: string, locale: string) =>
    (await ok(client.get(`/content/${id}/${locale}`))).localized.etag as string;

  const edit = (id: string, body: unknown) => ok(client.put(`/content/${id}`, { query: { locale: 'en' }, body }));

  const markReviewed = async (id: string, locale: string) =>
    ok(client.post(`/content/${id}/mark-reviewed`, { query: { locale, etag: await etagOf(id, locale) } }));

  async function review(id: string, locale: string) {
    const answer = await ok(client.get(`/content/${id}/${locale}/review`));
    const parsed = v.safeParse(ReviewSchema, answer);
    expect(parsed.success, JSON.stringify(parsed.issues)).toBe(true);
    return answer;
  }

  beforeAll(async () => {
    site = await createSite({
      name: 'review',
      config: '{ requireIdentity: false }',
      content: { 'sites.json': JSON.stringify(SITES) },
    });
    await gitCli(site.contentRoot, ['init', '-q', '-b', 'main']);
    server = await site.startDev();
    client = api(server.url);

    const created = await ok(
      client.post('/content', {
        body: {
          kind: 'page',
          site: 'web',
          collection: 'pages',
          type: 'visual',
          locales: {
            en: { pathname: '/shop', meta: { title: 'Shop 1' }, content: version(1) },
            de: { pathname: '/laden', inherit: true },
            fr: { pathname: '/boutique', inherit: true },
          },
        },
      }),
      201,
    );
    ids.page = created.id;
    const mdx = await ok(
      client.post('/content', {
        body: {
          kind: 'page',
          site: 'web',
          collection: 'pages',
          type: 'mdx',
          locales: {
            en: { pathname: '/about', meta: { title: 'About' }, content: { mdx: mdxVersion(1) } },
            de: { pathname: '/ueber', inherit: true },
          },
        },
      }),
      201,
    );
    ids.mdx = mdx.id;
    const moved = await ok(
      client.post('/content', {
        body: {
          kind: 'page',
          site: 'web',
          collection: 'old',
          type: 'visual',
          locales: {
            en: { pathname: '/moving', meta: { title: 'Moving' }, content: version(1) },
            de: { pathname: '/umzug', inherit: true },
          },
        },
      }),
      201,
    );
    ids.moved = moved.id;
    const customized = await ok(
      client.post('/content', {
        body: {
          kind: 'page',
          site: 'web',
          collection: 'pages',
          type: 'visual',
          locales: {
            en: { pathname: '/own', meta: { title: 'Own' }, content: version(1) },
            de: { pathname: '/eigen', content: { visualData: { blocks: [{ type: 'hero', text: 'Eigener Text' }] } } },
          },
        },
      }),
      201,
    );
    ids.customized = customized.id;
    shas.push(await commit('version 1'));

    // Version 2, which German is reviewed against; then three more commits and two uncommitted edits.
    await edit(ids.page, { content: version(2), meta: { title: 'Shop 2' } });
    await markReviewed(ids.page, 'de');
    await edit(ids.moved, { content: version(2) });
    shas.push(await commit('version 2'));
    for (const n of [3, 4, 5]) {
      await edit(ids.page, { content: version(n), meta: { title: `Shop ${n}` } });
      shas.push(await commit(`version ${n}`));
    }
    await edit(ids.page, { content: version(6) });
    await markReviewed(ids.page, 'fr');
    await edit(ids.page, { content: version(7), meta: { title: 'Shop 7', keywords: ['new'] } });

    await edit(ids.mdx, { content: { mdx: mdxVersion(2) } });
    await edit(ids.customized, { content: version(2) });

    // The moved item: its files go to another collection by hand, and that is committed.
    const pages = path.join(site.contentRoot, 'pages', 'web');
    await mkdir(path.join(pages, 'new'), { recursive: true });
    for (const locale of ['en', 'de'])
      await rename(
        path.join(pages, 'old', `${ids.moved}.${locale}.json`),
        path.join(pages, 'new', `${ids.moved}.${locale}.json`),
      );
    await commit('move');
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('finds a version reviewed at a commit in history, with the right diff', async () => {
    const answer = await review(ids.page, 'de');
    devAnswers.set('page-de', answer);
    expect(answer).toMatchObject({ state: 'inherited', stale: true, sourceChanged: false, from: 'en', reason: null });
    expect(answer.reviewed.content).toEqual(version(2));
    expect(answer.reviewed.meta).toEqual({ title: 'Shop 2' });
    expect(answer.reviewed.foundIn).toMatchObject({ source: 'git', commit: shas[1] });
    expect(answer.current.content).toEqual(version(7));
    expect(answer.diff.content).toEqual([
      {
        path: 'visualData.blocks[0].text',
        change: 'changed',
        before: 'Welcome to version 2 of the shop',
        after: 'Welcome to version 7 of the shop',
        words: [
          { text: 'Welcome to version ' },
          { text: '2', change: 'removed' },
          { text: '7', change: 'added' },
          { text: ' of the shop' },
        ],
      },
      {
        path: 'visualData.blocks[1].items[1]',
        change: 'changed',
        before: 'b2',
        after: 'b7',
        words: [
          { text: 'b2', change: 'removed' },
          { text: 'b7', change: 'added' },
        ],
      },
    ]);
    expect(answer.diff.meta).toEqual([
      expect.objectContaining({ path: 'title', change: 'changed', before: 'Shop 2', after: 'Shop 7' }),
      { path: 'keywords', change: 'added', after: ['new'] },
    ]);
  });

  it('finds a version that never reached a commit in the source cache', async () => {
    const answer = await review(ids.page, 'fr');
    devAnswers.set('page-fr', answer);
    expect(answer.reviewed).toMatchObject({ content: version(6), foundIn: { source: 'cache' } });
    expect(answer.diff.content.map((change: { path: string }) => change.path)).toEqual([
      'visualData.blocks[0].text',
      'visualData.blocks[1].items[1]',
    ]);
  });

  it('diffs MDX line by line with word-level changes', async () => {
    const answer = await review(ids.mdx, 'de');
    devAnswers.set('mdx-de', answer);
    expect(answer.reviewed.foundIn).toMatchObject({ source: 'git', commit: shas[0] });
    const changed = answer.diff.lines.filter((line: { change: string }) => line.change !== 'same');
    expect(changed).toEqual([
      {
        change: 'changed',
        before: 'We sell red shoes.',
        after: 'We sell blue shoes.',
        words: [
          { text: 'We sell ' },
          { text: 'red', change: 'removed' },
          { text: 'blue', change: 'added' },
          { text: ' shoes.' },
        ],
      },
    ]);
    expect(answer.diff.lines.filter((line: { change: string }) => line.change === 'same')).toHaveLength(4);
  });

  it('follows an item moved to another collection back through history', async () => {
    const answer = await review(ids.moved, 'de');
    devAnswers.set('moved-de', answer);
    expect(answer.reviewed.content).toEqual(version(1));
    expect(answer.reviewed.foundIn).toMatchObject({ source: 'git', commit: shas[0] });
    expect(answer.reviewed.foundIn.path).toContain('/old/');
  });

  it('says a customized locale fell behind, and shows what changed since the customization', async () => {
    const entry = await ok(client.get(`/content/${ids.customized}`));
    expect(entry.locales.de.inheritance).toMatchObject({ state: 'customized', stale: false, sourceChanged: true });
    expect(entry.locales.en.inheritance).toBeUndefined();
    const plain = await ok(client.get('/content/needs-review', { query: { locale: 'de' } }));
    expect(plain.items.map((item: { id: string }) => item.id).sort()).toEqual([ids.mdx, ids.moved, ids.page].sort());
    const all = await ok(client.get('/content/needs-review', { query: { locale: 'de', customized: 'true' } }));
    expect(all.items.map((item: { id: string }) => item.id)).toContain(ids.customized);
    const answer = await review(ids.customized, 'de');
    devAnswers.set('customized-de', answer);
    expect(answer).toMatchObject({ state: 'customized', stale: false, sourceChanged: true });
    expect(answer.reviewed).toMatchObject({ content: version(1), foundIn: { source: 'git', commit: shas[0] } });
    expect(answer.translation.content).toEqual({ visualData: { blocks: [{ type: 'hero', text: 'Eigener Text' }] } });
    expect(answer.diff.content).toHaveLength(2);
  });

  it('answers a locale that is not stale with the current version and an empty diff', async () => {
    await markReviewed(ids.page, 'de');
    const answer = await review(ids.page, 'de');
    expect(answer).toMatchObject({ stale: false, reviewed: { foundIn: { source: 'current' } } });
    expect(answer.diff).toEqual({ meta: [], content: [] });
    const list = await ok(client.get('/content/needs-review', { query: { locale: 'de' } }));
    expect(list.items.map((item: { id: string }) => item.id)).not.toContain(ids.page);
  });

  it('answers 400 for the default locale and bad input, 404 for what does not exist', async () => {
    const defaultLocale = await client.get(`/content/${ids.page}/en/review`);
    expect(defaultLocale.status).toBe(400);
    expect(defaultLocale.json.error.code).toBe('INVALID_REQUEST');
    const missing = await client.get('/content/no-such-item-x1/de/review');
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('CONTENT_NOT_FOUND');
    const badLocale = await client.get(`/content/${ids.page}/not a locale/review`);
    expect(badLocale.status).toBe(400);
  });

  it('says so when the reviewed version is neither in history nor in the cache', async () => {
    await rm(path.join(site.contentRoot, CACHE_FOLDER), { recursive: true, force: true });
    const answer = await review(ids.page, 'fr');
    devAnswers.set('page-fr-gone', answer);
    expect(answer.reviewed).toBeNull();
    expect(answer.diff).toBeNull();
    expect(answer.reason.code).toBe('not-found');
    expect(answer.current.content).toEqual(version(7));
  });

  it('gives the same answers in production', async () => {
    await server.stop();
    server = await site.buildAndStart();
    client = api(server.url);
    for (const [key, id, locale] of [
      ['page-fr-gone', ids.page, 'fr'],
      ['mdx-de', ids.mdx, 'de'],
      ['moved-de', ids.moved, 'de'],
      ['customized-de', ids.customized, 'de'],
    ] as const) {
      expect(await review(id, locale), key).toEqual(devAnswers.get(key));
    }
  });
});

describe('translation review without a git repository', () => {
  let site: TestSite;
  let server: RunningSite;

  beforeAll(async () => {
    site = await createSite({
      name: 'review-nogit',
      config: '{ requireIdentity: false }',
      content: { 'sites.json': JSON.stringify(SITES) },
    });
    server = await site.startDev();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('finds replaced versions in the cache only, and says when they are gone', async () => {
    const client = api(server.url);
    const created = await ok(
      client.post('/content', {
        body: {
          kind: 'data',
          collection: 'notes',
          type: 'json',
          name: 'note',
          locales: { en: { content: { data: { text: 'one' } } }, de: { inherit: true } },
        },
      }),
      201,
    );
    await ok(
      client.put(`/content/${created.id}`, { query: { locale: 'en' }, body: { content: { data: { text: 'two' } } } }),
    );
    const answer = await ok(client.get(`/content/${created.id}/de/review`));
    expect(answer.reviewed).toMatchObject({ content: { data: { text: 'one' } }, foundIn: { source: 'cache' } });
    expect(answer.diff.content).toEqual([
      {
        path: 'data.text',
        change: 'changed',
        before: 'one',
        after: 'two',
        words: [
          { text: 'one', change: 'removed' },
          { text: 'two', change: 'added' },
        ],
      },
    ]);
    await rm(path.join(site.contentRoot, CACHE_FOLDER), { recursive: true, force: true });
    const gone = await ok(client.get(`/content/${created.id}/de/review`));
    expect(gone).toMatchObject({ reviewed: null, diff: null, reason: { code: 'no-repository' } });
  });
});
