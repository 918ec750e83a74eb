import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkA11y, collectPageErrors, launchBrowser, screenshot } from './support/browser.js';
import { bearer } from './support/http.js';
import { type JwksServer, startJwksServer } from './support/jwks-server.js';
import { createSite, type RunningSite } from './support/site.js';

// The admin is prebuilt into the package (dist/admin) and mounted by the integration alone: these
// sites have nothing but quire() and @astrojs/node, yet a real Chromium gets the shell and runs it.

const SITES_JSON = JSON.stringify({
  sites: { main: { locales: ['en', 'de'], defaultLocale: 'en' } },
  globalLocales: ['en', 'de'],
});
const ALICE = { email: 'alice@example.test', sub: 'user-alice' };
/** One page, so that a deep link into the editor has something to open. */
const CONTENT = {
  'sites.json': SITES_JSON,
  'pages/main/pages/welcome.en.mdx': '---\npathname: /welcome\nmeta:\n  title: Welcome\n---\nHi\n',
};
const EDITOR = '/__cms/content/welcome/en';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The shell's config JSON and the hashed files it names. */
function readShell(html: string) {
  const config = JSON.parse(
    /<script type="application\/json" id="quire-admin-config">(.*?)<\/script>/s.exec(html)![1]!,
  );
  const script = /<script type="module" src="([^"]+)"/.exec(html)![1]!;
  const styles = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((match) => match[1]!);
  return { config, script, styles };
}

describe('admin in astro dev (on by default)', () => {
  let server: RunningSite;
  let dir: string;

  beforeAll(async () => {
    const site = await createSite({ name: 'admin-dev', content: CONTENT });
    dir = site.dir;
    server = await site.startDev();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves the shell at /__cms with the dev config, uncached', async () => {
    const res = await fetch(`${server.url}/__cms`);
    const html = await res.text();
    expect(res.status, html).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const shell = readShell(html);
    expect(shell.config).toEqual({
      basePath: '/__cms',
      apiPrefix: '/__cms/api',
      mode: 'dev',
      preview: null,
      git: false,
    });
    expect(shell.script).toMatch(/^\/__cms\/assets\/main-[A-Z0-9]+\.js$/);
    expect(shell.styles).toHaveLength(1);
  });

  it('runs the app in Chromium at /__cms and after reloading a deep link, with no error and no serious axe violation', async () => {
    const page = await browser.newPage();
    const errors = collectPageErrors(page);
    try {
      for (const [url, heading] of [
        [`${server.url}/__cms`, /^Pages of main/],
        [`${server.url}${EDITOR}`, /^Welcome/],
      ] as const) {
        const response = await page.goto(url);
        expect(response?.status(), url).toBe(200);
        await page.getByRole('heading', { name: heading }).waitFor({ timeout: 15_000 });
      }
      await page.reload();
      await page.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 15_000 });
      expect(new URL(page.url()).pathname).toBe(EDITOR);
      await checkA11y(page, { label: 'the admin shell' });
      const file = await screenshot(page, path.join(dir, 'screenshots', 'shell.png'));
      expect((await readFile(file)).subarray(1, 4).toString()).toBe('PNG');
      expect(errors()).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('serves the hashed files with their content type and immutable caching; HEAD has no body', async () => {
    const { script, styles } = readShell(await (await fetch(`${server.url}/__cms`)).text());
    for (const [file, type] of [
      [script, 'text/javascript; charset=utf-8'],
      [styles[0]!, 'text/css; charset=utf-8'],
    ] as const) {
      const res = await fetch(`${server.url}${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toBe(type);
      expect(res.headers.get('cache-control'), file).toBe('public, max-age=31536000, immutable');
      expect((await res.text()).length, file).toBeGreaterThan(0);
      const head = await fetch(`${server.url}${file}`, { method: 'HEAD' });
      expect(head.status, file).toBe(200);
      expect(await head.text(), file).toBe('');
    }
  });

  it.each([
    ['a missing file', '/__cms/assets/main-NOPE.js'],
    ['an encoded path out of the folder', '/__cms/assets/..%2f..%2fpackage.json'],
    ['a double-encoded one', '/__cms/assets/%252e%252e/%252e%252e/package.json'],
    ['an encoded backslash', '/__cms/assets/..%5c..%5cpackage.json'],
    ['the folder itself', '/__cms/assets/chunks'],
  ])('answers a plain 404 (no JSON envelope) to %s', async (_label, url) => {
    const res = await fetch(`${server.url}${url}`);
    const body = await res.text();
    expect(res.status, body).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(body).toBe('Not found');
  });

  it('leaves the API where it was: /__cms/api answers JSON, not the shell', async () => {
    const res = await fetch(`${server.url}/__cms/api/sites`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('refuses other methods with 405 and Allow', async () => {
    const res = await fetch(`${server.url}/__cms/content`, { method: 'DELETE', headers: { origin: server.url } });
    expect(res.status, await res.text()).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('admin turned off, or moved, in astro dev', () => {
  it("admin: false → /__cms is the site's 404 while the API still answers", async () => {
    const site = await createSite({
      name: 'admin-off-dev',
      config: '{ admin: false }',
      content: CONTENT,
    });
    const server = await site.startDev();
    try {
      const res = await fetch(`${server.url}/__cms`);
      const body = await res.text();
      expect(res.status).toBe(404);
      expect(body).not.toContain('quire-admin-config');
      expect((await fetch(`${server.url}/__cms/api/sites`)).status).toBe(200);
      // No "edit this page" app in the dev toolbar either: it opens an admin that is not there.
      const toolbarApps = await (await fetch(`${server.url}/@id/astro:toolbar:internal`)).text();
      expect(toolbarApps).toContain('loadDevToolbarApps');
      expect(toolbarApps).not.toContain('"astro-quire"');
    } finally {
      await server.stop();
    }
  });

  it('admin: { path: "/desk" } → the shell at /desk with that base path, nothing at /__cms', async () => {
    const site = await createSite({
      name: 'admin-desk-dev',
      config: `{ admin: { path: '/desk' } }`,
      content: CONTENT,
    });
    const server = await site.startDev();
    try {
      const res = await fetch(`${server.url}/desk/new`);
      const html = await res.text();
      expect(res.status, html).toBe(200);
      const shell = readShell(html);
      expect(shell.config).toEqual({
        basePath: '/desk',
        apiPrefix: '/__cms/api',
        mode: 'dev',
        preview: null,
        git: false,
      });
      expect((await fetch(`${server.url}${shell.script}`)).status).toBe(200);
      expect((await fetch(`${server.url}/__cms`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});

describe('admin in a production build', () => {
  let jwks: JwksServer;
  let guarded: RunningSite;
  let unset: RunningSite;

  beforeAll(async () => {
    jwks = await startJwksServer({ issuer: 'https://gateway.test', audience: 'quire-test' });
    const auth = `auth: { type: 'jwt', jwksUrl: '${jwks.jwksUrl}', issuer: 'https://gateway.test', audience: 'quire-test' }`;
    const guardedSite = await createSite({
      name: 'admin-prod-jwt',
      config: `{ admin: true, ${auth} }`,
      content: CONTENT,
    });
    const unsetSite = await createSite({
      name: 'admin-prod-unset',
      config: `{ ${auth} }`,
      content: CONTENT,
    });
    // One build at a time: each takes both cores.
    guarded = await guardedSite.buildAndStart();
    unset = await unsetSite.buildAndStart();
  });
  afterAll(async () => {
    await guarded?.stop();
    await unset?.stop();
    await jwks?.close();
  });

  it('refuses the shell and its files without an identity (401 page), and with an expired token', async () => {
    const shell = await fetch(`${guarded.url}/__cms`, { headers: bearer(await jwks.sign(ALICE)) });
    const { script } = readShell(await shell.text());
    for (const headers of [{}, bearer(await jwks.sign(ALICE, { expiresIn: -3600 }))]) {
      for (const url of ['/__cms', '/__cms/content/x/en', script]) {
        const res = await fetch(`${guarded.url}${url}`, { headers });
        const body = await res.text();
        expect(res.status, `${url}: ${body}`).toBe(401);
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(body).toContain('Sign in needed');
        expect(body).not.toContain('quire-admin-config');
      }
    }
  });

  it('loads and runs in Chromium with a valid gateway token, in production mode', async () => {
    const context = await browser.newContext({ extraHTTPHeaders: bearer(await jwks.sign(ALICE)) });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    try {
      const response = await page.goto(`${guarded.url}${EDITOR}`);
      expect(response?.status()).toBe(200);
      await page.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 15_000 });
      await page.getByText('alice@example.test').waitFor();
      const config = JSON.parse((await page.locator('#quire-admin-config').textContent()) ?? '{}');
      expect(config).toEqual({
        basePath: '/__cms',
        apiPrefix: '/__cms/api',
        mode: 'production',
        preview: null,
        git: false,
      });
      expect(errors()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("serves nothing at /__cms when admin is not set (the site's 404), while the API answers", async () => {
    const res = await fetch(`${unset.url}/__cms`, { headers: bearer(await jwks.sign(ALICE)) });
    const body = await res.text();
    expect(res.status).toBe(404);
    expect(body).not.toContain('quire-admin-config');
    expect((await fetch(`${unset.url}/__cms/api/sites`, { headers: bearer(await jwks.sign(ALICE)) })).status).toBe(200);
  });
});

describe('an invalid admin option stops the build and names it', () => {
  it.each([
    ['a string', `{ admin: 'yes' }`, /\badmin\b/],
    ['a path without a slash', `{ admin: { path: 'cms' } }`, /\badmin\b/],
    ['a path on the API prefix', `{ admin: { path: '/__cms/api' } }`, /admin\.path.*overlaps the API prefix/],
  ])('%s', async (_label, config, message) => {
    const site = await createSite({ name: 'admin-bad-option', config });
    const { code, output } = await site.build();
    expect(code, output).not.toBe(0);
    expect(output.replaceAll(site.dir, '<site>')).toMatch(message);
  });
});
