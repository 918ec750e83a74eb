import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, launchBrowser } from '../support/browser.js';
import { bearer } from '../support/http.js';
import { type JwksServer, startJwksServer } from '../support/jwks-server.js';
import { createSite, type RunningSite, type TestSite } from '../support/site.js';
import { adminDriver, axe, CONTENT, conflictThenApplyMine, createAndEditPage, newEditorPage } from './support.js';

const ALICE = { email: 'alice@example.test', sub: 'user-alice' };
const BOB = { email: 'bob@example.test', sub: 'user-bob' };

describe('the admin in a real browser (production build, admin: true, JWT gateway)', () => {
  let jwks: JwksServer;
  let site: TestSite;
  let server: RunningSite;
  let browser: Browser;
  let aliceToken = '';
  const contexts: BrowserContext[] = [];

  /** A browser context that reaches the site through the gateway as `who`: every request carries its token. */
  async function editorAs(who: typeof ALICE): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      extraHTTPHeaders: bearer(await jwks.sign(who, { expiresIn: 3600 })),
    });
    contexts.push(context);
    return newEditorPage(context);
  }
  const admin = adminDriver(
    () => server.url,
    () => bearer(aliceToken),
  );

  beforeAll(async () => {
    jwks = await startJwksServer({ issuer: 'https://gateway.test', audience: 'quire-test' });
    aliceToken = await jwks.sign(ALICE, { expiresIn: 3600 });
    site = await createSite({
      name: 'admin-prod-flows',
      config: `{ admin: true, auth: { type: 'jwt', jwksUrl: '${jwks.jwksUrl}', issuer: 'https://gateway.test', audience: 'quire-test' } }`,
      content: CONTENT,
    });
    [server, browser] = await Promise.all([site.buildAndStart(), launchBrowser()]);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
    await jwks?.close();
  });

  it('signs in through the gateway: the shell shows the email, the API the identity', async () => {
    const page = await editorAs(ALICE);
    const errors = collectPageErrors(page);
    await admin.open(page, '/content');
    await page.getByRole('heading', { name: 'Pages of shop' }).waitFor();
    await page.getByText(ALICE.email, { exact: true }).waitFor();
    expect(await page.getByText(/open access/).count()).toBe(0);
    await axe(page, 'content list (production)');
    expect(await admin.api('GET', '/auth/user')).toMatchObject({ authenticated: true, user: { email: ALICE.email } });
    expect(errors()).toEqual([]);
  });

  it('creates a page, edits its meta and MDX, saves: the file and the API hold it, with who changed it', async () => {
    const page = await editorAs(ALICE);
    const id = await createAndEditPage(page, admin, {
      pathname: '/gateway',
      title: 'Behind the gateway',
      description: 'Written through a JWT gateway',
      mdx: '# Made in production\n\nBy Alice.\n',
    });
    await axe(page, 'editor (mdx, production)');

    const file = await readFile(path.join(site.contentRoot, 'pages/shop/pages', `${id}.en.mdx`), 'utf8');
    expect(file).toContain('description: Written through a JWT gateway');
    expect(file).toContain('# Made in production');
    expect(file).toContain(`modifiedBy: ${ALICE.email}`);
    const stored = (await admin.api('GET', `/content/${id}/en`)).localized;
    expect(stored.meta).toMatchObject({ title: 'Behind the gateway', description: 'Written through a JWT gateway' });
    expect(stored.content.mdx).toContain('# Made in production');
    expect(stored.modifiedBy).toBe(ALICE.email);
  });

  it('two editors (Alice, Bob) change the same locale: conflict view, "apply mine on top" lands both as Bob', async () => {
    const [first, second] = [await editorAs(ALICE), await editorAs(BOB)];
    await conflictThenApplyMine(first, second, admin, { contentRoot: site.contentRoot });
    await second.getByText(BOB.email, { exact: true }).waitFor();
    expect((await admin.api('GET', '/content/home/en')).localized.modifiedBy).toBe(BOB.email);
  });
});
