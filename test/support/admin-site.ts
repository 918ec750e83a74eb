import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { checkA11y } from './browser.js';
import { REPO_ROOT } from './paths.js';

/** Where the integration mounts the admin by default in `astro dev`. */
export const ADMIN = '/__cms';

/** QUIRE_UPDATE_SCREENSHOTS=1 refreshes the committed ones in docs/screenshots; otherwise they go to the scratch folder. */
export const SHOTS =
  process.env.QUIRE_UPDATE_SCREENSHOTS === '1'
    ? path.join(REPO_ROOT, 'docs', 'screenshots')
    : path.join(REPO_ROOT, 'test', '.work', 'screenshots');

export const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
export const STAMPS = { created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' };

/** A visual page locale file with no blocks. */
export const visualPage = (pathname: string, title: string, extra: Record<string, unknown> = {}) =>
  json({
    type: 'visual',
    pathname,
    ...STAMPS,
    ...extra,
    meta: { title },
    content: { visualData: { root: { props: {} }, content: [] } },
  });

/** The test site's content config: the `shop` site's pages, drafts included. */
export const PAGES_CONTENT_CONFIG = `import { defineCollection } from 'astro:content';
import { quireLoader } from 'astro-quire/loader';
export const collections = { pages: defineCollection({ loader: quireLoader({ kind: 'page', site: 'shop', includeDrafts: true }) }) };
`;

/** A JSON client for the site's API, sending Origin as a browser would; throws on an error answer. */
export function apiCaller(siteUrl: () => string) {
  return async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${siteUrl()}/__cms/api${route}`, {
      method,
      headers: { origin: siteUrl(), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
    return JSON.parse(text);
  };
}

/** Screenshots of the screen at the top, on a desktop and a 390 px phone, each checked with axe-core. */
export async function shootBothSizes(page: Page, name: string) {
  await mkdir(SHOTS, { recursive: true });
  for (const [suffix, width, height] of [
    ['desktop', 1280, 900],
    ['mobile', 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(200);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${suffix}.png`) });
    await checkA11y(page, { label: `${name} at ${width} px` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
