import type { ContentType, Item, Kind, LocaleFile } from './types.js';

export interface ListFilters {
  kind?: Kind;
  site?: string;
  collection?: string;
  type?: ContentType;
  locales?: string[];
  published?: boolean;
  localization?: 'complete' | 'partial' | 'one';
  missingLocales?: string[];
}

/** Published at `now`: publishAt unset or reached, and unpublishAt unset or not yet reached. */
export function isPublished(file: Pick<LocaleFile, 'publishAt' | 'unpublishAt'>, now: number): boolean {
  return (
    (!file.publishAt || Date.parse(file.publishAt) <= now) && (!file.unpublishAt || Date.parse(file.unpublishAt) > now)
  );
}

/** Every filter given must hold; inherited locales count as present (docs/interface.md, "Publication and filters"). */
export function matchesFilters(
  item: Item,
  filters: ListFilters,
  expectedLocales: readonly string[],
  now: number,
): boolean {
  if (filters.kind && item.kind !== filters.kind) return false;
  if (filters.site !== undefined && item.site !== filters.site) return false;
  if (filters.collection !== undefined && item.collection !== filters.collection) return false;
  if (filters.type && item.type !== filters.type) return false;
  if (filters.locales && !filters.locales.some((locale) => item.locales.has(locale))) return false;
  if (filters.missingLocales?.some((locale) => item.locales.has(locale))) return false;
  if (filters.localization) {
    const present = item.locales.size;
    const complete = expectedLocales.every((locale) => item.locales.has(locale));
    const fits =
      filters.localization === 'complete'
        ? complete
        : filters.localization === 'one'
          ? present === 1
          : present > 1 && !complete;
    if (!fits) return false;
  }
  if (filters.published !== undefined) {
    const considered = filters.locales
      ? filters.locales.filter((locale) => item.locales.has(locale))
      : [...item.locales.keys()];
    const anyPublished = considered.some((locale) => isPublished(item.locales.get(locale)!.file, now));
    if (anyPublished !== filters.published) return false;
  }
  return true;
}
