import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, apiCaller, json, PAGES_CONTENT_CONFIG, shootBothSizes, visualPage } from '../support/admin-site.js';
import { checkA11y, launchBrowser } from '../support/browser.js';
import { ELF, JPEG_3x2, png } from '../support/images.js';
import { createSite, type RunningSite, type TestSite } from '../support/site.js';
import { PAGE_ROUTE } from './support.js';

const MAX_BYTES = 4096;
const CONTENT: Record<string, string> = {
  'sites.json': json({ sites: { shop: { locales: ['en'], defaultLocale: 'en' } }, globalLocales: ['en'] }),
  'pages/shop/pages/about.en.json': visualPage('/about', 'About'),
};
const PAGE = `---
import { getCollection } from 'astro:content';
${PAGE_ROUTE}
const og = entry.data.meta.ogImage;
---
<html lang={entry.data.locale}><head><title>{String(entry.data.meta.title)}</title>{og && <meta property="og:image" content={String(og)} />}</head>
<body><h1>{String(entry.data.meta.title)}</h1>{og && <img src={String(og)} alt="" />}</body></html>
`;

interface DroppedFile {
  name: string;
  type: string;
  bytes: Buffer;
}

describe('the media library in a real browser (astro dev)', () => {
  let site: TestSite;
  let server: RunningSite;
  let browser: Browser;
  let page: Page;
  let assetsDir: string;

  const api = apiCaller(() => server.url);
  /** Drops the files on the element the way a file manager does: one `drop` event carrying a DataTransfer. */
  async function drop(selector: string, files: DroppedFile[]) {
    const transfer = await page.evaluateHandle(
      (list) => {
        const data = new DataTransfer();
        for (const file of list) {
          const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
          data.items.add(new File([bytes], file.name, { type: file.type }));
        }
        return data;
      },
      files.map((file) => ({ name: file.name, type: file.type, base64: file.bytes.toString('base64') })),
    );
    await page.dispatchEvent(selector, 'dragover', { dataTransfer: transfer });
    await page.dispatchEvent(selector, 'drop', { dataTransfer: transfer });
  }
  const shoot = (name: string) => shootBothSizes(page, name);

  beforeAll(async () => {
    site = await createSite({
      name: 'admin-media',
      config: `{ requireIdentity: false, assets: { maxBytes: ${MAX_BYTES} } }`,
      content: CONTENT,
      contentDir: '../admin-media-content',
      files: { 'src/content.config.ts': PAGES_CONTENT_CONFIG, 'src/pages/[locale]/[...path].astro': PAGE },
    });
    assetsDir = path.join(site.contentRoot, 'assets');
    [server, browser] = await Promise.all([site.startDev({ CONTENT_PATH: site.contentRoot }), launchBrowser()]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('uploads dropped files each with its own progress; a too large and a disguised file fail in words, alone', async () => {
    await page.goto(`${server.url}${ADMIN}/media`);
    await page.getByRole('heading', { name: 'Media' }).waitFor();
    await page.getByText('0 files in /').waitFor();
    await checkA11y(page, { label: 'media (empty)' });

    await drop('.dropzone', [
      { name: 'red.png', type: 'image/png', bytes: png(6, 4) },
      { name: 'photo.jpg', type: 'image/jpeg', bytes: JPEG_3x2 },
      { name: 'huge.png', type: 'image/png', bytes: png(8, 8, { padding: MAX_BYTES * 2 }) },
      { name: 'holiday.png', type: 'image/png', bytes: ELF },
    ]);
    const upload = (name: string) => page.locator(`[data-upload="${name}"]`);
    await upload('red.png').getByText('uploaded').waitFor();
    await upload('photo.jpg').getByText('uploaded').waitFor();
    await upload('huge.png').getByText('huge.png was refused').waitFor();
    await upload('holiday.png').getByText('holiday.png was refused').waitFor();

    for (const name of ['red.png', 'photo.jpg']) {
      const bar = upload(name).locator('progress');
      expect(await bar.getAttribute('value')).toBe(await bar.getAttribute('max'));
    }
    await expect(upload('huge.png').textContent()).resolves.toContain(`larger than ${MAX_BYTES} bytes`);
    await expect(upload('holiday.png').textContent()).resolves.toMatch(
      /This file is application\/x-elf; allowed: .*image\/png/,
    );
    await page.getByText('2 files in /').waitFor();

    // Nothing partial: the two files and the manifest, and no leftover in the temp folder.
    const entries = (await readdir(assetsDir)).filter((name) => name !== '.quire-tmp').sort();
    expect(entries).toEqual(['.quire-assets.json', 'photo.jpg', 'red.png']);
    const leftovers = (await readdir(path.join(assetsDir, '.quire-tmp')).catch(() => [])).filter((name) =>
      name.endsWith('.part'),
    );
    expect(leftovers).toEqual([]);
    await checkA11y(page, { label: 'media after uploads' });
  });

  it('refuses to import from a loopback address and says why', async () => {
    await page.getByLabel('Import from URL').fill(`${server.url}/favicon.svg`);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const notice = page.getByRole('alert').filter({ hasText: 'The file was not imported' });
    await notice.waitFor();
    await expect(notice.textContent()).resolves.toContain('127.0.0.1 is not a public address');
    await expect(notice.textContent()).resolves.toContain('refuses local and private addresses');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('creates a folder, edits alt text and tags into the manifest, moves a file, and finds it by tag', async () => {
    await page.getByLabel('New folder in /').fill('photos');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('button', { name: /^photos\s*0$/ }).waitFor();
    await page.getByRole('button', { name: /^All folders/ }).click();

    await page.locator('[data-asset="red.png"] .tile__open').click();
    await page.getByLabel('Alt text').fill('A red square');
    await page.getByLabel('Tags').fill('colour, square');
    await page.getByRole('button', { name: 'Save details' }).click();
    await page.getByText('Saved.').waitFor();
    await shoot('media-library');
    const manifest = JSON.parse(await readFile(path.join(assetsDir, '.quire-assets.json'), 'utf8'));
    expect(JSON.stringify(manifest)).toContain('A red square');
    expect(JSON.stringify(manifest)).toContain('square');

    await page.getByLabel('Move to').selectOption('/photos');
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page.getByRole('button', { name: /^photos\s*1$/ }).waitFor();
    await readFile(path.join(assetsDir, 'photos', 'red.png'));

    await page.getByLabel('Search by name or tag').fill('squ');
    await page.getByText('1 file match “squ” in all folders').waitFor();
    await page.locator('[data-asset="photos/red.png"]').waitFor();
    await page.getByLabel('Search by name or tag').fill('');

    await page.getByRole('button', { name: 'List' }).click();
    await page.locator('table.media-table [data-asset="photo.jpg"]').waitFor();
    await checkA11y(page, { label: 'media list view' });
    await page.getByRole('button', { name: 'Grid' }).click();
  });

  it("picks a file into a page's ogImage from the editor: the meta holds the serve URL and the site renders it", async () => {
    const { items } = await api('GET', '/content?kind=page');
    const about = items[0] as { id: string };
    await page.goto(`${server.url}${ADMIN}/content/${encodeURIComponent(about.id)}/en`);
    await page.getByLabel('New meta field').fill('ogImage');
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByRole('button', { name: 'Choose a file for ogImage' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose a file for ogImage' });
    await dialog.getByRole('button', { name: /^photos/ }).click();
    await checkA11y(page, { label: 'asset picker' });
    await dialog.getByRole('button', { name: 'Choose red.png' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByLabel('ogImage', { exact: true }).inputValue()).toBe(
      '/__cms/api/assets/serve/photos/red.png',
    );
    await page.keyboard.press('ControlOrMeta+S');
    await page.getByText(/^Saved at/).waitFor();

    const stored = await api('GET', `/content/${about.id}/en`);
    expect(stored.localized.meta.ogImage).toBe('/__cms/api/assets/serve/photos/red.png');
    const deadline = Date.now() + 15_000;
    let html = '';
    while (!html.includes('photos/red.png') && Date.now() < deadline) {
      html = await (await fetch(`${server.url}/en/about`)).text();
      if (!html.includes('photos/red.png')) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(html).toContain('<img src="/__cms/api/assets/serve/photos/red.png"');
    const image = await fetch(`${server.url}/__cms/api/assets/serve/photos/red.png`);
    expect(image.headers.get('content-type')).toBe('image/png');
  });

  it('shows where a used file is used before deleting it, each place a link into the editor', async () => {
    const { items } = await api('GET', '/content?kind=page');
    const about = items[0] as { id: string };
    const en = await api('GET', `/content/${about.id}/en`);
    await api('PUT', `/content/${about.id}?locale=en&etag=${en.localized.etag}`, {
      meta: { title: 'About', ogImage: '/__cms/api/assets/serve/photo.jpg' },
    });

    await page.goto(`${server.url}${ADMIN}/media`);
    await page.locator('[data-asset="photo.jpg"] .tile__open').click();
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByText('Used by:').waitFor();
    const link = page.locator('.usage a');
    expect(await link.getAttribute('href')).toBe(`${ADMIN}/content/${encodeURIComponent(about.id)}/en`);
    await expect(page.locator('.usage').textContent()).resolves.toContain('meta.ogImage');
    await readFile(path.join(assetsDir, 'photo.jpg'));

    await page.getByRole('button', { name: 'Delete photo.jpg' }).click();
    await page.getByText('0 files in /').waitFor();
    await expect(readFile(path.join(assetsDir, 'photo.jpg'))).rejects.toThrow(/ENOENT/);
  });
});
