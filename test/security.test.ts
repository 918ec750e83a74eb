import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../src/http/app-env.js';
import { devNetworkGuard } from '../src/http/network-guard.js';
import { onError } from '../src/http/on-error.js';
import { gitCli } from './support/git-cli.js';
import { type ApiClient, api, bearer } from './support/http.js';
import { type JwksServer, startJwksServer } from './support/jwks-server.js';
import { createSite, type RunningSite } from './support/site.js';

// Issue 15, probed as an attacker would: another origin (any localhost page included) gets nothing
// from the API, a stored pathname never redirects off the site, malformed input stays a 4xx, and
// `astro dev --host` takes changes only from this machine unless identity is required.

const SITES_JSON = JSON.stringify({
  sites: { main: { locales: ['en', 'fr'], defaultLocale: 'en' } },
  globalLocales: ['en'],
});
const ALICE = { email: 'alice@example.test', sub: 'user-alice' };
/** Vite's dev server answers CORS for every localhost origin by default: a page on another local port. */
const LOCAL_PAGE = 'http://localhost:8080';

const dataEntry = (name: string) => ({
  kind: 'data',
  collection: 'settings',
  type: 'json',
  name,
  locales: { en: { content: { data: { name } } } },
});
const page = (fields: Record<string, unknown>) =>
  `${JSON.stringify({ type: 'json', meta: { title: 'x' }, ...fields }, null, 2)}\n`;

/** Pages whose files were edited by hand (or pulled): pathnames that are not paths on the site. */
const OFF_SITE_PAGES = {
  'pages/main/pages/absolute.fr.json': page({
    pathname: 'https://evil.example/',
    previousPathnames: ['/legacy-absolute'],
  }),
  'pages/main/pages/protocol-relative.fr.json': page({
    pathname: '//evil.example',
    previousPathnames: ['/legacy-slashes'],
  }),
  'pages/main/pages/backslash.fr.json': page({ pathname: '/\\evil.example', previousPathnames: ['/legacy-backslash'] }),
  'pages/main/pages/header-split.fr.json': page({
    pathname: '/a\r\nSet-Cookie: stolen=1',
    previousPathnames: ['/legacy-crlf'],
  }),
  'pages/main/pages/good.en.json': page({
    pathname: '/good',
    previousPathnames: ['/old-good', 'https://evil.example/from'],
  }),
};

let jwks: JwksServer;
beforeAll(async () => {
  jwks = await startJwksServer();
});
afterAll(async () => {
  await jwks?.close();
});

describe.each(['dev', 'production'] as const)('security (%s)', (mode) => {
  let server: RunningSite;
  let listing: RunningSite;
  let client: ApiClient;
  let token: string;
  let contentRoot: string;
  const as = (headers: Record<string, string | null> = {}) => ({ headers: { ...bearer(token), ...headers } });

  beforeAll(async () => {
    const site = await createSite({
      name: `security-${mode}`,
      config:
        `{ requireIdentity: true, auth: { type: 'jwt', jwksUrl: '${jwks.jwksUrl}', ` +
        `issuer: '${jwks.issuer}', audience: '${jwks.audience}', cookie: 'CF_Authorization' } }`,
      content: { 'sites.json': SITES_JSON, ...OFF_SITE_PAGES },
    });
    contentRoot = site.contentRoot;
    await gitCli(contentRoot, ['init', '-q', '-b', 'main']);
    const listingSite = await createSite({
      name: `security-listed-${mode}`,
      config: `{ requireIdentity: false, allowedOrigins: ['${LOCAL_PAGE}'] }`,
      content: { 'sites.json': SITES_JSON },
    });
    [server, listing] =
      mode === 'dev'
        ? await Promise.all([site.startDev(), listingSite.startDev()])
        : await Promise.all([site.buildAndStart(), listingSite.buildAndStart()]);
    client = api(server.url);
    token = await jwks.sign(ALICE);
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), listing?.stop()]);
  });

  describe('other origins', () => {
    it('refuses a JSON write and a read from a localhost page, with the envelope and no CORS headers', async () => {
      const write = await client.post('/content', as({ origin: LOCAL_PAGE, 'content-type': 'application/json' }));
      const writeWithBody = await client.request('POST', '/git/commit', { body: {}, ...as({ origin: LOCAL_PAGE }) });
      const read = await client.get('/sites', as({ origin: LOCAL_PAGE }));
      const publicRead = await client.get('/openapi.json', { headers: { origin: LOCAL_PAGE } });
      for (const response of [write, writeWithBody, read, publicRead]) {
        expect(response.status, response.text).toBe(403);
        expect(response.json.error.code).toBe('FORBIDDEN_ORIGIN');
        expect(response.json.error.message).toContain(LOCAL_PAGE);
        expect(response.headers.get('access-control-allow-origin')).toBeNull();
      }
    });

    it('answers a preflight from a localhost page without Access-Control-Allow-Origin', async () => {
      const preflight = await client.request('OPTIONS', '/git/commit', {
        headers: {
          origin: LOCAL_PAGE,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.status).toBe(403);
      expect(preflight.json.error.code).toBe('FORBIDDEN_ORIGIN');
      for (const name of [
        'access-control-allow-origin',
        'access-control-allow-methods',
        'access-control-allow-credentials',
      ]) {
        expect(preflight.headers.get(name), name).toBeNull();
      }
    });

    it('refuses a request without Origin that the browser marks cross-site, and an opaque "null" origin', async () => {
      // A link from another site to the API.
      const link = await rawGet(`${client.base}/sites`, {
        ...bearer(token),
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'navigate',
      });
      const opaque = await client.get('/sites', as({ origin: 'null' }));
      for (const response of [link, opaque]) {
        expect(response.status).toBe(403);
        expect(response.json.error.code).toBe('FORBIDDEN_ORIGIN');
      }
    });

    it("lets the site's own pages, same-site requests and clients without Origin (curl, servers) through", async () => {
      const own = await client.post('/content', { body: dataEntry('own'), ...as() });
      expect(own.status, own.text).toBe(201);
      expect(own.headers.get('access-control-allow-origin')).toBeNull();
      const sameSite = await client.get('/sites', as({ origin: null, 'sec-fetch-site': 'same-origin' }));
      expect(sameSite.status, sameSite.text).toBe(200);
      const noOrigin = await client.post('/content', { body: dataEntry('curl'), ...as({ origin: null }) });
      expect(noOrigin.status, noOrigin.text).toBe(201);
      // A link or an <img> on another site may still load a public file.
      const file = await rawGet(`${client.base}/assets/serve/nothing.png`, {
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'navigate',
      });
      expect(file.status).toBe(404);
      expect(file.json.error.code).toBe('ASSET_NOT_FOUND');
    });

    it('answers CORS, preflights included, for the origins listed in allowedOrigins, and only those', async () => {
      const listed = api(listing.url);
      const preflight = await listed.request('OPTIONS', '/content', {
        headers: {
          origin: LOCAL_PAGE,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,if-match',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(LOCAL_PAGE);
      expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/content-type/i);
      const read = await listed.get('/sites', { headers: { origin: LOCAL_PAGE } });
      expect(read.status, read.text).toBe(200);
      expect(read.headers.get('access-control-allow-origin')).toBe(LOCAL_PAGE);
      const write = await listed.post('/content', { body: dataEntry('cors'), headers: { origin: LOCAL_PAGE } });
      expect(write.status, write.text).toBe(201);
      expect(write.headers.get('access-control-allow-origin')).toBe(LOCAL_PAGE);

      const other = await listed.request('OPTIONS', '/content', {
        headers: { origin: 'http://localhost:9999', 'access-control-request-method': 'POST' },
      });
      expect(other.status).toBe(403);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('stored pathnames', () => {
    it('never redirects to a pathname that is not a path on the site, and lists no such redirect', async () => {
      for (const from of ['/legacy-absolute', '/legacy-slashes', '/legacy-backslash', '/legacy-crlf']) {
        const response = await fetch(`${server.url}${from}`, { redirect: 'manual' });
        expect(response.status, from).toBe(404);
        expect(response.headers.get('location'), from).toBeNull();
      }
      const good = await fetch(`${server.url}/old-good?x=1`, { redirect: 'manual' });
      expect(good.status).toBe(301);
      expect(good.headers.get('location')).toBe('/good?x=1');
      const redirects = await client.get('/redirects', as());
      expect(redirects.status, redirects.text).toBe(200);
      expect(
        redirects.json.items.map((redirect: { from: string; to: string }) => `${redirect.from} ${redirect.to}`),
      ).toEqual(['/old-good /good']);
    });

    it('reports each off-site pathname in git/status and in the log, and a file edited by hand while running too', async () => {
      await writeFile(
        path.join(contentRoot, 'pages/main/pages/later.fr.json'),
        page({ pathname: '/fine', previousPathnames: ['//later.example'] }),
      );
      // The watcher picks the file up before the next answer that needs the index.
      await expect
        .poll(async () => (await client.get('/git/status', as())).json.problems?.length, { timeout: 10_000 })
        .toBe(6);
      const { problems } = (await client.get('/git/status', as())).json;
      expect(problems.map((problem: { path: string }) => problem.path)).toEqual([
        'pages/main/pages/absolute.fr.json',
        'pages/main/pages/backslash.fr.json',
        'pages/main/pages/good.en.json',
        'pages/main/pages/header-split.fr.json',
        'pages/main/pages/later.fr.json',
        'pages/main/pages/protocol-relative.fr.json',
      ]);
      for (const problem of problems) {
        expect(problem.reason).toBe('off-site-pathname');
        expect(problem.message).toMatch(/is not a path on the site/);
      }
      expect(problems.find((problem: { path: string }) => problem.path.endsWith('later.fr.json')).message).toContain(
        '//later.example',
      );
      // The start-up scan logs in production; in dev, Astro's own content sync may read the files first, so the watcher's later read logs.
      await expect
        .poll(() => server.logs(), { timeout: 10_000 })
        .toContain('"//later.example" is not a path on the site');
      expect(server.logs()).toContain('"https://evil.example/" is not a path on the site');
    });
  });

  describe('malformed input', () => {
    it('answers 401 UNAUTHORIZED to a malformed CF_Authorization cookie', async () => {
      const response = await client.get('/sites', { headers: { cookie: 'CF_Authorization=%E0%A4%A' } });
      expect(response.status, response.text).toBe(401);
      expect(response.json.error.code).toBe('UNAUTHORIZED');
    });

    it('answers 400 to a malformed percent-encoding in an API path, never an error page', async () => {
      for (const target of ['/content/%ff/en', '/%E0%A4%A', '/content/x%/en']) {
        const response = await client.get(target, as());
        expect(response.status, `${target}: ${response.text.slice(0, 300)}`).toBe(400);
        expect(response.text).not.toMatch(/\/work\/|node_modules|at [A-Za-z]+ \(/);
        if (mode === 'dev') {
          expect(response.json.error.code).toBe('INVALID_REQUEST');
        } else {
          // @astrojs/node's standalone server answers this itself, before Astro or the API run.
          expect(response.text).toBe('Bad request.');
        }
      }
    });
  });
});

/**
 * A GET with exactly these headers: fetch adds its own `Sec-Fetch-Mode: cors`, where a browser
 * following a link sends `navigate` (which Astro's dev server lets through to the route).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary response shapes
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, timeout: 30_000 }, (response) => {
      let text = '';
      response
        .setEncoding('utf8')
        .on('data', (chunk: string) => {
          text += chunk;
        })
        .on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode!, json });
        });
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${url} timed out`))).on('error', reject);
  });
}

// Tests send traffic to loopback only, so a request "from another machine" is made by handing the
// guard another client address through the app's bindings, as the route entry does with Astro's
// `clientAddress`; the listening side is checked with a real `astro dev --host 0.0.0.0`.
describe('astro dev beyond loopback', () => {
  let server: RunningSite;

  beforeAll(async () => {
    const site = await createSite({ name: 'security-network', content: { 'sites.json': SITES_JSON } });
    server = await site.startDev({}, { host: '0.0.0.0' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('says so once in the start-up log, and changes from this machine still work', async () => {
    const warnings = server
      .logs()
      .split('\n')
      .filter((line) => line.includes('beyond this machine'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/allowNetworkWrites/);
    const write = await api(server.url).post('/content', { body: dataEntry('local') });
    expect(write.status, write.text).toBe(201);
  });

  it('refuses changes and git from another address without identity, saying how to allow them; reads still work', async () => {
    const app = new Hono<AppEnv>();
    app.use('*', devNetworkGuard());
    app.all('*', (c) => c.json({ reached: true }));
    app.onError(onError);
    const lan = { clientAddress: '198.51.100.7' };
    for (const [method, url] of [
      ['POST', '/content'],
      ['POST', '/git/commit'],
      ['DELETE', '/content/x'],
    ] as const) {
      const response = await app.request(url, { method }, lan);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(response.status).toBe(403);
      expect(body.error.code).toBe('FORBIDDEN_CLIENT');
      expect(body.error.message).toMatch(/requireIdentity: true.*allowNetworkWrites: true/);
    }
    expect((await app.request('/sites', { method: 'GET' }, lan)).status).toBe(200);
    expect((await app.request('/content', { method: 'POST' }, { clientAddress: '::ffff:127.0.0.1' })).status).toBe(200);
  });
});
