import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { dataEntry, earlierVersion, mdxSource, visualData } from './content-shapes.mjs';
import { smallPng } from './png.mjs';
import { random, textFor } from './text.mjs';

export const LOCALES = ['en', 'de', 'fr'];
const DEFAULT_LOCALE = 'en';

export const SITES_JSON = {
  sites: {
    www: { locales: LOCALES, defaultLocale: DEFAULT_LOCALE },
    shop: { locales: LOCALES, defaultLocale: DEFAULT_LOCALE },
  },
  globalLocales: LOCALES,
};

/** Where the items go: half pages over two sites, a quarter MDX fragments, a quarter data entries. */
const HOMES = [
  { kind: 'page', site: 'www', collection: 'pages', prefix: 'www-page', type: 'visual', share: 0.15 },
  { kind: 'page', site: 'www', collection: 'blog', prefix: 'www-post', type: 'visual', share: 0.15 },
  { kind: 'page', site: 'shop', collection: 'pages', prefix: 'shop-page', type: 'visual', share: 0.2 },
  { kind: 'fragment', collection: 'blocks', prefix: 'block', type: 'mdx', share: 0.25 },
  { kind: 'data', collection: 'products', prefix: 'product', type: 'json', share: 0.25 },
];

const WRITE_FILE_CONCURRENCY = 64;

function homeCounts(size) {
  const counts = HOMES.map((home) => Math.floor(size * home.share));
  for (let i = 0; counts.reduce((a, b) => a + b, 0) < size; i++) counts[i % counts.length]++;
  return counts;
}

function folderOf(home) {
  if (home.kind === 'page') return path.join('pages', home.site, home.collection);
  if (home.kind === 'fragment') return path.join('fragments', home.collection);
  return path.join('data', home.collection);
}

const iso = (ms) => new Date(ms).toISOString();
const BASE_TIME = Date.parse('2025-01-06T09:00:00.000Z');
const DAY = 86_400_000;

/**
 * Writes `size` items × up to 3 locales under `root` (plus sites.json and a few hundred PNG
 * assets), one markdown file per item under `decapDir` for the peer, and returns a catalog of
 * what it wrote: the targets each measure uses and the counts the report quotes.
 */
export async function generateContent({ root, decapDir, size, packageDir, seed = 7, onProgress = () => {} }) {
  const { serializeLocaleFile } = await import(pathToFileURL(path.join(packageDir, 'dist/src/content/files.js')).href);
  const { contentEtagOf } = await import(pathToFileURL(path.join(packageDir, 'dist/src/content/etag.js')).href);
  const rand = random(seed);

  const assetCount = Math.min(300, Math.max(20, Math.round(size * 0.3)));
  const images = Array.from(
    { length: Math.ceil(assetCount * 0.6) },
    (_, i) => `images/img-${String(i + 1).padStart(4, '0')}.png`,
  );
  const productImages = Array.from(
    { length: assetCount - images.length },
    (_, i) => `products/prod-${String(i + 1).padStart(4, '0')}.png`,
  );

  const pending = [];
  let written = 0;
  let bytes = 0;
  const totalEstimate = size * LOCALES.length + size + assetCount;
  async function flush(force = false) {
    if (!force && pending.length < WRITE_FILE_CONCURRENCY * 4) return;
    const batch = pending.splice(0);
    for (let start = 0; start < batch.length; start += WRITE_FILE_CONCURRENCY) {
      await Promise.all(
        batch.slice(start, start + WRITE_FILE_CONCURRENCY).map(([file, data]) => fs.writeFile(file, data)),
      );
    }
    written += batch.length;
    onProgress(written, totalEstimate);
  }
  const queue = async (file, data) => {
    if (file.startsWith(root)) bytes += data.length;
    pending.push([file, data]);
    await flush();
  };

  await fs.mkdir(root, { recursive: true });
  await fs.writeFile(path.join(root, 'sites.json'), `${JSON.stringify(SITES_JSON, null, 2)}\n`);
  for (const home of HOMES) await fs.mkdir(path.join(root, folderOf(home)), { recursive: true });
  await fs.mkdir(path.join(root, 'assets', 'images'), { recursive: true });
  await fs.mkdir(path.join(root, 'assets', 'products'), { recursive: true });
  await fs.mkdir(path.join(decapDir, 'entries'), { recursive: true });

  for (const [i, asset] of [...images, ...productImages].entries()) {
    await queue(path.join(root, 'assets', asset), smallPng(16 + (i % 5) * 12, 16 + (i % 3) * 16, i + 1));
  }

  const catalog = {
    items: [],
    counts: {
      items: 0,
      files: 0,
      pages: 0,
      fragments: 0,
      data: 0,
      inherited: 0,
      stale: 0,
      customized: 0,
      assets: assetCount,
      bytes: 0,
    },
    staleByLocale: { de: 0, fr: 0 },
    untranslatedByLocale: { de: 0, fr: 0 },
    assets: [...images, ...productImages],
  };

  const counts = homeCounts(size);
  for (const [h, home] of HOMES.entries()) {
    for (let n = 1; n <= counts[h]; n++) {
      const id = `${home.prefix}-${String(n).padStart(5, '0')}`;
      // Which locales exist: 5% English only, 5% without French, the rest complete.
      const roll = rand();
      const locales = roll < 0.05 ? ['en'] : roll < 0.1 ? ['en', 'de'] : LOCALES;
      const created = BASE_TIME + Math.floor(rand() * 300) * DAY;
      const modified = created + Math.floor(rand() * 60) * DAY + Math.floor(rand() * DAY);
      const dates = {};
      if (home.kind === 'page') {
        const p = rand();
        if (p < 0.08) dates.publishAt = '2099-01-01T00:00:00.000Z';
        else if (p < 0.12) dates.unpublishAt = iso(created + 30 * DAY);
        else if (p < 0.2) dates.publishAt = iso(created);
      }
      const item = {
        id,
        kind: home.kind,
        type: home.type,
        collection: home.collection,
        ...(home.site && { site: home.site }),
        locales: {},
      };

      let defaultContent;
      let defaultContentEtag;
      for (const locale of locales) {
        const t = textFor(locale, rand);
        const title = t.title(4);
        const contentFor = () =>
          home.type === 'visual'
            ? { visualData: visualData(t, title, images) }
            : home.type === 'mdx'
              ? { mdx: mdxSource(t, images) }
              : { data: dataEntry(t, n, productImages) };
        const file = {
          ...(home.kind === 'page'
            ? {
                pathname: `${locale === DEFAULT_LOCALE ? '' : `/${locale}`}/${home.collection === 'blog' ? 'blog/' : ''}${id}`,
              }
            : { name: id }),
          ...dates,
          created: iso(created),
          modified: iso(modified),
          meta: {
            title,
            description: t.sentence(14),
            tags: [t.word(), t.word()],
            ...(home.kind === 'page' && t.chance(0.5) && { ogImage: `/__cms/api/assets/serve/${t.pick(images)}` }),
          },
        };
        let state = 'default';
        if (locale === DEFAULT_LOCALE) {
          defaultContent = contentFor();
          defaultContentEtag = contentEtagOf(defaultContent);
          file.content = defaultContent;
        } else if (rand() < 0.35) {
          state = 'customized';
          file.inheritance = { state: 'customized', from: DEFAULT_LOCALE, inheritedEtag: defaultContentEtag };
          file.content = contentFor();
        } else if (rand() < 0.25) {
          state = 'stale';
          file.inheritance = {
            state: 'inherited',
            from: DEFAULT_LOCALE,
            inheritedEtag: contentEtagOf(earlierVersion(home.type, defaultContent)),
          };
        } else {
          state = 'inherited';
          file.inheritance = { state: 'inherited', from: DEFAULT_LOCALE, inheritedEtag: defaultContentEtag };
        }
        const relative = path.join(folderOf(home), `${id}.${locale}.${home.type === 'mdx' ? 'mdx' : 'json'}`);
        await queue(path.join(root, relative), serializeLocaleFile(home.type, file));
        item.locales[locale] = { file: relative, state, ...(file.pathname && { pathname: file.pathname }) };
        if (state === 'customized') catalog.counts.customized++;
        if (state === 'stale' || state === 'inherited') catalog.counts.inherited++;
        if (state === 'stale') {
          catalog.counts.stale++;
          catalog.staleByLocale[locale]++;
        }
        catalog.counts.files++;
      }
      for (const locale of ['de', 'fr']) if (!locales.includes(locale)) catalog.untranslatedByLocale[locale]++;
      await queue(path.join(decapDir, 'entries', `${id}.md`), decapMarkdown(item, defaultContent));
      catalog.items.push(item);
      catalog.counts.items++;
      catalog.counts[home.kind === 'page' ? 'pages' : home.kind === 'fragment' ? 'fragments' : 'data']++;
    }
  }
  await flush(true);
  catalog.counts.bytes = bytes;
  return catalog;
}

/**
 * The same entry as Decap keeps it: YAML front matter (structured fields as JSON flow values,
 * which YAML reads as they are) and a markdown body.
 */
function decapMarkdown(item, content) {
  const header = [`title: ${JSON.stringify(item.id)}`, `locale: en`];
  if (item.locales.en.pathname) header.push(`pathname: ${JSON.stringify(item.locales.en.pathname)}`);
  let body = '';
  if (content.visualData) header.push(`blocks: ${JSON.stringify(content.visualData.content)}`);
  if (content.data) header.push(`data: ${JSON.stringify(content.data)}`);
  if (content.mdx !== undefined) body = content.mdx;
  return `---\n${header.join('\n')}\n---\n${body}`;
}
