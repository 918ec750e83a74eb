import { findNamed } from './names.js';
import type { Item } from './types.js';

export type FragmentScope = 'global' | 'site';

const namesOf = (item: Item) =>
  new Set([...item.locales.values()].map((stored) => stored.file.name).filter((name) => name !== undefined));

/**
 * The fragments visible from a site: the site's own, plus the global ones that no site fragment
 * of the same collection and name shadows. Without a site: the global fragments.
 */
export function fragmentsInScope(
  fragments: Item[],
  site: string | undefined,
): Array<{ item: Item; scope: FragmentScope }> {
  const global = fragments.filter((item) => item.site === undefined);
  if (site === undefined) return global.map((item) => ({ item, scope: 'global' }));
  const own = fragments.filter((item) => item.site === site);
  const shadowed = new Set(own.flatMap((item) => [...namesOf(item)].map((name) => `${item.collection}/${name}`)));
  const visible = global.filter(
    (item) => ![...namesOf(item)].some((name) => shadowed.has(`${item.collection}/${name}`)),
  );
  return [
    ...own.map((item) => ({ item, scope: 'site' as const })),
    ...visible.map((item) => ({ item, scope: 'global' as const })),
  ].sort((a, b) => (a.item.id < b.item.id ? -1 : 1));
}

/** A fragment by name: the site's own first (when a site is given), then the global one. */
export function findFragment(
  items: Iterable<Item>,
  collection: string,
  name: string,
  site: string | undefined,
): Item | undefined {
  const all = [...items];
  return (
    (site !== undefined ? findNamed(all, { kind: 'fragment', site, collection }, name) : undefined) ??
    findNamed(all, { kind: 'fragment', collection }, name)
  );
}
