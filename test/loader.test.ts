import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoaderContext } from 'astro/loaders';
import type { z } from 'astro/zod';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { type QuireEntrySchema, quireLoader } from '../src/loader/index.js';
import { api } from './support/http.js';
import { createSite, type RunningSite, type TestSite } from './support/site.js';

const SITES = {
  sites: {
    shop: { locales: ['en', 'de', 'fr'], defaultLocale: 'en' },
    help: { locales: ['en'], defaultLocale: 'en' },
  },
  globalLocales: ['en', 'de', 'fr'],
};

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const visual = (...texts: string[]) => ({
  visualData: { root: { props: {} }, content: texts.map((text) => ({ type: 'Text', props: { text } })) },
});
const STAMPS = { created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' };

/** Hand-written content files, as a site's repository would hold them. */
const CONTENT: Record<string, string> = {
  'sites.json': json(SITES),
  'pages/shop/pages/home.en.json': json({
    type: 'visual',
    pathname: '/',
    ...STAMPS,
    meta: { title: 'Home' },
    content: visual('Welcome home'),
  }),
  'pages/shop/pages/home.de.json': json({
    type: 'visual',
    pathname: '/',
    inheritance: { state: 'customized', from: 'en' },
    ...STAMPS,
    meta: { title: 'Startseite' },
    content: visual('Willkommen'),
  }),
  'pages/shop/pages/home.fr.json': json({
    type: 'visual',
    pathname: '/',
    inheritance: { state: 'inherited', from: 'en' },
    ...STAMPS,
    meta: { title: 'Accueil' },
  }),
  'pages/shop/pages/pricing.en.json': json({
    type: 'visual',
    pathname: '/pricing',
    previousPathnames: ['/plans'],
    ...STAMPS,
    meta: { title: 'Pricing' },
    content: visual('Plans and prices'),
  }),
  'pages/shop/pages/soon.en.json': json({
    type: 'visual',
    pathname: '/soon',
    publishAt: '2999-01-01T00:00:00.000Z',
    ...STAMPS,
    meta: { title: 'Coming soon' },
    content: visual('Not yet'),
  }),
  'pages/shop/pages/gone.en.json': json({
    type: 'visual',
    pathname: '/gone',
    unpublishAt: '2001-01-01T00:00:00.000Z',
    ...STAMPS,
    meta: { title: 'Gone' },
    content: visual('No more'),
  }),
  'pages/shop/guides/guide.en.mdx':
    '---\npathname: /guide\nmeta:\n  title: Guide\n---\n# The guide\n\nRead *this* first.\n',
  'pages/shop/guides/guide.de.mdx':
    '---\npathname: /anleitung\ninheritance:\n  state: inherited\n  from: en\nmeta:\n  title: Anleitung\n---\n',
  'pages/help/pages/help-home.en.json': json({
    type: 'visual',
    pathname: '/',
    ...STAMPS,
    meta: { title: 'Help' },
    content: visual('How can we help?'),
  }),
  'fragments/components/footer.en.json': json({
    type: 'visual',
    name: 'footer',
    ...STAMPS,
    meta: {},
    content: visual('Global footer'),
  }),
  'fragments/components/footer.de.json': json({
    type: 'visual',
    name: 'footer',
    inheritance: { state: 'inherited', from: 'en' },
    ...STAMPS,
    meta: {},
  }),
  'fragments/components/banner.en.json': json({
    type: 'visual',
    name: 'banner',
    ...STAMPS,
    meta: {},
    content: visual('Global banner'),
  }),
  'site-fragments/help/components/help-footer.en.json': json({
    type: 'visual',
    name: 'footer',
    ...STAMPS,
    meta: {},
    content: visual('Help footer'),
  }),
  'data/settings/site.en.json': json({
    type: 'json',
    name: 'site',
    ...STAMPS,
    meta: {},
    content: { data: { siteName: 'Hat Shop' } },
  }),
  'data/settings/site.de.json': json({
    type: 'json',
    name: 'site',
    inheritance: { state: 'customized', from: 'en' },
    ...STAMPS,
    meta: {},
    content: { data: { siteName: 'Hutladen' } },
  }),
};

// ---------------------------------------------------------------- the loader against a stand-in for Astro's context

interface FakeEntry {
  id: string;
  data: Record<string, unknown>;
  digest?: string | number;
  body?: string;
  rendered?: { html: string };
  filePath?: string;
}

/** The parts of Astro's loader context the loader uses: a Map for a store, the schema for parseData. */
function fakeContext(root: string, schema: z.ZodType, watcher?: EventEmitter & { add(folder: string): void }) {
  const entries = new Map<string, FakeEntry>();
  const logs: string[] = [];
  const context = {
    collection: 'test',
    store: {
      get: (id: string) => entries.get(id),
      set: (entry: FakeEntry) => {
        entries.set(entry.id, entry);
        return true;
      },
      delete: (id: string) => {
        entries.delete(id);
      },
      keys: () => [...entries.keys()],
      values: () => [...entries.values()],
      entries: () => [...entries.entries()],
      has: (id: string) => entries.has(id),
      clear: () => entries.clear(),
      addModuleImport: () => {},
    },
    meta: new Map(),
    logger: {
      info: (m: string) => logs.push(m),
      warn: (m: string) => logs.push(`warn: ${m}`),
      error: (m: string) => logs.push(`error: ${m}`),
      debug: () => {},
    },
    config: { root: pathToFileURL(`${root}/`) },
    parseData: async ({ data }: { data: unknown }) => schema.parse(data),
    renderMarkdown: async (markdown: string) => ({
      html: `<md>${markdown.replace(/^---\n---\n/, '')}</md>`,
      metadata: {},
    }),
    generateDigest: (data: unknown) => JSON.stringify(data),
    watcher,
  };
  return { context: context as unknown as LoaderContext, entries, logs };
}

function fakeWatcher() {
  const watcher = new EventEmitter() as EventEmitter & { add(folder: string): void; added: string[] };
  watcher.added = [];
  watcher.add = (folder: string) => {
    watcher.added.push(folder);
  };
  return watcher;
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('quireLoader (with a stand-in Astro context)', () => {
  let project: string;
  let root: string;

  beforeAll(async () => {
    project = await mkdtemp(path.join(os.tmpdir(), 'quire-loader-'));
    root = path.join(project, 'content');
    for (const [relative, text] of Object.entries(CONTENT)) {
      await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
      await writeFile(path.join(root, relative), text);
    }
  });

  afterAll(async () => {
    await rm(project, { recursive: true, force: true });
  });

  it('types each kind: pages have a pathname and a site, fragments and data entries a name', () => {
    type Page = z.infer<QuireEntrySchema<'page'>>;
    type Fragment = z.infer<QuireEntrySchema<'fragment'>>;
    expectTypeOf<Page['pathname']>().toEqualTypeOf<string>();
    expectTypeOf<Page['site']>().toEqualTypeOf<string>();
    expectTypeOf<Page['kind']>().toEqualTypeOf<'page'>();
    expectTypeOf<Fragment['name']>().toEqualTypeOf<string>();
    expectTypeOf<Fragment['site']>().toEqualTypeOf<string | undefined>();
    expectTypeOf(quireLoader({ kind: 'data' }).schema).toEqualTypeOf<QuireEntrySchema<'data'>>();
  });

  it('makes one entry per item and locale, resolves inherited content and leaves out what is not published', async () => {
    const loader = quireLoader({ kind: 'page', site: 'shop' });
    const { context, entries } = fakeContext(project, loader.schema);
    await loader.load(context);
    expect([...entries.keys()].sort()).toEqual(['guide/de', 'guide/en', 'home/de', 'home/en', 'home/fr', 'pricing/en']);
    const fr = entries.get('home/fr')!;
    expect(fr.data).toMatchObject({
      itemId: 'home',
      locale: 'fr',
      kind: 'page',
      site: 'shop',
      collection: 'pages',
      pathname: '/',
      type: 'visual',
      meta: { title: 'Accueil' },
      published: true,
      inheritance: { state: 'inherited', from: 'en', stale: true },
    });
    expect(fr.data.content).toEqual(entries.get('home/en')!.data.content);
    expect(entries.get('home/en')!.data.inheritance).toBeUndefined();
    expect(entries.get('pricing/en')!.data.previousPathnames).toEqual(['/plans']);
    // MDX is rendered (an inherited locale from its source) and kept as the entry's body.
    expect(entries.get('guide/de')!.rendered?.html).toBe('<md># The guide\n\nRead *this* first.\n</md>');
    expect(entries.get('guide/de')!.body).toBe('# The guide\n\nRead *this* first.\n');
    expect(entries.get('guide/en')!.filePath).toBe('content/pages/shop/guides/guide.en.mdx');
  });

  it('leaves out a page whose pathname is not a path on the site, and previous pathnames that are not either', async () => {
    const other = await mkdtemp(path.join(os.tmpdir(), 'quire-loader-off-site-'));
    try {
      const folder = path.join(other, 'content', 'pages', 'shop', 'pages');
      await mkdir(folder, { recursive: true });
      const page = (fields: Record<string, unknown>) =>
        JSON.stringify({ type: 'visual', ...STAMPS, meta: { title: 'x' }, content: visual('x'), ...fields });
      await writeFile(path.join(folder, 'evil.en.json'), page({ pathname: 'https://evil.example/' }));
      await writeFile(path.join(folder, 'split.en.json'), page({ pathname: '/a\r\nSet-Cookie: x=1' }));
      await writeFile(
        path.join(folder, 'fine.en.json'),
        page({ pathname: '/fine', previousPathnames: ['//evil.example', '/old-fine'] }),
      );
      const loader = quireLoader({ kind: 'page', site: 'shop' });
      const { context, entries } = fakeContext(other, loader.schema);
      await loader.load(context);
      expect([...entries.keys()]).toEqual(['fine/en']);
      expect(entries.get('fine/en')!.data.previousPathnames).toEqual(['/old-fine']);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('filters by collection and locale, and sees fragments from a site as the API does', async () => {
    const guides = quireLoader({ kind: 'page', collection: 'guides', locale: 'de' });
    const first = fakeContext(project, guides.schema);
    await guides.load(first.context);
    expect([...first.entries.keys()]).toEqual(['guide/de']);

    const fromHelp = quireLoader({ kind: 'fragment', site: 'help' });
    const second = fakeContext(project, fromHelp.schema);
    await fromHelp.load(second.context);
    // The help site's own footer shadows the global one; the global banner stays visible.
    expect([...second.entries.keys()].sort()).toEqual(['banner/en', 'help-footer/en']);
    expect(second.entries.get('help-footer/en')!.data).toMatchObject({
      kind: 'fragment',
      site: 'help',
      name: 'footer',
    });

    const all = quireLoader({ kind: 'fragment' });
    const third = fakeContext(project, all.schema);
    await all.load(third.context);
    expect([...third.entries.keys()].sort()).toEqual(['banner/en', 'footer/de', 'footer/en', 'help-footer/en']);
    expect(third.entries.get('footer/de')!.data.content).toEqual(visual('Global footer'));

    const data = quireLoader({ kind: 'data', collection: 'settings' });
    const fourth = fakeContext(project, data.schema);
    await data.load(fourth.context);
    expect(fourth.entries.get('site/de')!.data).toMatchObject({
      kind: 'data',
      name: 'site',
      content: { data: { siteName: 'Hutladen' } },
    });
  });

  it('loads drafts only in dev with includeDrafts, flagged unpublished', async () => {
    const loader = quireLoader({ kind: 'page', site: 'shop', collection: 'pages', includeDrafts: true });
    const build = fakeContext(project, loader.schema);
    await loader.load(build.context);
    expect(build.entries.has('soon/en')).toBe(false);

    const dev = fakeContext(project, loader.schema, fakeWatcher());
    await loader.load(dev.context);
    expect(dev.entries.get('soon/en')!.data.published).toBe(false);
    expect(dev.entries.get('gone/en')!.data.published).toBe(false);
    expect(dev.entries.get('home/en')!.data.published).toBe(true);
  });

  it('in dev, adds a scheduled page when its time comes, without a file change', async () => {
    const contentRoot = await mkdtemp(path.join(os.tmpdir(), 'quire-loader-schedule-'));
    try {
      await mkdir(path.join(contentRoot, 'pages/shop/pages'), { recursive: true });
      const publishAt = new Date(Date.now() + 1_000).toISOString();
      await writeFile(
        path.join(contentRoot, 'pages/shop/pages/later.en.json'),
        json({ type: 'visual', pathname: '/later', publishAt, ...STAMPS, meta: {}, content: visual('Now') }),
      );
      const loader = quireLoader({ kind: 'page', contentRoot });
      const { context, entries } = fakeContext(project, loader.schema, fakeWatcher());
      await loader.load(context);
      expect(entries.has('later/en')).toBe(false);
      await until(() => entries.has('later/en'), 'the scheduled page', 5_000);
      expect(entries.get('later/en')!.data.published).toBe(true);
    } finally {
      await rm(contentRoot, { recursive: true, force: true });
    }
  });

  it('in dev, logs an entry the schema refuses and keeps serving the others', async () => {
    const contentRoot = await mkdtemp(path.join(os.tmpdir(), 'quire-loader-refused-'));
    try {
      const folder = path.join(contentRoot, 'pages/shop/pages');
      await mkdir(folder, { recursive: true });
      const write = (name: string, title: string) =>
        writeFile(
          path.join(folder, name),
          json({
            type: 'visual',
            pathname: `/${name.split('.')[0]}`,
            ...STAMPS,
            meta: { title },
            content: visual(title),
          }),
        );
      await write('one.en.json', 'One');
      await write('two.en.json', 'Two');
      const watcher = fakeWatcher();
      const loader = quireLoader({ kind: 'page', contentRoot });
      // A site's own schema, stricter than the loader's: titles must not be empty.
      const strict = loader.schema.refine((data) => data.meta.title !== '', 'a title is required');
      const { context, entries, logs } = fakeContext(project, strict, watcher);
      await loader.load(context);
      await write('one.en.json', '');
      await write('two.en.json', 'Two, edited');
      watcher.emit('change', path.join(folder, 'one.en.json'));
      watcher.emit('change', path.join(folder, 'two.en.json'));
      await until(
        () => (entries.get('two/en')?.data.meta as { title?: string } | undefined)?.title === 'Two, edited',
        'the valid edit',
      );
      expect(entries.get('one/en')!.data.meta).toEqual({ title: 'One' });
      expect(logs.some((line) => line.startsWith('error: one/en') && line.includes('a title is required'))).toBe(true);
    } finally {
      await rm(contentRoot, { recursive: true, force: true });
    }
  });

  it('refuses bad options with a message naming them', () => {
    expect(() => quireLoader({ kind: 'data', site: 'shop' })).toThrow(/site: Data entries belong to no site/);
    expect(() => quireLoader({ kind: 'pages' as 'page' })).toThrow(/kind: Expected one of "page", "fragment", "data"/);
    expect(() => quireLoader({ kind: 'page', locale: 'English' })).toThrow(/locale/);
  });

  it('in dev, re-reads the files a watcher reports and updates the entries that depend on them', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'quire-loader-outside-'));
    try {
      const contentRoot = path.join(outside, 'content');
      await mkdir(path.join(contentRoot, 'pages/shop/pages'), { recursive: true });
      const file = (name: string) => path.join(contentRoot, 'pages/shop/pages', name);
      await writeFile(file('home.en.json'), CONTENT['pages/shop/pages/home.en.json']!);
      await writeFile(file('home.fr.json'), CONTENT['pages/shop/pages/home.fr.json']!);
      const watcher = fakeWatcher();
      const loader = quireLoader({ kind: 'page', contentRoot });
      const { context, entries } = fakeContext(project, loader.schema, watcher);
      await loader.load(context);
      // The content root is outside the project, where Vite does not watch by itself.
      expect(watcher.added).toEqual([contentRoot]);
      expect(entries.get('home/fr')!.data.content).toEqual(visual('Welcome home'));

      await writeFile(
        file('home.en.json'),
        json({ type: 'visual', pathname: '/', ...STAMPS, meta: { title: 'Home' }, content: visual('Hello again') }),
      );
      watcher.emit('change', file('home.en.json'));
      await until(
        () => JSON.stringify(entries.get('home/fr')?.data.content) === JSON.stringify(visual('Hello again')),
        'the inherited locale to follow',
      );

      await writeFile(
        file('new.en.json'),
        json({ type: 'visual', pathname: '/new', ...STAMPS, meta: {}, content: visual('New') }),
      );
      watcher.emit('add', file('new.en.json'));
      await until(() => entries.has('new/en'), 'a new page');

      await unlink(file('new.en.json'));
      watcher.emit('unlink', file('new.en.json'));
      await until(() => !entries.has('new/en'), 'a deleted page to go');

      await rm(path.join(contentRoot, 'pages/shop'), { recursive: true });
      watcher.emit('unlinkDir', path.join(contentRoot, 'pages/shop'));
      await until(() => entries.size === 0, 'a removed folder to take its entries');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------- a real Astro site

const CONTENT_CONFIG = `import { defineCollection } from 'astro:content';
import { quireLoader } from 'astro-quire/loader';

export const collections = {
  pages: defineCollection({ loader: quireLoader({ kind: 'page', site: 'shop', includeDrafts: true }) }),
  fragments: defineCollection({ loader: quireLoader({ kind: 'fragment', site: 'shop' }) }),
  settings: defineCollection({ loader: quireLoader({ kind: 'data', collection: 'settings' }) }),
};
`;

/** Every shop page at /<locale><pathname>, with its footer fragment and the site name from a data entry. */
const PAGE = `---
import { getCollection, getEntry, render } from 'astro:content';

export async function getStaticPaths() {
  const pages = await getCollection('pages');
  return pages.map((entry) => ({
    params: { locale: entry.data.locale, path: entry.data.pathname === '/' ? undefined : entry.data.pathname.slice(1) },
    props: { entry },
  }));
}

const { entry } = Astro.props;
const { locale } = entry.data;
const { Content } = await render(entry);
const footer = (await getCollection('fragments')).find((f) => f.data.name === 'footer' && f.data.locale === locale);
const settings = (await getEntry('settings', 'site/' + locale)) ?? (await getEntry('settings', 'site/en'));
const texts = (visual) => (visual?.content ?? []).map((block) => block.props.text);
---
<html lang={locale}>
  <head><title>{String(entry.data.meta.title)}</title></head>
  <body>
    <p class="site">{settings?.data.content.data?.siteName}</p>
    <h1>{String(entry.data.meta.title)}</h1>
    {texts(entry.data.content.visualData).map((text) => <p class="block">{text}</p>)}
    <article><Content /></article>
    <p class="state">{entry.data.published ? 'published' : 'draft'} {entry.data.inheritance?.state ?? 'default'}</p>
    <footer>{texts(footer?.data.content.visualData).join(' ')}</footer>
  </body>
</html>
`;

const LIST = `---
import { getCollection } from 'astro:content';
const ids = [...(await getCollection('pages')), ...(await getCollection('fragments')), ...(await getCollection('settings'))].map((entry) => entry.id);
---
<ul>{ids.map((id) => <li>{id}</li>)}</ul>
`;

const siteOptions = (name: string) => ({
  name,
  config: '{ requireIdentity: false }',
  content: CONTENT,
  files: {
    'src/content.config.ts': CONTENT_CONFIG,
    'src/pages/[locale]/[...path].astro': PAGE,
    'src/pages/entries.astro': LIST,
  },
});

describe('quireLoader in astro build', () => {
  let site: TestSite;
  let output: string;
  const html = (route: string) => readFile(path.join(site.dir, 'dist', 'client', route, 'index.html'), 'utf8');

  beforeAll(async () => {
    site = await createSite(siteOptions('loader-build'));
    const result = await site.build();
    output = result.output;
    if (result.code !== 0) throw new Error(`astro build failed (exit ${result.code}):\n${output}`);
  });

  it('renders every locale of every page at its pathname, with fragments and data entries', async () => {
    const en = await html('en');
    expect(en).toContain('<h1>Home</h1>');
    expect(en).toContain('<p class="block">Welcome home</p>');
    expect(en).toContain('<p class="site">Hat Shop</p>');
    expect(en).toContain('<footer>Global footer</footer>');
    const de = await html('de');
    expect(de).toContain('<html lang="de">');
    expect(de).toContain('<p class="block">Willkommen</p>');
    expect(de).toContain('<p class="site">Hutladen</p>');
    expect(de).toContain('<footer>Global footer</footer>');
    expect(await html('en/pricing')).toContain('<p class="block">Plans and prices</p>');
    expect(await html('en/guide')).toContain('<h1 id="the-guide">The guide</h1>\n<p>Read <em>this</em> first.</p>');
  });

  it('shows the default content on an inherited locale, under its own meta and pathname', async () => {
    const fr = await html('fr');
    expect(fr).toContain('<h1>Accueil</h1>');
    expect(fr).toContain('<p class="block">Welcome home</p>');
    expect(fr).toContain('<p class="state">published inherited</p>');
    const de = await html('de/anleitung');
    expect(de).toContain('<h1>Anleitung</h1>');
    expect(de).toContain('<p>Read <em>this</em> first.</p>');
  });

  it('leaves out unpublished and scheduled pages, even with includeDrafts', async () => {
    expect(existsSync(path.join(site.dir, 'dist', 'client', 'en', 'soon'))).toBe(false);
    expect(existsSync(path.join(site.dir, 'dist', 'client', 'en', 'gone'))).toBe(false);
    const list = await html('entries');
    expect(list).toContain('<li>home/fr</li>');
    expect(list).toContain('<li>site/de</li>');
    expect(list).not.toContain('soon/en');
    expect(list).not.toContain('gone/en');
    // Another site's pages stay in their own collection.
    expect(list).not.toContain('help-home');
  });

  it('builds without errors from the content layer', () => {
    expect(output).not.toMatch(/\[ERROR\]/);
  });

  it('says once that MDX renders as Markdown without @astrojs/mdx, and what to install', () => {
    const hints = output.match(/MDX bodies render as Markdown.*add @astrojs\/mdx \(npx astro add mdx\)/g) ?? [];
    expect(hints).toHaveLength(1);
  });
});

describe('quireLoader in astro dev', () => {
  let site: TestSite;
  let server: RunningSite;

  beforeAll(async () => {
    // The content root outside the project this time, as CONTENT_PATH may put it: Vite does not
    // watch there unless the loader adds it.
    site = await createSite({ ...siteOptions('loader-dev'), contentDir: '../loader-dev-content' });
    server = await site.startDev({ CONTENT_PATH: site.contentRoot });
  });

  afterAll(async () => {
    await server?.stop();
  });

  const page = async (route: string) => {
    const response = await fetch(`${server.url}${route}`, { signal: AbortSignal.timeout(15_000) });
    return { status: response.status, text: await response.text() };
  };

  /** Loads the page until `check` holds: an API write reaches the page on a later load, within a bound. */
  async function eventually(
    route: string,
    check: (result: { status: number; text: string }) => boolean,
  ): Promise<string> {
    const deadline = Date.now() + 15_000;
    let last = await page(route);
    while (!check(last)) {
      if (Date.now() > deadline)
        throw new Error(
          `${route} never matched; last answer ${last.status}:\n${last.text.slice(0, 2000)}\n${server.logs()}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 200));
      last = await page(route);
    }
    return last.text;
  }

  it('renders the pages, and drafts with includeDrafts', async () => {
    expect((await page('/en')).text).toContain('<p class="block">Welcome home</p>');
    expect((await page('/fr')).text).toContain('<p class="block">Welcome home</p>');
    const soon = await page('/en/soon');
    expect(soon.status).toBe(200);
    expect(soon.text).toContain('<p class="state">draft default</p>');
  });

  it('shows an edit made through the API on the next page loads, in the inherited locales too', async () => {
    const client = api(server.url);
    const current = await client.get('/content/home/en');
    const put = await client.put('/content/home', {
      query: { locale: 'en', etag: current.json.localized.etag },
      body: { meta: { title: 'Home, edited' }, content: visual('Hello again') },
    });
    expect(put.status, put.text).toBe(200);
    const en = await eventually('/en', ({ text }) => text.includes('<p class="block">Hello again</p>'));
    expect(en).toContain('<h1>Home, edited</h1>');
    await eventually('/fr', ({ text }) => text.includes('<p class="block">Hello again</p>'));
    expect((await page('/de')).text).toContain('<p class="block">Willkommen</p>');
  });

  it('shows a hand edit of a content file (no API, no request to the API) on the next page loads', async () => {
    const file = path.join(site.contentRoot, 'pages/shop/pages/home.de.json');
    const stored = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, json({ ...stored, content: visual('Von Hand bearbeitet') }));
    await eventually('/de', ({ text }) => text.includes('<p class="block">Von Hand bearbeitet</p>'));
  });

  it('serves a page created through the API, and drops it once deleted', async () => {
    const client = api(server.url);
    const created = await client.post('/content', {
      body: {
        kind: 'page',
        site: 'shop',
        collection: 'pages',
        type: 'mdx',
        locales: { en: { pathname: '/contact', meta: { title: 'Contact' }, content: { mdx: '## Write to us\n' } } },
      },
    });
    expect(created.status, created.text).toBe(201);
    const contact = await eventually('/en/contact', ({ status }) => status === 200);
    expect(contact).toContain('<h2 id="write-to-us">Write to us</h2>');

    const removed = await client.delete(`/content/${created.json.id}`, { headers: { 'if-match': created.json.etag } });
    expect(removed.status, removed.text).toBe(200);
    await eventually('/en/contact', ({ status }) => status === 404);
  });
});
