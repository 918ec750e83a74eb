import { isPublished } from '../content/filters.js';
import type { Item } from '../content/types.js';
import { type SitesConfig, siteNamed } from './sites-config.js';

export interface UntranslatedOptions {
  excludeSites: string[];
  includeUnpublished: boolean;
  now: number;
}

/**
 * Whether an item lacks `locale` although its scope has it: pages (and site fragments) of sites
 * that list the locale, global fragments and data entries when `globalLocales` does. Items with no
 * published locale only when asked for.
 */
export function isUntranslated(item: Item, config: SitesConfig, locale: string, options: UntranslatedOptions): boolean {
  if (item.locales.has(locale)) return false;
  if (item.site !== undefined) {
    if (options.excludeSites.includes(item.site) || !siteNamed(config, item.site)?.locales.includes(locale))
      return false;
  } else if (!config.globalLocales.includes(locale)) {
    return false;
  }
  return (
    options.includeUnpublished || [...item.locales.values()].some((stored) => isPublished(stored.file, options.now))
  );
}
