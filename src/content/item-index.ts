import type { ContentType, Item, ItemHome, StoredLocale } from './types.js';

const sameHome = (a: ItemHome, b: ItemHome) => a.kind === b.kind && a.site === b.site && a.collection === b.collection;

/** Every item in memory, keyed by ID, with each item's list manifest cached until the item changes. */
export class ItemIndex {
  readonly items = new Map<string, Item>();
  readonly #manifests = new Map<string, string>();
  /** Bumped on every change, so values derived from all items know when to recompute. */
  version = 0;
  /** Items in ID order; dropped only when an item comes or goes, not on every edit. */
  #sorted: Item[] | null = null;

  get(id: string): Item | undefined {
    return this.items.get(id);
  }

  /**
   * Records a locale. Returns false when the ID already belongs to an item elsewhere (another
   * folder or type): IDs are unique across the content root, so the later file is ignored.
   */
  setLocale(home: ItemHome, id: string, type: ContentType, locale: string, stored: StoredLocale): boolean {
    let item = this.items.get(id);
    if (item && (!sameHome(item, home) || item.type !== type)) {
      const onlyThisFile = item.locales.size === 1 && item.locales.get(locale)?.path === stored.path;
      if (!onlyThisFile) return false;
      item = undefined;
    }
    if (!item) {
      item = { id, type, kind: home.kind, collection: home.collection, ...(home.site ? { site: home.site } : {}), locales: new Map() };
      this.items.set(id, item);
      this.#sorted = null;
    }
    item.locales.set(locale, stored);
    this.#manifests.delete(id);
    this.version++;
    return true;
  }

  /** Forgets a locale if it is still the one stored at `path` (and says whether it did); an item with no locales left is gone. */
  removeLocale(id: string, locale: string, path?: string): boolean {
    const item = this.items.get(id);
    const stored = item?.locales.get(locale);
    if (!item || !stored || (path && stored.path !== path)) return false;
    item.locales.delete(locale);
    this.#manifests.delete(id);
    this.version++;
    if (item.locales.size === 0) {
      this.items.delete(id);
      this.#sorted = null;
    }
    return true;
  }

  sorted(): readonly Item[] {
    this.#sorted ??= [...this.items.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
    return this.#sorted;
  }

  /** Every (id, locale) whose file lies under `folder`. */
  *localesUnder(folder: string): Generator<[string, string]> {
    for (const item of this.items.values()) {
      for (const [locale, stored] of item.locales) if (stored.path.startsWith(folder)) yield [item.id, locale];
    }
  }

  /** An item's list manifest as ASCII-only JSON, rendered once per change of the item. */
  cachedManifest(id: string, render: () => string): string {
    let json = this.#manifests.get(id);
    if (json === undefined) {
      json = asciiJson(render());
      this.#manifests.set(id, json);
    }
    return json;
  }
}

/**
 * JSON with every non-ASCII character written as a \u escape: V8 keeps such a string in one byte
 * per character, and a multi-megabyte list answer built from them is sent about twice as fast as
 * the same text with é or ü in it (measured: 4 ms against 10 ms for 3.5 MB), for ~1% more bytes.
 */
function asciiJson(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
