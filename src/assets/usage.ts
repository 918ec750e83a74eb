import type { ReferenceFinder } from '../content/sync.js';
import type { AssetReference, Item } from '../content/types.js';
import type { AssetUsage } from './types.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const childField = (base: string, key: string) =>
  IDENTIFIER.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where the API serves the media library's files: an asset's URL is this followed by its path. */
export const servePrefixOf = (apiPrefix: string) => `${apiPrefix}/assets/serve/`;

/**
 * Finds asset references in content. A reference is the whole serve URL of an asset
 * (`<servePrefix><path>`, optionally with `?query` or `#hash`), as a complete string value in meta,
 * visual data or data JSON, or as a link or image target in MDX (`](url)`, `src="url"`,
 * `href={'url'}`, `[id]: url`). The path must match exactly: `cat.png` never matches `bobcat.png`.
 * Used for the library's usage answers and by the content loader (images through `astro:assets`).
 */
export function createReferenceFinder(servePrefix: string) {
  // In MDX a reference is a link or image target (`](url`, `](<url>`, `[id]: url`) or a JSX attribute
  // value (`src="url"`, `href={'url'}`); it runs to the first character that closes one. Bare text is no reference.
  const inMdx = new RegExp(`(?:\\]\\(\\s*|\\]:\\s*|[<"'\`={])(${escapeRegExp(servePrefix)}[^\\s)"'\`<>\\]}]+)`, 'g');

  /** The asset path a string refers to (decoded, segments joined by `/`), if it is exactly a serve URL. */
  function assetPathOf(value: string): string | undefined {
    if (!value.startsWith(servePrefix)) return undefined;
    const rest = value.slice(servePrefix.length).split(/[?#]/, 1)[0]!;
    if (rest === '') return undefined;
    try {
      const segments = rest.split('/').map((segment) => decodeURIComponent(segment));
      return segments.some((segment) => segment === '' || segment === '.' || segment === '..')
        ? undefined
        : segments.join('/');
    } catch {
      return undefined;
    }
  }

  function scanJson(value: unknown, field: string, found: (path: string, field: string) => void): void {
    if (typeof value === 'string') {
      const asset = assetPathOf(value);
      if (asset) found(asset, field);
    } else if (Array.isArray(value)) {
      for (const [position, entry] of value.entries()) scanJson(entry, `${field}[${position}]`, found);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, entry] of Object.entries(value)) scanJson(entry, childField(field, key), found);
    }
  }

  function scanMdx(text: string, field: string, found: (path: string, field: string) => void): void {
    for (const match of text.matchAll(inMdx)) {
      const asset = assetPathOf(match[1]!);
      if (asset) found(asset, field);
    }
  }

  return { assetPathOf, scanJson, scanMdx };
}

/**
 * The asset references in a locale's content, found once when the index reads its file (the
 * content is not kept in memory; its references are, for the usage answers).
 */
export function createContentReferences(servePrefix: string): ReferenceFinder {
  const { scanJson, scanMdx } = createReferenceFinder(servePrefix);
  return (content) => {
    const references: AssetReference[] = [];
    const found = (asset: string, field: string) => references.push({ asset, field });
    if (content.visualData !== undefined) scanJson(content.visualData, 'content.visualData', found);
    if (content.data !== undefined) scanJson(content.data, 'content.data', found);
    if (typeof content.mdx === 'string') scanMdx(content.mdx, 'content.mdx', found);
    return references;
  };
}

/** asset path → where it is used, over every locale of every item (an inherited locale's content is its source's, so only its meta is its own). */
export function createUsageScanner(servePrefix: string) {
  const { scanJson } = createReferenceFinder(servePrefix);
  /** With `only`, the usage of that one asset alone. */
  return function computeUsage(items: Iterable<Item>, only?: string): Map<string, AssetUsage[]> {
    const usage = new Map<string, AssetUsage[]>();
    for (const item of items) {
      for (const [locale, stored] of item.locales) {
        const seen = new Set<string>();
        const found = (asset: string, field: string) => {
          if (only !== undefined && asset !== only) return;
          const key = `${asset}\u0000${field}`;
          if (seen.has(key)) return;
          seen.add(key);
          const list = usage.get(asset) ?? [];
          usage.set(asset, list);
          list.push({ page: item.id, locale, field });
        };
        scanJson(stored.file.meta, 'meta', found);
        for (const { asset, field } of stored.references ?? []) found(asset, field);
      }
    }
    // Stable: within one locale, references stay in the order they appear.
    const order = (a: AssetUsage, b: AssetUsage) =>
      a.page === b.page ? (a.locale === b.locale ? 0 : a.locale < b.locale ? -1 : 1) : a.page < b.page ? -1 : 1;
    for (const list of usage.values()) list.sort(order);
    return usage;
  };
}
