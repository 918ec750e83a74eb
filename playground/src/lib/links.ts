import type { CollectionEntry } from 'astro:content';
import { urlOf } from './urls';

export type Link = (href: string) => string;

/**
 * Content links name pathnames of the page's own site and locale (`/preise` in German marketing
 * content); this maps those to their playground URLs (`/de/preise`) and leaves other links alone.
 */
export function linkerFor(pages: CollectionEntry<'pages'>[], site: string, locale: string): Link {
  const known = new Map<string, string>();
  for (const page of pages) {
    if (page.data.site === site && page.data.locale === locale)
      known.set(page.data.pathname, urlOf(site, locale, page.data.pathname));
  }
  return (href) => {
    const match = /^(\/(?!\/)[^?#]*)(.*)$/.exec(href);
    if (!match) return href;
    const target = known.get(match[1]!);
    return target ? `${target}${match[2]}` : href;
  };
}
