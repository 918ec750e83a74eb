import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ADMIN, apiCaller, json, STAMPS } from '../support/admin-site.js';
import { checkA11y } from '../support/browser.js';

/** One site in two locales with a visual home page, and one data entry. */
export const CONTENT: Record<string, string> = {
  'sites.json': json({ sites: { shop: { locales: ['en', 'de'], defaultLocale: 'en' } }, globalLocales: ['en', 'de'] }),
  'pages/shop/pages/home.en.json': json({
    type: 'visual',
    pathname: '/',
    ...STAMPS,
    meta: { title: 'Home', description: 'The shop' },
    content: {
      visualData: { root: { props: {} }, content: [{ type: 'Text', props: { id: 'one', text: 'Welcome' } }] },
    },
  }),
  'data/settings/site.en.json': json({
    type: 'json',
    name: 'site',
    ...STAMPS,
    meta: {},
    content: { data: { siteName: 'Hat Shop' } },
  }),
};
/** The front matter every test site's `[locale]/[...path].astro` starts with: one route per page entry, the entry as a prop. */
export const PAGE_ROUTE = `export async function getStaticPaths() {
  return (await getCollection('pages')).map((entry) => ({
    params: { locale: entry.data.locale, path: entry.data.pathname === '/' ? undefined : entry.data.pathname.slice(1) },
    props: { entry },
  }));
}
const { entry } = Astro.props;`;

export const HOME_FILE = 'pages/shop/pages/home.en.json';

/** The API and the admin of one running site, as a browser there reaches them (`headers`: what a gateway adds). */
export function adminDriver(origin: () => string, headers: () => Record<string, string> = () => ({})) {
  const api = apiCaller(origin, headers);
  const open = async (target: Page, route: string) => {
    await target.goto(`${origin()}${ADMIN}${route}`);
  };
  return { api, open };
}
export type AdminDriver = ReturnType<typeof adminDriver>;

/** A tab of `context` that confirms every dialog (leaving with unsaved changes asks first). */
export async function newEditorPage(context: BrowserContext): Promise<Page> {
  const created = await context.newPage();
  created.on('dialog', (dialog) => void dialog.accept());
  return created;
}

export const axe = (target: Page, screen: string) => checkA11y(target, { label: screen });

/** Replaces the text of the code editor (CodeMirror once its chunk loaded) the way a user would: select all, type. */
export async function typeInCode(target: Page, text: string) {
  const editor = target.locator('.cm-content');
  await editor.waitFor();
  await editor.click();
  await target.keyboard.press('ControlOrMeta+A');
  await target.keyboard.insertText(text);
}

/**
 * Creates an MDX page in the shop site through the create screen, then edits its description and
 * content and saves with Ctrl/Cmd+S; checks axe on the create screen. Resolves with the new id.
 */
export async function createAndEditPage(
  page: Page,
  admin: AdminDriver,
  { pathname, title, description, mdx }: { pathname: string; title: string; description: string; mdx: string },
): Promise<string> {
  await admin.open(page, '/new');
  await page.getByLabel('Collection').fill('pages');
  await page.getByLabel('Pathname', { exact: true }).fill(pathname);
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByText(`${pathname} is free.`).waitFor();
  await axe(page, 'create');
  await page.getByRole('button', { name: 'Create and edit' }).click();
  await page.getByRole('heading', { name: new RegExp(title) }).waitFor();
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/')[3]!);

  await page.getByLabel('Description').fill(description);
  await typeInCode(page, mdx);
  await page.keyboard.press('ControlOrMeta+S');
  await page.getByText(/^Saved at/).waitFor();
  return id;
}

/**
 * Two editors on the home page's en locale: the second types, the first saves a new title, the
 * second's save gets the conflict view (axe-checked, then `onConflictView`), nothing is written
 * by it, and "Apply mine on top of theirs" lands both changes in the API and in the file.
 */
export async function conflictThenApplyMine(
  first: Page,
  second: Page,
  admin: AdminDriver,
  { contentRoot, onConflictView }: { contentRoot: string; onConflictView?: (page: Page) => Promise<void> },
) {
  await Promise.all([admin.open(first, '/content/home/en'), admin.open(second, '/content/home/en')]);
  await Promise.all([
    first.getByLabel('Title', { exact: true }).waitFor(),
    second.getByLabel('Title', { exact: true }).waitFor(),
  ]);
  const before = (await admin.api('GET', '/content/home/en')).localized.meta.description;

  // The second editor has typed before the first one saves (with /events it would otherwise just take the new version).
  await second.getByLabel('Description').fill('Described by the second editor');
  await first.getByLabel('Title', { exact: true }).fill('Home, by the first editor');
  await first.getByRole('button', { name: 'Save' }).click();
  await first.getByText(/^Saved at/).waitFor();

  await second.getByRole('button', { name: 'Save' }).click();
  await second.getByRole('heading', { name: 'Someone else saved this locale while you were editing' }).waitFor();
  const conflict = second.getByRole('table', { name: 'Changed fields' });
  await expect.poll(() => conflict.textContent()).toContain('Home, by the first editor');
  expect(await conflict.textContent()).toContain('Described by the second editor');
  await axe(second, 'conflict view');
  await onConflictView?.(second);
  // Nothing was written by the refused save.
  expect((await admin.api('GET', '/content/home/en')).localized.meta.description).toBe(before);

  await second.getByRole('button', { name: 'Apply mine on top of theirs' }).click();
  await second.getByText(/^Saved at/).waitFor();
  const both = { title: 'Home, by the first editor', description: 'Described by the second editor' };
  expect((await admin.api('GET', '/content/home/en')).localized.meta).toMatchObject(both);
  const file = JSON.parse(await readFile(path.join(contentRoot, HOME_FILE), 'utf8'));
  expect(file.meta).toMatchObject(both);
}
