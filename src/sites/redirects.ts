import { isValidPathname, pathnameKey } from '../content/codes.js';
import type { Derivation } from '../content/store.js';
import type { Item } from '../content/types.js';

export interface Redirect {
  site: string;
  locale: string;
  from: string;
  to: string;
  id: string;
}

/**
 * Redirects from every page's previous pathnames to its current one. A redirect always points at
 * a pathname in use and never starts from one, so there are no chains and no loops; a pathname
 * another page now uses has no redirect; two pages that left the same pathname: the later move wins.
 * A pathname that is not a path on the site (a hand-edited or pulled file) takes part in none.
 */
function computeRedirects(items: Iterable<Item>): Redirect[] {
  const inUse = new Set<string>();
  const pages: Item[] = [];
  for (const item of items) {
    if (item.kind !== 'page') continue;
    pages.push(item);
    for (const [locale, stored] of item.locales)
      inUse.add(`${item.site}\0${locale}\0${pathnameKey(stored.file.pathname!)}`);
  }
  const chosen = new Map<string, Redirect & { modified: string }>();
  for (const item of pages) {
    for (const [locale, stored] of item.locales) {
      const { pathname, previousPathnames, modified } = stored.file;
      if (pathname === undefined || !isValidPathname(pathname)) continue;
      for (const from of previousPathnames ?? []) {
        if (!isValidPathname(from)) continue;
        const key = `${item.site}\0${locale}\0${pathnameKey(from)}`;
        if (inUse.has(key) || (chosen.get(key)?.modified ?? '') > modified) continue;
        chosen.set(key, { site: item.site!, locale, from, to: pathname, id: item.id, modified });
      }
    }
  }
  return [...chosen.values()]
    .map(({ modified: _modified, ...redirect }) => redirect)
    .sort((a, b) => a.site.localeCompare(b.site) || a.locale.localeCompare(b.locale) || a.from.localeCompare(b.from));
}

/**
 * All redirects, and the same by `from` pathname (in `pathnameKey` form) for the site's request
 * middleware: derived once per index change.
 */
function computeRedirectIndex(items: Iterable<Item>): { list: Redirect[]; byPathname: Map<string, Redirect[]> } {
  const list = computeRedirects(items);
  const byPathname = new Map<string, Redirect[]>();
  for (const redirect of list) {
    const key = pathnameKey(redirect.from);
    byPathname.set(key, [...(byPathname.get(key) ?? []), redirect]);
  }
  return { list, byPathname };
}

/** The redirect index as the store derives and keeps it. */
export const REDIRECT_INDEX: Derivation<ReturnType<typeof computeRedirectIndex>> = {
  name: 'redirects',
  compute: computeRedirectIndex,
};
