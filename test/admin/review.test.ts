import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { checkA11y, collectPageErrors, launchBrowser } from '../support/browser.js';
import { REPO_ROOT } from '../support/paths.js';
import { createSite, type RunningSite, type TestSite } from '../support/site.js';

const ADMIN = '/__cms';
/** QUIRE_UPDATE_SCREENSHOTS=1 refreshes the README's screenshots in docs/screenshots; otherwise they go to the scratch folder. */
const SHOTS =
  process.env.QUIRE_UPDATE_SCREENSHOTS === '1'
    ? path.join(REPO_ROOT, 'docs', 'screenshots')
    : path.join(REPO_ROOT, 'test', '.work', 'screenshots');
const SITES = { sites: { shop: { locales: ['en', 'de'], defaultLocale: 'en' } }, globalLocales: ['en', 'de'] };

describe('the translation review desk in a real browser (astro dev)', () => {
  let site: TestSite;
  let server: RunningSite;
  let browser: Browser;
  let page: Page;
  let pageErrors: () => string[];
  const ids: Record<string, string> = {};

  const api = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${server.url}/__cms/api${route}`, {
      method,
      headers: { origin: server.url, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
    return JSON.parse(text);
  };
  const needsReview = async () =>
    (await api('GET', '/content/needs-review?locale=de')).items.map((item: { id: string }) => item.id) as string[];
  const queueHeading = (count: number) => page.getByRole('heading', { name: `de: ${count} to review` });

  /** A page whose German inherits; English is then edited, so German is stale. */
  async function stalePage(name: string, before: string, after: string) {
    const created = await api('POST', '/content', {
      kind: 'page',
      site: 'shop',
      collection: 'pages',
      type: 'mdx',
      locales: {
        en: { pathname: `/${name}`, meta: { title: name }, content: { mdx: `# ${name}\n\n${before}\n` } },
        de: { pathname: `/de-${name}`, meta: { title: `Seite ${name}` }, inherit: true },
      },
    });
    await api('PUT', `/content/${created.id}?locale=en`, { content: { mdx: `# ${name}\n\n${after}\n` } });
    ids[name] = created.id;
  }

  beforeAll(async () => {
    site = await createSite({
      name: 'admin-review',
      config: '{ requireIdentity: false }',
      content: { 'sites.json': JSON.stringify(SITES) },
    });
    [server, browser] = await Promise.all([site.startDev(), launchBrowser()]);
    // Created one after another, so the queue (longest waiting first) has a known order.
    await stalePage('about', 'We sell red hats since 1999.', 'We sell blue hats since 1999.');
    await stalePage('contact', 'Call us.', 'Write to us.');
    await stalePage('terms', 'Old terms.', 'New terms.');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    pageErrors = collectPageErrors(page);
  });

  beforeEach(() => {
    onTestFailed(async ({ task }) => {
      await mkdir(SHOTS, { recursive: true });
      await page
        .screenshot({ path: path.join(SHOTS, `fail-review-${task.name.slice(0, 20).replace(/\W+/g, '_')}.png`) })
        .catch(() => {});
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the queue and the word-level change; "Mark reviewed" takes the item off needs-review', async () => {
    await page.goto(`${server.url}${ADMIN}/review?locale=de`);
    await queueHeading(3).waitFor();
    await page.getByRole('link', { name: /de 3 stale, 0 fallen behind/ }).waitFor();
    // The longest waiting first, and selected.
    await page.getByRole('heading', { name: 'Seite about', level: 2 }).waitFor();
    const changed = page.locator('.diff--lines tr.diff__row--changed');
    await expect.poll(() => changed.count()).toBe(1);
    expect(await changed.locator('del').allTextContents()).toEqual(['red']);
    expect(await changed.locator('ins').allTextContents()).toEqual(['blue']);
    expect(await page.locator('.review__translation').textContent()).toContain('We sell blue hats');
    await checkA11y(page, { label: 'review desk' });
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'review-desk.png') });

    await page.getByRole('button', { name: 'Mark reviewed' }).click();
    await queueHeading(2).waitFor();
    expect(await needsReview()).not.toContain(ids.about);
    expect(pageErrors()).toEqual([]);
  });

  it('moves through the queue by keyboard alone', async () => {
    await page.goto(`${server.url}${ADMIN}/review?locale=de`);
    await queueHeading(2).waitFor();
    await page.getByRole('heading', { name: 'Seite contact', level: 2 }).waitFor();
    await page.keyboard.press('n');
    await page.getByRole('heading', { name: 'Seite terms', level: 2 }).waitFor();
    expect(new URL(page.url()).searchParams.get('item')).toBe(ids.terms);
    await page.keyboard.press('p');
    await page.getByRole('heading', { name: 'Seite contact', level: 2 }).waitFor();
    // Tab to the checkbox of an item and tick it with the space bar.
    const checkbox = page.getByRole('checkbox', { name: 'Select Seite terms' });
    for (
      let presses = 0;
      presses < 40 && !(await checkbox.evaluate((box) => box === document.activeElement));
      presses++
    )
      await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await checkbox.isChecked()).toBe(true);
    await page.keyboard.press('Space');
    expect(await checkbox.isChecked()).toBe(false);
    await checkA11y(page, { label: 'review desk after keyboard use' });
  });

  it('bulk review: an item changed underneath reports its 412, the others land', async () => {
    await page.goto(`${server.url}${ADMIN}/review?locale=de`);
    await queueHeading(2).waitFor();
    await page.getByRole('checkbox', { name: 'Select Seite contact' }).check();
    await page.getByRole('checkbox', { name: 'Select Seite terms' }).check();
    // Someone changes the German terms after they were picked.
    await api('PUT', `/content/${ids.terms}?locale=de`, { meta: { title: 'Seite terms', description: 'neu' } });
    await page.getByRole('button', { name: 'Mark 2 selected reviewed' }).click();
    const report = page.locator('.review__bulk-report');
    await report.getByText('1 marked reviewed, 1 not.').waitFor();
    expect(await report.locator('.review__bulk-failure').textContent()).toMatch(/Seite terms.*412/);
    const left = await needsReview();
    expect(left).not.toContain(ids.contact);
    expect(left).toContain(ids.terms);
    await queueHeading(1).waitFor();
    await checkA11y(page, { label: 'review desk bulk report' });
  });

  it('coverage grid: cells coloured by state, totals per locale; marking reviewed turns a cell current; a cell opens the item', async () => {
    const cell = (id: string, locale: string) =>
      page.locator(`tr:has(th:text-is("${id}")) td`).nth(locale === 'en' ? 0 : 1);
    await page.goto(`${server.url}${ADMIN}/review?view=coverage`);
    await page.getByRole('table').waitFor();
    await expect.poll(() => cell('about', 'de').getAttribute('data-state')).toBe('inherited');
    expect(await cell('terms', 'de').getAttribute('data-state')).toBe('stale');
    expect(await cell('terms', 'en').getAttribute('data-state')).toBe('default');
    expect(await page.locator('tfoot td').nth(1).textContent()).toBe('1 stale, 2 current');
    await checkA11y(page, { label: 'coverage grid' });
    await page.screenshot({ path: path.join(SHOTS, 'review-coverage.png') });

    await page.goto(`${server.url}${ADMIN}/review?locale=de&item=${ids.terms}`);
    await page.getByRole('heading', { name: 'Seite terms', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Mark reviewed' }).click();
    await queueHeading(0).waitFor();
    await page.getByRole('link', { name: 'Coverage' }).click();
    await expect.poll(() => cell('terms', 'de').getAttribute('data-state')).toBe('inherited');
    await cell('terms', 'de').getByRole('link').click();
    await page.waitForURL(`**${ADMIN}/content/${ids.terms}/de`);
    // Page loads abort the event stream, and the bulk test's 412 is logged by the browser: only scripts failing count here.
    expect(pageErrors().filter((error) => error.startsWith('uncaught'))).toEqual([]);
  });
});
