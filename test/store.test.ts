import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseLocaleFile, serializeLocaleFile } from '../src/content/files.js';
import { type ContentStore, createContentStore } from '../src/content/store.js';
import type { QuireError } from '../src/errors.js';
import { createChangeFeed } from '../src/events/feed.js';
import { createSitesConfig } from '../src/sites/sites-config.js';

const SITES = { sites: { web: { locales: ['en', 'de'], defaultLocale: 'en' } }, globalLocales: ['en', 'de'] };

describe('content store', () => {
  let root: string;
  let stores: ContentStore[];

  const open = () => {
    const store = createContentStore({
      root,
      sites: createSitesConfig(root),
      metadataBytes: 1024,
      excluded: [path.join(root, 'assets')],
      feed: createChangeFeed(),
    });
    stores.push(store);
    return store;
  };

  beforeEach(async () => {
    // A hidden folder on purpose: the playground keeps its working content in `.content`.
    root = path.join(await mkdtemp(path.join(os.tmpdir(), 'quire-store-')), '.content');
    await mkdir(root);
    await writeFile(path.join(root, 'sites.json'), JSON.stringify(SITES));
    stores = [];
  });

  afterEach(async () => {
    for (const store of stores) store.close();
    await rm(path.dirname(root), { recursive: true, force: true });
  });

  const page = (pathname: string) => ({
    kind: 'page' as const,
    site: 'web',
    collection: 'pages',
    type: 'mdx' as const,
    locales: {
      en: { pathname, meta: { title: 'Hello', tags: ['a'] }, content: { mdx: '---\nnot front matter\n---\n# Hi' } },
      de: { pathname: `/de${pathname}`, inherit: true },
    },
  });

  it('gives the same entries and etags after a restart', async () => {
    const first = open();
    const { id } = await first.create(page('/start'), 'ada@example.com');
    await first.updateLocale(id, 'en', { meta: { description: 'Ümlaut ✓' } }, '', undefined);
    const before = await first.get(id);
    const list = await first.selection({ of: 'list', filters: {} });
    expect(list.every((text) => /^[\x00-\x7f]*$/.test(text))).toBe(true);
    expect(JSON.parse(list[0]!).locales.en.meta.description).toBe('Ümlaut ✓');
    first.close();
    const second = open();
    expect(await second.get(id)).toEqual(before);
  });

  it('round-trips MDX whose body looks like front matter', async () => {
    const store = open();
    const { id } = await store.create(page('/mdx'), undefined);
    const text = await readFile(path.join(root, 'pages/web/pages', `${id}.en.mdx`), 'utf8');
    expect(parseLocaleFile(text, 'mdx').file.content).toEqual({ mdx: '---\nnot front matter\n---\n# Hi' });
    const inherited = await readFile(path.join(root, 'pages/web/pages', `${id}.de.mdx`), 'utf8');
    expect(parseLocaleFile(inherited, 'mdx').file.content).toBeUndefined();
  });

  it('serializes with a fixed key order whatever order the fields came in', () => {
    const a = serializeLocaleFile('visual', {
      meta: { title: 't' },
      modified: 'm',
      created: 'c',
      pathname: '/p',
      content: { visualData: 1 },
    });
    const b = serializeLocaleFile('visual', {
      content: { visualData: 1 },
      pathname: '/p',
      created: 'c',
      modified: 'm',
      meta: { title: 't' },
    });
    expect(a).toBe(b);
  });

  it('lets exactly one of many concurrent writers with the same etag win', async () => {
    const store = open();
    const { id, etag } = await store.create(page('/race'), undefined);
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, (_, n) => store.updateLocale(id, 'en', { meta: { title: `w${n}` } }, etag, undefined)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results) {
      if (result.status === 'rejected') expect((result.reason as QuireError).code).toBe('STALE_WRITE');
    }
  });

  it('never loses a write when many writers update distinct items at once', async () => {
    const store = open();
    const ids = await Promise.all(
      Array.from({ length: 30 }, (_, n) => store.create(page(`/p${n}`), undefined).then((created) => created.id)),
    );
    expect(new Set(ids).size).toBe(30);
    await Promise.all(ids.map((id, n) => store.updateLocale(id, 'en', { meta: { title: `t${n}` } }, '', undefined)));
    const reopened = open();
    for (const [n, id] of ids.entries()) expect((await reopened.get(id)).locales.en!.meta.title).toBe(`t${n}`);
  });

  it('picks up files written, changed and removed by hand, and ignores temp files', async () => {
    const store = open();
    await store.list({});
    const folder = path.join(root, 'data', 'authors');
    await mkdir(folder, { recursive: true });
    await writeFile(
      path.join(folder, 'ada.en.json'),
      JSON.stringify({ type: 'json', name: 'ada', meta: { title: 'Ada' }, content: { data: { x: 1 } } }),
    );
    await writeFile(path.join(folder, 'ada.en.json.12345'), 'half a write');
    expect((await store.list({ collection: 'authors' })).map((item) => item.id)).toEqual(['ada']);
    await writeFile(
      path.join(folder, 'ada.en.json'),
      JSON.stringify({ type: 'json', name: 'ada', meta: { title: 'Ada L.' }, content: { data: { x: 2 } } }),
    );
    expect((await store.get('ada')).locales.en!.meta.title).toBe('Ada L.');
    await rm(path.join(folder, 'ada.en.json'));
    expect(await store.list({ collection: 'authors' })).toEqual([]);
  });

  it('leaves no temp files behind after writes', async () => {
    const store = open();
    const { id } = await store.create(page('/clean'), undefined);
    for (let n = 0; n < 10; n++) await store.updateLocale(id, 'en', { meta: { title: `v${n}` } }, '', undefined);
    expect((await readdir(path.join(root, 'pages/web/pages'))).sort()).toEqual([`${id}.de.mdx`, `${id}.en.mdx`]);
  });

  it('keeps staleness computed: one write to the default locale marks every inheriting locale stale', async () => {
    const store = open();
    const { id, etag } = await store.create(page('/stale'), undefined);
    const deFile = path.join(root, 'pages/web/pages', `${id}.de.mdx`);
    const before = await readFile(deFile, 'utf8');
    const staleIds = async () =>
      (await store.selection({ of: 'needs-review', locale: 'de', customized: false })).map(
        (text) => JSON.parse(text).id,
      );
    expect(await staleIds()).toEqual([]);
    await store.updateLocale(id, 'en', { content: { mdx: 'v2' } }, etag, undefined);
    expect(await staleIds()).toEqual([id]);
    expect(await readFile(deFile, 'utf8')).toBe(before);
  });

  it('holds writes while an exclusive task runs, then re-reads what the task changed', async () => {
    const store = open();
    const { id } = await store.create(page('/gate'), undefined);
    const started = await store.exclusive(async () => {
      const write = store.updateLocale(id, 'en', { meta: { title: 'after the pull' } }, '', undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const title = (await readFile(path.join(root, 'pages/web/pages', `${id}.en.mdx`), 'utf8')).match(
        /title: (.*)/,
      )?.[1];
      await rm(path.join(root, 'pages/web/pages', `${id}.de.mdx`));
      return { write, titleDuringTask: title };
    });
    expect(started.titleDuringTask).toBe('Hello');
    await started.write;
    const entry = await store.get(id);
    expect(entry.locales.en!.meta.title).toBe('after the pull');
    expect(Object.keys(entry.locales)).toEqual(['en']);
  });

  it('answers cached lists until the content changes or a publication date passes', async () => {
    const store = open();
    const soon = new Date(Date.now() + 1200).toISOString();
    const later = await store.create(
      { ...page('/soon'), locales: { en: { pathname: '/soon', publishAt: soon, content: { mdx: 'x' } } } },
      undefined,
    );
    const publishedIds = async () =>
      (await store.selection({ of: 'list', filters: { published: true } })).map((text) => JSON.parse(text).id);
    expect(await publishedIds()).toEqual([]);
    const { id } = await store.create(page('/now'), undefined);
    expect(await publishedIds()).toEqual([id]);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect((await publishedIds()).sort()).toEqual([id, later.id].sort());
  });

  describe('bodies read from the files', () => {
    /** A customized German locale beside the English one, and where the German file is. */
    async function translated(store: ContentStore) {
      const { id } = await store.create(
        {
          ...page('/bodies'),
          locales: {
            en: { pathname: '/bodies', meta: { title: 'Hello' }, content: { mdx: '# English' } },
            de: { pathname: '/de/bodies', meta: { title: 'Hallo' }, content: { mdx: '# Deutsch' } },
          },
        },
        undefined,
      );
      const german = store.index.get(id)!.locales.get('de')!;
      return { id, german, file: german.path };
    }

    it('keeps no content in the index, only its etag', async () => {
      const store = open();
      const { id, german } = await translated(store);
      expect(Object.keys(german.file)).not.toContain('content');
      expect(german.contentEtag).not.toBe('');
      expect(JSON.parse((await store.getLocale(id, 'de')).json).localized.content).toEqual({ mdx: '# Deutsch' });
    });

    it('answers an edit made by hand on the very next read, before its file event is taken in', async () => {
      const store = open();
      const { id, file } = await translated(store);
      const before = await store.getLocale(id, 'de');
      await writeFile(file, (await readFile(file, 'utf8')).replace('# Deutsch', '# Von Hand'));
      const after = await store.getLocale(id, 'de');
      expect(JSON.parse(after.json).localized.content).toEqual({ mdx: '# Von Hand' });
      expect(after.etag).not.toBe(before.etag);
      // The etag is the one a write must name.
      const written = await store.updateLocale(id, 'de', { meta: { title: 'Neu' } }, after.etag, undefined);
      expect((await store.getLocale(id, 'de')).etag).toBe(written.etag);
    });

    it('answers 404, not 500, for a locale whose file was deleted by hand', async () => {
      const store = open();
      const { id, file } = await translated(store);
      await rm(file);
      await expect(store.getLocale(id, 'de')).rejects.toMatchObject({ code: 'CONTENT_NOT_FOUND' });
      expect(Object.keys((await store.get(id)).locales)).toEqual(['en']);
    });

    it('keeps the content of a locale whose meta alone changes, or that is marked reviewed', async () => {
      const store = open();
      const { id, file } = await translated(store);
      const { etag } = await store.getLocale(id, 'de');
      const updated = await store.updateLocale(id, 'de', { meta: { title: 'Neu' } }, etag, undefined);
      expect(parseLocaleFile(await readFile(file, 'utf8'), 'mdx').file.content).toEqual({ mdx: '# Deutsch' });
      // The source moves on: the customized German locale falls behind, and marking it reviewed keeps its content.
      const english = await store.getLocale(id, 'en');
      await store.updateLocale(id, 'en', { content: { mdx: '# English, new' } }, english.etag, undefined);
      const behind = await store.getLocale(id, 'de');
      expect(JSON.parse(behind.json).localized.inheritance?.sourceChanged).toBe(true);
      expect(behind.etag).toBe(updated.etag);
      await store.markReviewed(id, 'de', behind.etag, undefined);
      expect(parseLocaleFile(await readFile(file, 'utf8'), 'mdx').file.content).toEqual({ mdx: '# Deutsch' });
    });

    it('refuses a write that would rewrite a file changed by hand since it was read', async () => {
      const store = open();
      const { id, file } = await translated(store);
      const { etag } = await store.getLocale(id, 'de');
      await writeFile(file, (await readFile(file, 'utf8')).replace('# Deutsch', '# Von Hand'));
      // Meta only: the write would keep the content it read, which is no longer on disk.
      const write = store.updateLocale(id, 'de', { meta: { title: 'Neu' } }, etag, undefined);
      await expect(write).rejects.toMatchObject({ code: 'STALE_WRITE' });
      expect(await readFile(file, 'utf8')).toContain('# Von Hand');
    });
  });

  it('refuses metadata over the limit', async () => {
    const store = open();
    await expect(
      store.create({ ...page('/big'), meta: { description: 'x'.repeat(2000) } }, undefined),
    ).rejects.toMatchObject({ code: 'METADATA_TOO_LARGE' });
  });
});

describe('sites.json', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'quire-sites-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const errorFor = (text: string) => {
    return writeFile(path.join(root, 'sites.json'), text).then(() => {
      try {
        createSitesConfig(root).get();
      } catch (error) {
        return error as QuireError;
      }
      throw new Error('expected an error');
    });
  };

  it('defaults when missing', () => {
    expect(createSitesConfig(root).get()).toEqual({ sites: {}, globalLocales: ['en'] });
  });

  it('names the file and the problem when invalid', async () => {
    const broken = await errorFor('{ "sites": ');
    expect(broken.code).toBe('INTERNAL_ERROR');
    expect(broken.message).toContain('sites.json');
    const wrongDefault = await errorFor(
      JSON.stringify({ sites: { web: { locales: ['en'], defaultLocale: 'de' } }, globalLocales: ['en'] }),
    );
    expect(wrongDefault.message).toContain('defaultLocale must be one of locales');
  });

  it('rejects site names that collide with fixed routes, naming the site', async () => {
    const error = await errorFor(
      JSON.stringify({ sites: { assets: { locales: ['en'], defaultLocale: 'en' } }, globalLocales: ['en'] }),
    );
    expect(error.message).toContain('"assets"');
  });

  it('re-reads the file when it changes', async () => {
    const sites = createSitesConfig(root);
    await writeFile(path.join(root, 'sites.json'), JSON.stringify(SITES));
    expect(Object.keys(sites.get().sites)).toEqual(['web']);
    await writeFile(
      path.join(root, 'sites.json'),
      JSON.stringify({ ...SITES, sites: { ...SITES.sites, docs: { locales: ['en'], defaultLocale: 'en' } } }),
    );
    expect(Object.keys(sites.get().sites)).toEqual(['web', 'docs']);
  });
});
