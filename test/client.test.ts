import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ConflictError,
  createQuireClient,
  ForbiddenError,
  NotFoundError,
  QuireApiError,
  type QuireClient,
  ServerError,
  StaleWriteError,
  UnauthorizedError,
  UnsupportedFormatError,
  ValidationError,
} from '../src/client/index.js';
import { ENDPOINTS } from '../src/http/endpoints.js';
import { type ContractChecker, contractChecker } from './support/api-contract.js';
import { gitCli } from './support/git-cli.js';
import { type GitServer, startGitServer } from './support/git-server.js';
import { idLike } from './support/ids.js';
import { png } from './support/images.js';
import { createSite, type RunningSite, type TestSite } from './support/site.js';

const SITES = {
  sites: {
    shop: { locales: ['en', 'de'], defaultLocale: 'en' },
    blog: { locales: ['en'], defaultLocale: 'en' },
  },
  globalLocales: ['en', 'de'],
};

const visual = (text: string) => ({ visualData: { blocks: [{ type: 'text', text }] } });

/** The error the promise rejects with. */
async function failure(promise: Promise<unknown>): Promise<QuireApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(QuireApiError);
    return error as QuireApiError;
  }
  throw new Error('expected the call to fail');
}

describe('typed client (dev)', () => {
  let site: TestSite;
  let server: RunningSite;
  let checker: ContractChecker;
  let quire: QuireClient;
  let files: http.Server;
  let filesUrl: string;
  let remotes: string;
  let gitServer: GitServer;

  beforeAll(async () => {
    site = await createSite({
      name: 'client',
      config: '{ requireIdentity: false, importUrl: { allowPrivateNetworks: true } }',
      content: { 'sites.json': JSON.stringify(SITES) },
    });
    // The content root gets a repository of its own, so git calls never reach the one the tests run in.
    await gitCli(site.contentRoot, ['init', '-q', '-b', 'main']);
    await gitCli(site.contentRoot, ['add', '-A']);
    await gitCli(site.contentRoot, ['commit', '-q', '-m', 'init']);
    files = http.createServer((_request, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png(4, 4)));
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    remotes = await mkdtemp(path.join(os.tmpdir(), 'quire-client-'));
    gitServer = await startGitServer({ root: remotes, token: 'client-token' });
    await gitCli(remotes, ['init', '-q', '--bare', '-b', 'main', 'client.git']);
    server = await site.startDev({
      GIT_TOKEN: 'client-token',
      GIT_USERNAME: undefined,
      GIT_BRANCH: undefined,
      CONTENT_PATH: undefined,
    });
    checker = contractChecker();
    quire = createQuireClient({ baseUrl: server.url, fetch: checker.fetch });
  });

  afterAll(async () => {
    await server?.stop();
    files?.closeAllConnections();
    await new Promise((resolve) => files?.close(resolve));
    await gitServer?.close();
    if (remotes) await rm(remotes, { recursive: true, force: true });
  });

  // Every answer matched the response schema or documented error of its endpoint.
  afterEach(() => {
    expect(checker.problems.splice(0)).toEqual([]);
  });

  it('has a method for every endpoint of the table', () => {
    const missing = ENDPOINTS.filter((endpoint) => endpoint.clientMethod !== false)
      .map((endpoint) => endpoint.operation)
      .filter((operation) => {
        const method = operation.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], quire);
        return typeof method !== 'function';
      });
    expect(missing).toEqual([]);
  });

  it('is exported as astro-quire/client by the packed package', async () => {
    const resolved = createRequire(path.join(site.dir, 'package.json')).resolve('astro-quire/client');
    expect(resolved).toContain(path.join('node_modules', 'astro-quire', 'dist', 'src', 'client', 'index.js'));
    const packed = (await import(pathToFileURL(resolved).href)) as typeof import('../src/client/index.js');
    expect(typeof packed.createQuireClient).toBe('function');
    expect(new packed.StaleWriteError(412, 'STALE_WRITE', 'x')).toBeInstanceOf(packed.QuireApiError);
  });

  it('reads identity, sites and the OpenAPI document', async () => {
    expect(await quire.auth.user()).toEqual({ authenticated: false });
    expect(await quire.sites.get()).toEqual(SITES);
    expect((await quire.openapi()).openapi).toMatch(/^3\.1\./);
  });

  it('subscribes to live events and stops when asked', async () => {
    const events: unknown[] = [];
    let opened!: () => void;
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const stop = quire.events.subscribe({ onEvent: (event) => events.push(event), onOpen: () => opened() });
    await open;
    const created = await quire.content.create({
      kind: 'data',
      collection: 'events',
      type: 'json',
      locales: { en: { content: { data: { a: 1 } } } },
    });
    // Deleted again, so the lists the tests below count are as they expect.
    await quire.content.delete(created.id, { etag: created.etag });
    for (let tries = 0; tries < 100 && events.length < 2; tries++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    stop();
    expect(events).toEqual([
      { kind: 'content', id: created.id, locale: 'en', etag: created.etag, by: null, action: 'created' },
      { kind: 'content', id: created.id, locale: null, etag: null, by: null, action: 'deleted' },
    ]);
  });

  describe('content', () => {
    let id: string;

    it('creates, reads and writes with the etags it carries', async () => {
      const created = await quire.content.create({
        kind: 'page',
        site: 'shop',
        collection: 'pages',
        type: 'visual',
        locales: {
          en: { pathname: '/about', meta: { title: 'About' }, content: visual('About') },
          de: { pathname: '/ueber', inherit: true },
        },
      });
      expect(created).toMatchObject({ success: true, id: expect.stringMatching(idLike('about')) });
      id = created.id;
      // Two locales: which one the answer's etag belongs to is the server's default locale; reading teaches the client both.
      expect(quire.etags.get(id, 'en')).toBeUndefined();
      const entry = await quire.content.get(id);
      expect(entry.locales.en!.etag).toBe(created.etag);
      expect(quire.etags.get(id, 'de')).toBe(entry.locales.de!.etag);

      const localized = await quire.content.getLocale(id, 'en');
      expect(localized.localized.content).toEqual(visual('About'));

      const written = await quire.content.update(id, 'en', { meta: { description: 'Who we are' } });
      expect(written.etag).not.toBe(created.etag);
      expect(quire.etags.get(id, 'en')).toBe(written.etag);
      const patched = await quire.content.patch(id, 'en', { content: visual('About us') });
      expect(quire.etags.get(id, 'en')).toBe(patched.etag);

      const stale = await failure(quire.content.update(id, 'en', { meta: { title: 'Lost' } }, { etag: created.etag }));
      expect(stale).toBeInstanceOf(StaleWriteError);
      expect(stale).toMatchObject({ status: 412, code: 'STALE_WRITE' });
      expect((await quire.content.getLocale(id, 'en')).localized.meta.title).toBe('About');
    });

    it('lists, filters and finds what needs review', async () => {
      expect(await quire.content.collections()).toEqual({ collections: ['pages'] });
      const pages = await quire.content.list({ kind: 'page', locales: ['de', 'fr'], published: true });
      expect(pages.items.map((item) => item.id)).toEqual([id]);
      expect((await quire.content.list({ missingLocales: 'de' })).total).toBe(0);
      const review = await quire.content.needsReview('de', { kind: 'page' });
      expect(review.items.map((item) => item.id)).toEqual([id]);
      // The list carried the German locale's current etag (its content half moved with English).
      expect(quire.etags.get(id, 'de')).toBe(review.items[0]!.locales.de!.etag);
      const changes = await quire.content.review(id, 'de');
      expect(changes).toMatchObject({ state: 'inherited', stale: true, from: 'en' });
      expect(changes.reviewed === null ? changes.reason?.code : changes.diff).toBeTruthy();
    });

    it('runs the inheritance transitions on remembered etags', async () => {
      await quire.content.markReviewed(id, 'de');
      expect((await quire.content.needsReview('de')).total).toBe(0);
      await quire.content.breakInheritance(id, 'de');
      expect((await quire.content.getLocale(id, 'de')).localized.inheritance).toMatchObject({ state: 'customized' });
      await quire.content.revertToInherited(id, 'de');
      expect((await quire.content.getLocale(id, 'de')).localized.inheritance).toMatchObject({
        state: 'inherited',
        stale: false,
      });
      const wrongState = await failure(quire.content.revertToInherited(id, 'de'));
      expect(wrongState).toBeInstanceOf(ValidationError);
      expect(wrongState.code).toBe('INVALID_REQUEST');
    });

    it('batches updates, reporting failures per operation (207)', async () => {
      const result = await quire.content.batch([
        { id, locale: 'en', data: { meta: { keywords: ['team'] } } },
        { id: 'no-such-item', locale: 'en', data: {}, etag: 'x.y' },
      ]);
      expect(result).toMatchObject({ success: false, updated: 1, failed: 1 });
      expect(result.operations[1]!.error!.code).toBe('CONTENT_NOT_FOUND');
      expect(quire.etags.get(id, 'en')).toBe(result.operations[0]!.etag);
      const clean = await quire.content.batch([{ id, locale: 'en', data: { meta: { keywords: ['people'] } } }]);
      expect(clean).toMatchObject({ success: true, updated: 1, failed: 0 });
    });

    it('turns error answers into typed errors with code and details', async () => {
      const missing = await failure(
        quire.content.create({ collection: 'pages', type: 'visual', locales: { en: { content: {} } } } as never),
      );
      expect(missing).toBeInstanceOf(ValidationError);
      expect(missing).toMatchObject({
        status: 400,
        code: 'MISSING_REQUIRED_FIELD',
        details: { fields: [expect.objectContaining({ field: 'kind' })] },
      });
      const taken = await failure(
        quire.content.create({
          kind: 'page',
          site: 'shop',
          collection: 'pages',
          type: 'visual',
          locales: { en: { pathname: '/about', content: {} } },
        }),
      );
      expect(taken).toBeInstanceOf(ConflictError);
      expect(taken.code).toBe('PATHNAME_TAKEN');
      const notFound = await failure(quire.content.get('no-such-item'));
      expect(notFound).toBeInstanceOf(NotFoundError);
      expect(notFound).toMatchObject({
        status: 404,
        code: 'CONTENT_NOT_FOUND',
        message: expect.stringContaining('no-such-item'),
      });
    });

    it('deletes a locale with its remembered etag, then the item', async () => {
      await quire.content.getLocale(id, 'de');
      expect(await quire.content.delete(id, { locale: 'de' })).toEqual({ success: true });
      expect(quire.etags.get(id, 'de')).toBeUndefined();
      const whole = await quire.content.get(id);
      await quire.content.delete(id, { etag: whole.locales.en!.etag });
      expect(await failure(quire.content.get(id))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('sites, data, fragments and blocks', () => {
    let pageId: string;
    let checkoutId: string;

    beforeAll(async () => {
      pageId = (
        await quire.content.create({
          kind: 'page',
          site: 'shop',
          collection: 'landing',
          type: 'mdx',
          locales: { en: { pathname: '/sale', content: { mdx: '# Sale' } } },
        })
      ).id;
      checkoutId = (
        await quire.content.create({
          kind: 'data',
          collection: 'settings',
          type: 'json',
          name: 'checkout',
          locales: { en: { content: { data: { currency: 'EUR' } } } },
        })
      ).id;
      await quire.content.create({
        kind: 'fragment',
        collection: 'components',
        type: 'visual',
        name: 'header',
        locales: { en: { content: visual('Header') } },
      });
      await quire.content.create({
        kind: 'fragment',
        site: 'shop',
        collection: 'components',
        type: 'visual',
        name: 'header',
        locales: { en: { content: visual('Shop header') } },
      });
    });

    it('answers the site routes and moves a page with the etag from its create', async () => {
      expect(await quire.sites.collections('shop')).toEqual({ collections: ['landing'] });
      expect((await quire.sites.pages('shop', { locale: 'en' })).items.map((item) => item.id)).toEqual([pageId]);
      expect(await quire.sites.pathnameAvailable('shop', '/sale', { locale: 'en' })).toEqual({
        available: false,
        existingId: pageId,
      });
      expect(await quire.sites.pathnameAvailable('shop', '/sale', { excludeId: pageId })).toEqual({ available: true });
      const moved = await quire.sites.move('shop', { id: pageId, locale: 'en', pathname: '/offers' });
      expect(moved).toMatchObject({ moved: true, previousPathname: '/sale' });
      expect(quire.etags.get(pageId, 'en')).toBe(moved.etag);
      expect(await quire.sites.redirects({ site: 'shop' })).toEqual({
        items: [{ site: 'shop', locale: 'en', from: '/sale', to: '/offers', id: pageId }],
        total: 1,
      });
      const untranslated = await quire.sites.untranslated('de', { excludeSites: ['blog'], includeUnpublished: true });
      expect(untranslated.items.map((item) => item.id)).toContain(pageId);
      const unknown = await failure(quire.sites.pages('nowhere'));
      expect(unknown).toMatchObject({ status: 404, code: 'SITE_NOT_FOUND' });
      expect(await failure(quire.sites.pages('fragments'))).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    });

    it('finds data entries', async () => {
      expect(await quire.data.collections()).toEqual({ collections: ['settings'] });
      expect(await quire.data.nameAvailable('checkout', 'settings')).toEqual({
        available: false,
        existingId: checkoutId,
      });
      expect((await quire.data.list({ collection: 'settings' })).items.map((item) => item.id)).toEqual([checkoutId]);
      expect((await quire.data.get('checkout', 'settings', { locale: 'en' })).kind).toBe('data');
    });

    it('finds fragments and blocks, site ones shadowing global ones', async () => {
      for (const [area, kind] of [
        [quire.fragments, 'fragment'],
        [quire.blocks, 'block'],
      ] as const) {
        expect(await area.collections()).toEqual({ collections: ['components'] });
        const merged = await area.list({ site: 'shop' });
        expect(merged.items.map((item) => [item.kind, item.scope])).toEqual([[kind, 'site']]);
        expect(await area.nameAvailable('footer')).toEqual({ available: true });
        const header = await area.get('header', { site: 'shop' });
        expect(header).toMatchObject({ kind, site: 'shop' });
      }
    });
  });

  describe('assets', () => {
    it('uploads, lists, describes, moves and deletes files', async () => {
      const uploaded = await quire.assets.upload(new Blob([new Uint8Array(png(3, 2))], { type: 'image/png' }), {
        filename: 'Team Photo.png',
        folder: 'team',
        alt: 'The team',
        tags: ['people', 'office'],
      });
      expect(uploaded).toMatchObject({
        filename: 'team-photo.png',
        folder: '/team',
        width: 3,
        height: 2,
        tags: ['people', 'office'],
        path: 'team/team-photo.png',
      });
      expect((await quire.assets.list()).assets.map((asset) => asset.path)).toEqual(['team/team-photo.png']);
      expect((await quire.assets.folder()).folders).toEqual([{ name: 'team', path: '/team' }]);
      expect((await quire.assets.folder('/team')).assets).toHaveLength(1);
      expect(await quire.assets.createFolder('/archive')).toEqual({ success: true, path: '/archive' });
      expect((await quire.assets.folderTree()).tree.map((node) => node.name).sort()).toEqual(['archive', 'team']);
      expect((await quire.assets.meta('team/team-photo.png')).alt).toBe('The team');
      expect(await quire.assets.updateMeta('team/team-photo.png', { alt: null, tags: ['people'] })).toMatchObject({
        tags: ['people'],
      });

      const served = await quire.assets.serve('team/team-photo.png');
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await served.arrayBuffer())).toEqual(png(3, 2));
      expect(quire.assets.serveUrl('team/team-photo.png')).toBe(`${server.url}${uploaded.url}`);

      const brand = await quire.content.create({
        kind: 'data',
        collection: 'settings',
        type: 'json',
        name: 'brand',
        locales: { en: { meta: { ogImage: uploaded.url }, content: { data: {} } } },
      });
      expect((await quire.assets.usage('team/team-photo.png')).usage).toEqual([
        { page: brand.id, locale: 'en', field: 'meta.ogImage' },
      ]);

      const imported = await quire.assets.importUrl({ url: `${filesUrl}/logo.png`, folder: 'archive' });
      expect(imported).toMatchObject({ path: 'archive/logo.png', mimeType: 'image/png' });
      expect(
        await quire.assets.move({ filenames: ['logo.png'], sourceFolder: '/archive', targetFolder: '/team' }),
      ).toEqual({ success: true, moved: 1, skipped: [] });
      expect(await quire.assets.delete('team/logo.png')).toEqual({ success: true });
      expect(await failure(quire.assets.meta('team/logo.png'))).toBeInstanceOf(NotFoundError);

      const text = await failure(
        quire.assets.upload(new Blob(['just text'], { type: 'text/plain' }), { filename: 'notes.txt' }),
      );
      expect(text).toBeInstanceOf(UnsupportedFormatError);
      expect(text.code).toBe('ASSET_INVALID_FORMAT');
    });
  });

  describe('git', () => {
    it('reports status, commits, pushes and pulls, and types git failures', async () => {
      const before = await quire.git.status();
      expect(before).toMatchObject({ isRepo: true, branch: 'main', remoteConfigured: false, hasChanges: true });
      const committed = await quire.git.commit('Content from the client test');
      expect(committed.commit).toMatch(/^[0-9a-f]{40}$/);
      expect((await quire.git.status()).hasChanges).toBe(false);
      expect(await quire.git.commit()).toEqual({ success: true, commit: null, summary: 'nothing to commit' });
      const push = await failure(quire.git.push());
      expect(push).toBeInstanceOf(ServerError);
      expect(push).toMatchObject({ status: 500, code: 'GIT_PUSH_FAILED' });
      expect(await failure(quire.git.pull())).toMatchObject({ status: 500, code: 'GIT_PULL_FAILED' });

      await gitCli(site.contentRoot, ['remote', 'add', 'origin', gitServer.repoUrl('client.git')]);
      expect((await quire.git.push()).success).toBe(true);
      expect((await quire.git.pull()).summary).toMatch(/up to date/i);
      expect(await quire.git.status()).toMatchObject({ remoteConfigured: true, ahead: 0, behind: 0 });
    });
  });

  it('reached every endpoint of the table with a success answer', () => {
    const unanswered = ENDPOINTS.filter(
      (endpoint) => endpoint.response && !checker.seen.has(`${endpoint.operation} ${endpoint.response.status}`),
    ).map((endpoint) => endpoint.operation);
    expect(unanswered).toEqual([]);
  });
});

describe('typed client errors (no server)', () => {
  const answering = (status: number, body: string, type = 'application/json') =>
    createQuireClient({
      baseUrl: 'http://cms.example/',
      fetch: async () => new Response(body, { status, headers: { 'content-type': type } }),
    });

  it('maps 401 and a non-JSON 403 to their classes', async () => {
    const unauthorized = await failure(
      answering(401, JSON.stringify({ error: { code: 'UNAUTHORIZED', message: 'No identity' } })).content.list(),
    );
    expect(unauthorized).toBeInstanceOf(UnauthorizedError);
    expect(unauthorized).toMatchObject({ code: 'UNAUTHORIZED', message: 'No identity', name: 'UnauthorizedError' });
    const forbidden = await failure(
      answering(403, 'Cross-site POST form submissions are forbidden', 'text/plain').git.commit(),
    );
    expect(forbidden).toBeInstanceOf(ForbiddenError);
    expect(forbidden).toMatchObject({ code: 'HTTP_403', message: expect.stringContaining('forbidden') });
  });

  it('sends Origin with writes (not reads), JSON, headers and the prefix', async () => {
    let seen: Request | undefined;
    const quire = createQuireClient({
      baseUrl: 'http://cms.example:8080/',
      prefix: '/api',
      headers: () => ({ authorization: 'Bearer t' }),
      fetch: async (input, init) => {
        seen = new Request(input, init);
        return Response.json({ success: true, etag: 'm.c', modified: '2026-01-01T00:00:00.000Z' });
      },
    });
    quire.etags.set('about', 'de', 'old.etag');
    await quire.content.update('about', 'de', { meta: { title: 'Über' } });
    expect(seen!.url).toBe('http://cms.example:8080/api/content/about?locale=de&etag=old.etag');
    expect(seen!.headers.get('origin')).toBe('http://cms.example:8080');
    expect(seen!.headers.get('content-type')).toBe('application/json');
    expect(seen!.headers.get('authorization')).toBe('Bearer t');
    expect(await seen!.json()).toEqual({ meta: { title: 'Über' } });
    expect(quire.etags.get('about', 'de')).toBe('m.c');
    // A read needs no Origin: the API refuses a foreign one, and a proxy may show the server another origin.
    await quire.git.status();
    expect(seen!.method).toBe('GET');
    expect(seen!.headers.get('origin')).toBeNull();
  });
});
