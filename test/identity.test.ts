import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, api, bearer } from './support/http.js';
import { type JwksServer, startJwksServer } from './support/jwks-server.js';
import { createSite, type RunningSite } from './support/site.js';

// docs/interface.md, "Identity": identity comes only from a verified gateway token (here: a real JWKS server on
// loopback); requireIdentity defaults to true in a production build and false in `astro dev`.

const SITES_JSON = JSON.stringify({
  sites: { main: { locales: ['en', 'de'], defaultLocale: 'en' } },
  globalLocales: ['en', 'de'],
});
const ALICE = { email: 'alice@example.test', sub: 'user-alice' };
const BOB = { email: 'bob@example.test', sub: 'user-bob' };

let jwks: JwksServer;
beforeAll(async () => {
  jwks = await startJwksServer({ issuer: 'https://gateway.test', audience: 'quire-test' });
});
afterAll(async () => {
  await jwks?.close();
});

describe.each([{ mode: 'dev' as const }, { mode: 'production' as const }])('auth: jwt in $mode', ({ mode }) => {
  let server: RunningSite;
  let client: ApiClient;

  beforeAll(async () => {
    // One site per mode, so the attribution test creates `site-meta` in a fresh content root each time.
    const site = await createSite({
      name: `identity-jwt-${mode}`,
      config: `{ contentRoot: './content', auth: { type: 'jwt', jwksUrl: '${jwks.jwksUrl}', issuer: 'https://gateway.test', audience: 'quire-test' } }`,
      content: { 'sites.json': SITES_JSON },
    });
    server = mode === 'dev' ? await site.startDev() : await site.buildAndStart();
    client = api(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('reports a valid token as the authenticated user (with and without "Bearer ")', async () => {
    const token = await jwks.sign(ALICE);
    for (const authorization of [`Bearer ${token}`, token]) {
      const res = await client.get('/auth/user', { headers: { authorization } });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({ authenticated: true, user: ALICE });
    }
  });

  const rejected: Array<[string, (j: JwksServer) => Promise<Record<string, string>>]> = [
    ['no token at all', async () => ({})],
    ['an expired token', async (j) => bearer(await j.sign(ALICE, { expiresIn: -3600 }))],
    ['a token for another audience', async (j) => bearer(await j.sign(ALICE, { audience: 'someone-else' }))],
    ['a token from another issuer', async (j) => bearer(await j.sign(ALICE, { issuer: 'https://evil.test' }))],
    ['a token signed with a key the JWKS does not publish', async (j) => bearer(await j.sign(ALICE, { key: 'wrong' }))],
    ['an unsigned alg:none token', async (j) => bearer(j.unsigned(ALICE))],
    ['a garbage token', async () => bearer('not.a.jwt')],
    ['a bare Cf-Access-Authenticated-User-Email header', async () => ({ 'cf-access-authenticated-user-email': 'x@y' })],
  ];
  it.each(rejected)('answers authenticated: false to %s', async (_label, headers) => {
    const res = await client.get('/auth/user', { headers: await headers(jwks) });
    expect(res.status, res.text).toBe(200);
    expect(res.json?.authenticated, res.text).toBe(false);
    expect(res.json?.user, res.text).toBeUndefined();
  });

  if (mode === 'production') {
    it('requires an identity by default: GET /content without a token is 401 UNAUTHORIZED', async () => {
      const res = await client.get('/content');
      expect(res.status, res.text).toBe(401);
      expect(res.json?.error?.code, res.text).toBe('UNAUTHORIZED');
      expect(typeof res.json?.error?.message, res.text).toBe('string');
    });

    it('rejects an unverifiable token on other endpoints too (expired token → 401)', async () => {
      const res = await client.get('/content', { headers: bearer(await jwks.sign(ALICE, { expiresIn: -3600 })) });
      expect(res.status, res.text).toBe(401);
      expect(res.json?.error?.code, res.text).toBe('UNAUTHORIZED');
    });

    it('serves GET /content to a verified caller', async () => {
      const res = await client.get('/content', { headers: bearer(await jwks.sign(ALICE)) });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({ items: expect.any(Array), total: expect.any(Number) });
    });

    it('keeps /auth/user reachable without a token', async () => {
      const res = await client.get('/auth/user');
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({ authenticated: false });
    });
  } else {
    it('does not require an identity in astro dev: GET /content without a token is 200', async () => {
      const res = await client.get('/content');
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({ items: expect.any(Array), total: expect.any(Number) });
    });
  }

  it('attributes creates and updates to the verified e-mail', async () => {
    const alice = bearer(await jwks.sign(ALICE));
    const bob = bearer(await jwks.sign(BOB));

    const created = await client.post('/content', {
      headers: alice,
      body: {
        kind: 'data',
        collection: 'settings',
        type: 'json',
        name: 'site-meta',
        locales: { en: { content: { data: { a: 1 } } } },
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({
      success: true,
      id: expect.any(String),
      etag: expect.any(String),
      created: expect.any(String),
    });
    const { id, etag } = created.json as { id: string; etag: string };

    const first = await client.get(`/content/${encodeURIComponent(id)}`, { headers: alice });
    expect(first.status, first.text).toBe(200);
    expect(first.json?.locales?.en).toMatchObject({ createdBy: ALICE.email, modifiedBy: ALICE.email });

    const updated = await client.put(`/content/${encodeURIComponent(id)}`, {
      headers: bob,
      query: { locale: 'en', etag },
      body: { content: { data: { a: 2 } } },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json).toMatchObject({ success: true, etag: expect.any(String), modified: expect.any(String) });

    const second = await client.get(`/content/${encodeURIComponent(id)}`, { headers: bob });
    expect(second.status, second.text).toBe(200);
    expect(second.json?.locales?.en).toMatchObject({
      createdBy: ALICE.email,
      modifiedBy: BOB.email,
      content: { data: { a: 2 } },
    });
  });
});

describe('auth: trusted-header in dev', () => {
  let server: RunningSite;
  let client: ApiClient;
  let contentRoot: string;

  beforeAll(async () => {
    const site = await createSite({
      name: 'identity-trusted-header',
      config: `{ auth: { type: 'trusted-header', emailHeader: 'x-auth-email' } }`,
      content: { 'sites.json': SITES_JSON },
    });
    contentRoot = site.contentRoot;
    server = await site.startDev();
    client = api(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('takes the e-mail from the header, with sub defaulting to the e-mail', async () => {
    const res = await client.get('/auth/user', { headers: { 'x-auth-email': 'carol@example.test' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ authenticated: true, user: { email: 'carol@example.test', sub: 'carol@example.test' } });
  });

  it('answers authenticated: false without the header', async () => {
    const res = await client.get('/auth/user');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ authenticated: false });
  });

  it('logs the content root, the prefix and the access mode at startup', () => {
    const logs = server.logs();
    expect(logs).toContain(contentRoot);
    expect(logs).toContain('/__cms/api');
    // dev defaults to requireIdentity: false; the log says so and names the gateway type.
    expect(logs).toMatch(/access/i);
    expect(logs).toMatch(/open|no identity required|not required/i);
    expect(logs).toContain('trusted-header');
  });
});

describe('configuration errors fail the build with a clear message', () => {
  it('names a bad option (prefix without a leading slash)', async () => {
    const site = await createSite({ name: 'bad-option', config: `{ prefix: 'no-slash' }` });
    const { code, output } = await site.build();
    expect(code, output).not.toBe(0);
    // Paths are removed first so a match cannot come from a folder name.
    expect(output.replaceAll(site.dir, '<site>')).toMatch(/\bprefix\b/);
  });

  it('says an adapter (@astrojs/node) is needed when the site has none', async () => {
    const site = await createSite({ name: 'no-adapter', adapter: false });
    const { code, output } = await site.build();
    expect(code, output).not.toBe(0);
    expect(output).toContain('@astrojs/node');
  });
});
