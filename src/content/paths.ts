import path from 'node:path';
import { ID_PATTERN, LOCALE_PATTERN, NAME_PATTERN } from './codes.js';
import type { ContentType, ItemHome } from './types.js';

/**
 * Where items live under the content root, one file per item and locale:
 *   pages/<site>/<collection>/<id>.<locale>.json|mdx
 *   fragments/<collection>/<id>.<locale>.json|mdx
 *   site-fragments/<site>/<collection>/<id>.<locale>.json|mdx
 *   data/<collection>/<id>.<locale>.json
 */
export const TOP_FOLDERS = {
  pages: 'pages',
  fragments: 'fragments',
  siteFragments: 'site-fragments',
  data: 'data',
} as const;

export function itemFolder(home: ItemHome): string {
  switch (home.kind) {
    case 'page':
      return path.join(TOP_FOLDERS.pages, home.site!, home.collection);
    case 'fragment':
      return home.site
        ? path.join(TOP_FOLDERS.siteFragments, home.site, home.collection)
        : path.join(TOP_FOLDERS.fragments, home.collection);
    case 'data':
      return path.join(TOP_FOLDERS.data, home.collection);
  }
}

export const extensionOf = (type: ContentType) => (type === 'mdx' ? 'mdx' : 'json');

export function localeFilePath(root: string, home: ItemHome, id: string, locale: string, type: ContentType): string {
  return path.join(root, itemFolder(home), `${id}.${locale}.${extensionOf(type)}`);
}

export interface ParsedContentPath extends ItemHome {
  id: string;
  locale: string;
  extension: 'json' | 'mdx';
}

/** Reads a path relative to the content root; anything that is not a content file (temp files included) gives null. */
export function parseContentPath(relative: string): ParsedContentPath | null {
  const parts = relative.split(path.sep);
  const fileMatch = /^([^.]+)\.([^.]+)\.(json|mdx)$/.exec(parts.at(-1) ?? '');
  if (!fileMatch) return null;
  const [, id, locale, extension] = fileMatch as unknown as [string, string, string, 'json' | 'mdx'];
  if (!ID_PATTERN.test(id) || !LOCALE_PATTERN.test(locale)) return null;
  const folders = parts.slice(0, -1);
  if (!folders.slice(1).every((folder) => NAME_PATTERN.test(folder))) return null;
  const base = { id, locale, extension };
  if (folders[0] === TOP_FOLDERS.pages && folders.length === 3)
    return { ...base, kind: 'page', site: folders[1], collection: folders[2] };
  if (folders[0] === TOP_FOLDERS.fragments && folders.length === 2)
    return { ...base, kind: 'fragment', collection: folders[1] };
  if (folders[0] === TOP_FOLDERS.siteFragments && folders.length === 3)
    return { ...base, kind: 'fragment', site: folders[1], collection: folders[2] };
  if (folders[0] === TOP_FOLDERS.data && folders.length === 2 && extension === 'json')
    return { ...base, kind: 'data', collection: folders[1] };
  return null;
}
