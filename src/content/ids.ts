import type { Kind } from './types.js';

/** IDs that would shadow a fixed `/content/...` route. */
const RESERVED_IDS = new Set(['collections', 'needs-review', 'batch']);

/** A readable slug: a page's pathname ('/about/team' → 'about-team', '/' → 'home'), else its name or collection. */
export function idBase(kind: Kind, source: { pathname?: string; name?: string; collection: string }): string {
  const text = kind === 'page' && source.pathname !== undefined ? (source.pathname === '/' ? 'home' : source.pathname) : (source.name ?? source.collection);
  const slug = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60).replace(/-+$/, '');
  return slug || kind;
}

/** The base itself when free, else base-2, base-3, … */
export function uniqueId(base: string, taken: (id: string) => boolean): string {
  const free = (id: string) => !RESERVED_IDS.has(id) && !taken(id);
  if (free(base)) return base;
  for (let n = 2; ; n++) if (free(`${base}-${n}`)) return `${base}-${n}`;
}
