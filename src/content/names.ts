import type { Item, ItemHome } from './types.js';

/** Whether any locale of the item (or the given locale only) carries this name. */
export function hasName(item: Item, name: string, locale?: string): boolean {
  if (locale !== undefined) return item.locales.get(locale)?.file.name === name;
  for (const stored of item.locales.values()) if (stored.file.name === name) return true;
  return false;
}

/** The item in this scope (kind, site or global, collection) named `name`, other than `exceptId`. */
export function findNamed(
  items: Iterable<Item>,
  home: ItemHome,
  name: string,
  options: { exceptId?: string; locale?: string } = {},
): Item | undefined {
  for (const item of items) {
    if (
      item.kind === home.kind &&
      item.site === home.site &&
      item.collection === home.collection &&
      item.id !== options.exceptId &&
      hasName(item, name, options.locale)
    )
      return item;
  }
  return undefined;
}
