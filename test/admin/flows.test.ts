import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { PAGES_CONTENT_CONFIG, shootBothSizes } from '../support/admin-site.js';
import { launchBrowser } from '../support/browser.js';
import { REPO_ROOT } from '../support/paths.js';
import { createSite, type RunningSite, type TestSite } from '../support/site.js';
import {
  adminDriver,
  axe,
  CONTENT,
  conflictThenApplyMine,
  createAndEditPage,
  HOME_FILE,
  newEditorPage,
  PAGE_ROUTE,
  typeInCode,
} from './support.js';

// ---------------------------------------------------------------- the site

const PAGE = `---
import { getCollection, render } from 'astro:content';
${PAGE_ROUTE}
const { Content } = await render(entry);
---
<html lang={entry.data.locale}><head><title>{String(entry.data.meta.title)}</title></head>
<body><h1>{String(entry.data.meta.title)}</h1><article><Content /></article></body></html>
`;

describe('the admin in a real browser (astro dev)', () => {
  let site: TestSite;
  let server: RunningSite;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const admin = adminDriver(() => server.url);
  const { api, open } = admin;

  beforeAll(async () => {
    site = await createSite({
      name: 'admin-flows',
      config: '{ requireIdentity: false }',
      content: CONTENT,
      contentDir: '../admin-flows-content',
      files: { 'src/content.config.ts': PAGES_CONTENT_CONFIG, 'src/pages/[locale]/[...path].astro': PAGE },
    });
    [server, browser] = await Promise.all([site.startDev({ CONTENT_PATH: site.contentRoot }), launchBrowser()]);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await newEditorPage(context);
  });

  beforeEach(() => {
    onTestFailed(async ({ task }) => {
      await page
        .screenshot({
          path: path.join(
            REPO_ROOT,
            'test',
            '.work',
            'screenshots',
            `fail-${task.name.slice(0, 20).replace(/\W+/g, '_')}.png`,
          ),
          fullPage: true,
        })
        .catch(() => {});
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('creates a page, edits its meta and MDX, saves: the file and the rendered page show it', async () => {
    const id = await createAndEditPage(page, admin, {
      pathname: '/hello',
      title: 'Hello',
      description: 'A page made in the admin',
      mdx: '# Hello from the admin\n\nWritten in a real browser.\n',
    });
    await axe(page, 'editor (mdx)');
    await shootBothSizes(page, 'editor');

    const file = await readFile(path.join(site.contentRoot, 'pages/shop/pages', `${id}.en.mdx`), 'utf8');
    expect(file).toContain('description: A page made in the admin');
    expect(file).toContain('# Hello from the admin');
    const stored = await api('GET', `/content/${id}/en`);
    expect(stored.localized.meta).toMatchObject({ title: 'Hello', description: 'A page made in the admin' });

    const deadline = Date.now() + 15_000;
    let html = '';
    while (!html.includes('Hello from the admin') && Date.now() < deadline) {
      html = await (await fetch(`${server.url}/en/hello`)).text();
      if (!html.includes('Hello from the admin')) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(html).toContain('<h1 id="hello-from-the-admin">Hello from the admin</h1>');
    expect(html).toContain('<title>Hello</title>');
  });

  it('lists a stale locale as needing review; "Mark reviewed" takes it off the list', async () => {
    const created = await api('POST', '/content', {
      kind: 'page',
      site: 'shop',
      collection: 'pages',
      type: 'mdx',
      locales: {
        en: { pathname: '/news', meta: { title: 'News' }, content: { mdx: 'First' } },
        de: { pathname: '/neuigkeiten', meta: { title: 'Neuigkeiten' }, inherit: true },
      },
    });
    const en = await api('GET', `/content/${created.id}/en`);
    await api('PUT', `/content/${created.id}?locale=en&etag=${en.localized.etag}`, { content: { mdx: 'Second' } });
    expect(
      (await api('GET', '/content/needs-review?locale=de')).items.map((item: { id: string }) => item.id),
    ).toContain(created.id);

    await open(page, '/content?review=1');
    await page.getByLabel('Locale', { exact: true }).selectOption('de');
    const row = page.getByRole('link', { name: 'Neuigkeiten' });
    await row.waitFor();
    await axe(page, 'content list');
    await row.click();
    await page.getByRole('heading', { name: /Inheritance: inherited, needs review/ }).waitFor();
    await axe(page, 'editor (inherited locale)');
    await page.getByRole('button', { name: 'Mark reviewed' }).click();
    await page.getByText('de marked reviewed.').waitFor();
    expect(
      (await api('GET', '/content/needs-review?locale=de')).items.map((item: { id: string }) => item.id),
    ).not.toContain(created.id);

    await open(page, '/content?review=1');
    await page.getByText(/^0 items/).waitFor();
    expect(await page.getByRole('link', { name: 'Neuigkeiten' }).count()).toBe(0);
  });

  it('breaks inheritance, edits the copy, and reverts to inherited', async () => {
    const created = await api('POST', '/content', {
      kind: 'page',
      site: 'shop',
      collection: 'pages',
      type: 'mdx',
      locales: {
        en: { pathname: '/team', meta: { title: 'Team' }, content: { mdx: 'We are three.' } },
        de: { pathname: '/team', meta: { title: 'Das Team' }, inherit: true },
      },
    });
    await open(page, `/content/${created.id}/de`);
    await page.getByRole('button', { name: 'Break inheritance' }).click();
    await page.getByRole('heading', { name: /Inheritance: customized/ }).waitFor();
    expect((await api('GET', `/content/${created.id}/de`)).localized.inheritance.state).toBe('customized');

    await typeInCode(page, 'Wir sind drei.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/^Saved at/).waitFor();
    expect((await api('GET', `/content/${created.id}/de`)).localized.content.mdx).toBe('Wir sind drei.');

    await page.getByRole('button', { name: 'Revert to inherited' }).click();
    await page.getByRole('heading', { name: /Inheritance: inherited$/ }).waitFor();
    const reverted = (await api('GET', `/content/${created.id}/de`)).localized;
    expect(reverted.inheritance.state).toBe('inherited');
    expect(reverted.content.mdx).toBe('We are three.');
    expect(reverted.meta.title).toBe('Das Team');
  });

  it('two editors change the same locale: the second sees the conflict, "apply mine on top" keeps both changes', async () => {
    const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const second = await newEditorPage(other);
    try {
      await conflictThenApplyMine(page, second, admin, {
        contentRoot: site.contentRoot,
        onConflictView: (conflictPage) => shootBothSizes(conflictPage, 'conflict'),
      });
    } finally {
      await other.close();
    }
  });

  it('keeps an unsaved draft across a reload, and saves it afterwards', async () => {
    await open(page, '/content/home/en');
    await page.getByLabel('Title', { exact: true }).fill('Home of the Hat Shop');
    await page.waitForTimeout(800);
    await page.reload();
    await page.getByText(/were restored from this browser/).waitFor();
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Home of the Hat Shop');
    expect((await api('GET', '/content/home/en')).localized.meta.title).not.toBe('Home of the Hat Shop');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/^Saved at/).waitFor();
    expect((await api('GET', '/content/home/en')).localized.meta.title).toBe('Home of the Hat Shop');
    expect(
      await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('quire:draft:'))),
    ).toEqual([]);
  });

  it('refuses to save invalid JSON and says where it is wrong', async () => {
    const before = await readFile(path.join(site.contentRoot, 'data/settings/site.en.json'), 'utf8');
    const { items } = await api('GET', '/data?collection=settings');
    const id = items[0].id as string;
    await open(page, `/content/${id}/en`);
    await typeInCode(page, '{\n  "siteName": "Hat Shop",\n}');
    await page.getByText(/Not valid JSON, cannot be saved: .* at line 3, column 1/).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'Not saved' }).waitFor();
    expect(await readFile(path.join(site.contentRoot, 'data/settings/site.en.json'), 'utf8')).toBe(before);
    await axe(page, 'editor (json)');

    await typeInCode(page, '{\n  "siteName": "Hat Shop, fixed"\n}');
    await page.getByText('Valid JSON.').waitFor();
    await page.keyboard.press('ControlOrMeta+S');
    await page.getByText(/^Saved at/).waitFor();
    expect((await api('GET', `/content/${id}/en`)).localized.content.data).toEqual({ siteName: 'Hat Shop, fixed' });
  });

  it('adds a locale as a copy, moves it keeping a redirect, deletes the locale and then the page', async () => {
    const created = await api('POST', '/content', {
      kind: 'page',
      site: 'shop',
      collection: 'pages',
      type: 'mdx',
      locales: { en: { pathname: '/about', meta: { title: 'About' }, content: { mdx: 'About us' } } },
    });
    await open(page, `/content/${created.id}/de`);
    await page.getByText('has no de version yet').waitFor();
    await axe(page, 'add locale');
    await page.getByLabel('Start as a copy of en').check();
    await page.getByLabel('Pathname in de', { exact: true }).fill('/ueber-uns');
    await page.getByRole('button', { name: 'Add de' }).click();
    await page.getByText('de added.').waitFor();
    const de = (await api('GET', `/content/${created.id}/de`)).localized;
    expect(de).toMatchObject({ pathname: '/ueber-uns', content: { mdx: 'About us' }, meta: { title: 'About' } });

    await page.getByLabel('Pathname', { exact: true }).fill('/ueber');
    await page.getByText('/ueber is free.').waitFor();
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page.getByText('A redirect from /ueber-uns is kept.').waitFor();
    expect((await api('GET', '/redirects?site=shop&locale=de')).items).toContainEqual({
      site: 'shop',
      locale: 'de',
      from: '/ueber-uns',
      to: '/ueber',
      id: created.id,
    });

    await page.getByRole('button', { name: 'Delete the de locale…' }).click();
    await page.getByText('Delete the de locale of “About” (/ueber)?').waitFor();
    await axe(page, 'delete confirmation');
    await page.getByRole('button', { name: 'Delete de', exact: true }).click();
    await page.waitForURL(`**/content/${created.id}/en`);
    expect(Object.keys((await api('GET', `/content/${created.id}`)).locales)).toEqual(['en']);

    await page.getByRole('button', { name: 'Delete this page…' }).click();
    await page.getByText(`Delete “About” (${created.id}) with all its locales: en?`, { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Delete it', exact: true }).click();
    await page.waitForURL(/\/content$/);
    expect((await fetch(`${server.url}/__cms/api/content/${created.id}`)).status).toBe(404);
  });

  it('edits a visual page as a block list, with a clean accessibility check on every screen', async () => {
    await open(page, '/content/home/en');
    await page.getByRole('button', { name: 'Add block' }).click();
    await page.getByRole('button', { name: 'Move block 2 (TextBlock) up' }).click();
    await page.getByLabel('text', { exact: true }).first().fill('New first block');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/^Saved at/).waitFor();
    const blocks = (await api('GET', '/content/home/en')).localized.content.visualData.content;
    expect(blocks.map((block: { type: string }) => block.type)).toEqual(['TextBlock', 'Text']);
    expect(blocks[0].props.text).toBe('New first block');
    await axe(page, 'editor (visual)');

    await open(page, '/content');
    await page.getByRole('link', { name: /^Home/ }).waitFor();
    await shootBothSizes(page, 'list');
    await open(page, '/no/such/screen');
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    await axe(page, 'not found');
  });

  it('works from the keyboard alone: focus is visible, Enter opens a row, Ctrl/Cmd+S saves', async () => {
    await open(page, '/content');
    await page.getByRole('link', { name: /^Home/ }).waitFor();
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        return {
          id: element?.id ?? '',
          row: element?.classList.contains('row__title') ?? false,
          text: element?.textContent ?? '',
          outline: element ? getComputedStyle(element).outlineStyle : '',
        };
      });
    const tabUntil = async (done: (state: Awaited<ReturnType<typeof focused>>) => boolean) => {
      for (let presses = 0; presses < 80; presses++) {
        await page.keyboard.press('Tab');
        const state = await focused();
        if (done(state)) return state;
      }
      throw new Error(`Tab never reached it; focus is on ${JSON.stringify(await focused())}`);
    };
    const row = await tabUntil((state) => state.row);
    expect(row.text).toMatch(/^Home/);
    expect(row.outline).toBe('solid');
    await page.keyboard.press('Enter');
    await page.getByLabel('Title', { exact: true }).waitFor();
    const title = await tabUntil((state) => state.id === 'meta-title');
    expect(title.outline).toBe('solid');
    await page.keyboard.press('End');
    await page.keyboard.type(' (by keyboard)');
    await page.keyboard.press('ControlOrMeta+S');
    await page.getByText(/^Saved at/).waitFor();
    expect((await api('GET', '/content/home/en')).localized.meta.title).toMatch(/ \(by keyboard\)$/);
  });

  it('shows changes made on disk in an open admin through /events', async () => {
    const file = path.join(site.contentRoot, HOME_FILE);
    const edit = async (title: string) => {
      const stored = JSON.parse(await readFile(file, 'utf8'));
      // As git or an editor's safe write does it: a whole new file renamed over the old one.
      await writeFile(`${file}.tmp`, `${JSON.stringify({ ...stored, meta: { ...stored.meta, title } }, null, 2)}\n`);
      await rename(`${file}.tmp`, file);
    };
    await open(page, '/content/home/en');
    await page.getByLabel('Title', { exact: true }).waitFor();
    await page.getByText('live', { exact: true }).waitFor();
    await edit('Home, edited on disk');
    await expect
      .poll(() => page.getByLabel('Title', { exact: true }).inputValue(), { timeout: 15_000 })
      .toBe('Home, edited on disk');
    await page.getByText('Updated with a change by someone else.').waitFor();

    await page.getByLabel('Description').fill('Typed while someone edits the file');
    await edit('Home, edited on disk again');
    await page.getByText(/This locale was changed by someone else while you were editing/).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Compare with their version' }).click();
    await page.getByRole('heading', { name: 'Someone else saved this locale while you were editing' }).waitFor();
    await page.getByRole('button', { name: 'Apply mine on top of theirs' }).click();
    await page.getByText(/^Saved at/).waitFor();
    expect((await api('GET', '/content/home/en')).localized.meta).toMatchObject({
      title: 'Home, edited on disk again',
      description: 'Typed while someone edits the file',
    });

    await open(page, '/content');
    await page.getByText('live', { exact: true }).waitFor();
    await api('POST', '/content', {
      kind: 'page',
      site: 'shop',
      collection: 'pages',
      type: 'mdx',
      locales: { en: { pathname: '/live', meta: { title: 'Arrived live' }, content: { mdx: 'x' } } },
    });
    await page.getByRole('link', { name: 'Arrived live' }).waitFor({ timeout: 15_000 });
  });
});
