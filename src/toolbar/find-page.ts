import type { QuireClient } from '../client/client.js';
import type { ContentManifest, LocaleManifest } from '../client/types.js';
import { isPublished } from '../content/filters.js';
import { comparableUrl, type PreviewOption, previewUrl } from '../sites/preview-url.js';

export interface FoundPage {
  item: ContentManifest;
  site: string;
  locale: string;
}

/**
 * The page item and locale whose preview URL is this page's URL: the same rule the editor's
 * preview uses (the locale's domain, or the locale prefix, or the owner's template), run backwards
 * by comparing, over every page of every site and locale.
 */
export async function findPage(
  client: QuireClient,
  href: string,
  preview: PreviewOption,
): Promise<FoundPage | undefined> {
  const here = comparableUrl(href);
  const origin = new URL(href).origin;
  const sites = await client.sites.get();
  for (const [site, config] of Object.entries(sites.sites)) {
    for (const locale of config.locales) {
      const { items } = await client.sites.pages(site, { locale });
      for (const item of items) {
        const url = previewUrl(item, locale, sites, preview, origin);
        if (url && comparableUrl(url) === here) return { item, site, locale };
      }
    }
  }
  return undefined;
}

/** The locale's state in words: published, scheduled, unpublished; and stale when its source changed. */
export function stateWords(record: LocaleManifest, now = Date.now()): string {
  const publication = isPublished(record, now)
    ? 'published'
    : record.publishAt && Date.parse(record.publishAt) > now
      ? `scheduled for ${new Date(record.publishAt).toLocaleString()}`
      : 'unpublished';
  const inheritance = record.inheritance;
  if (!inheritance) return publication;
  if (inheritance.state === 'customized') return `${publication}, customized translation`;
  return `${publication}, ${inheritance.stale ? 'stale (its source changed since)' : 'inherited'}`;
}
