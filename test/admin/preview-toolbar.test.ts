import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewUrl } from '../../src/sites/preview-url.js';
import { ADMIN, json, PAGES_CONTENT_CONFIG, visualPage } from '../support/admin-site.js';
import { checkA11y, launchBrowser } from '../support/browser.js';
import { createSite, type RunningSite, type TestSite } from '../support/site.js';
import { PAGE_ROUTE } from './support.js';

// The editor's live preview and the "Edit this page" dev toolbar app, on a real `astro dev`.

const visual = visualPage;
const CONTENT: Record<string, string> = {
  'sites.json': json({ sites: { shop: { locales: ['en', 'de'], defaultLocale: 'en' } }, globalLocales: ['en', 'de'] }),
  'pages/shop/pages/about.en.json': visual('/about', 'About'),
  'pages/shop/pages/about.de.json': visual('/ueber-uns', 'Über uns', { publishAt: '2999-01-01T00:00:00.000Z' }),
};
const PAGE = `---
import { getCollection } from 'astro:content';
${PAGE_ROUTE}
---
<html lang={entry.data.locale}><head><title>{String(entry.data.meta.title)}</title></head>
<body><h1>{String(entry.data.meta.title)}</h1></body></html>
`;
const PLAIN = `<html lang="en"><head><title>Plain</title></head><body><h1>Not from Quire</h1></body></html>\n`;

describe('preview URLs', () => {
  const sites = {
    sites: { shop: { locales: ['en', 'de'], defaultLocale: 'en', domains: { de: 'shop.example.de' } } },
    globalLocales: ['en', 'de'],
  };
  const page = {
    kind: 'page' as const,
    site: 'shop',
    locales: {
      en: { pathname: '/about' },
      de: { pathname: '/ueber-uns' },
    },
  } as unknown as Parameters<typeof previewUrl>[0];

  it("uses the locale prefix on the admin's origin, the locale's domain from sites.json, or the owner's template", () => {
    expect(previewUrl(page, 'en', sites, null, 'http://127.0.0.1:4321')).toBe('http://127.0.0.1:4321/en/about');
    expect(previewUrl(page, 'de', sites, null, 'http://127.0.0.1:4321')).toBe('https://shop.example.de/ueber-uns');
    expect(previewUrl(page, 'en', sites, '{origin}/{site}/{locale}{pathname}', 'http://x.test')).toBe(
      'http://x.test/shop/en/about',
    );
  });

  it('takes one template per site, with the locale prefix empty for the default locale', () => {
    const perSite = { shop: '{origin}/store{localePrefix}{pathname}' };
    expect(previewUrl(page, 'en', sites, perSite, 'http://x.test')).toBe('http://x.test/store/about');
    expect(previewUrl(page, 'de', sites, perSite, 'http://x.test')).toBe('http://x.test/store/de/ueber-uns');
    expect(previewUrl(page, 'en', sites, { other: '{origin}{pathname}' }, 'http://x.test')).toBe(
      'http://x.test/en/about',
    );
  });

  it('has no URL for what is not a page', () => {
    const fragment = { ...page, kind: 'fragment' } as typeof page;
    expect(previewUrl(fragment, 'en', sites, null, 'http://x.test')).toBeUndefined();
  });
});

describe('live preview and "edit this page" in a real browser (astro dev)', () => {
  let site: TestSite;
  let server: RunningSite;
  let browser: Browser;
  let tab: Page;

  beforeAll(async () => {
    site = await createSite({
      name: 'admin-preview',
      config: '{ requireIdentity: false }',
      content: CONTENT,
      contentDir: '../admin-preview-content',
      files: {
        'src/content.config.ts': PAGES_CONTENT_CONFIG,
        'src/pages/[locale]/[...path].astro': PAGE,
        'src/pages/plain.astro': PLAIN,
      },
    });
    [server, browser] = await Promise.all([site.startDev({ CONTENT_PATH: site.contentRoot }), launchBrowser()]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    tab = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the page in the preview pane and reloads it after a save', async () => {
    await tab.goto(`${server.url}${ADMIN}/content/about/en`);
    await tab.locator('details.preview > summary').click();
    const frame = tab.frameLocator('iframe[title="Preview of About (en)"]');
    await frame.getByRole('heading', { name: 'About' }).waitFor();
    await checkA11y(tab, { label: 'editor with preview', exclude: ['iframe'] });

    await tab.getByLabel('Title', { exact: true }).fill('About the shop');
    await tab.keyboard.press('ControlOrMeta+S');
    await tab.getByText(/^Saved at/).waitFor();
    await tab
      .frameLocator('iframe.preview__frame')
      .getByRole('heading', { name: 'About the shop' })
      .waitFor({ timeout: 15_000 });
  });

  it('adds its app to the dev toolbar when the admin is on', async () => {
    const toolbarApps = await (await fetch(`${server.url}/@id/astro:toolbar:internal`)).text();
    expect(toolbarApps).toContain('"astro-quire"');
  });

  async function openToolbarApp(path: string) {
    await tab.goto(`${server.url}${path}`);
    const button = tab.locator('astro-dev-toolbar button[data-app-id="astro-quire"]');
    await button.waitFor({ timeout: 15_000 });
    await button.click();
    const panel = tab.locator('[data-quire-toolbar]');
    await panel.waitFor();
    return panel;
  }

  it('names the Quire item, locale and state of a site page, and opens the editor on it', async () => {
    const panel = await openToolbarApp('/en/about');
    await panel.getByText('Open in the editor').waitFor();
    await expect(panel.locator('[data-item]').textContent()).resolves.toContain('about');
    await expect(panel.locator('[data-locale]').textContent()).resolves.toBe('en');
    await expect(panel.textContent()).resolves.toContain('published');

    await panel.getByText('Open in the editor').click();
    await tab.waitForURL(`${server.url}${ADMIN}/content/about/en`);
    await tab.getByRole('heading', { name: /About the shop/ }).waitFor();
  });

  it('gives a scheduled locale its state, and says "not a Quire page" elsewhere', async () => {
    const scheduled = await openToolbarApp('/de/ueber-uns');
    await expect(scheduled.locator('[data-locale]').textContent()).resolves.toBe('de');
    await expect(scheduled.textContent()).resolves.toContain('scheduled for');

    const plain = await openToolbarApp('/plain');
    await plain.getByText('Not a Quire page').waitFor();
  });
});
