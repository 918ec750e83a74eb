import type { IndexedFile, Item, ItemHome, StoredLocale } from '../../src/content/types.js';

/** A locale as the index holds it, from the few file fields a test cares about. */
export function stored(file: Partial<IndexedFile> = {}, etags: { meta?: string; content?: string } = {}): StoredLocale {
  return {
    file: { created: '2026-01-01T00:00:00Z', modified: '2026-01-01T00:00:00Z', meta: {}, ...file },
    metaEtag: etags.meta ?? 'm',
    contentEtag: etags.content ?? 'c',
    path: '/nowhere',
    signature: '',
  };
}

/** An item of the index, without files: `locales` maps each code to its file fields. */
export function item(
  id: string,
  home: Partial<ItemHome> & { type?: Item['type'] },
  locales: Record<string, Partial<IndexedFile>>,
): Item {
  return {
    id,
    kind: home.kind ?? 'page',
    collection: home.collection ?? 'pages',
    ...(home.site !== undefined && { site: home.site }),
    type: home.type ?? 'visual',
    locales: new Map(Object.entries(locales).map(([locale, file]) => [locale, stored(file)])),
  };
}
