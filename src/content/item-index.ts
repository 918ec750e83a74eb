import { relative } from 'node:path';
import { sortInSlices } from '../util/event-loop-slices.js';
import { insertionPoint } from '../util/insertion-point.js';
import { uniqueId } from './ids.js';
import { itemFolder } from './paths.js';
import type { ContentType, Item, ItemHome, StoredLocale } from './types.js';

/** A locale file whose ID is served by an item of another folder or type: kept aside, not served. */
interface HiddenClaim {
  home: ItemHome;
  type: ContentType;
  locale: string;
  stored: StoredLocale;
}

/** Files that claim one ID for different items, as absolute paths: which are served and which are not. */
export interface IdClash {
  id: string;
  served: string[];
  ignored: string[];
}

/** When one claimant of an ID just hid another: one file of each. */
export interface ClashNotice {
  id: string;
  served: string;
  ignored: string;
}

/** The log line for a clash: both files, which one is served, and what to do. */
export function describeClash({ id, served, ignored }: ClashNotice, root: string): string {
  const [kept, other] = [served, ignored].map((file) => relative(root, file));
  // A suggestion in the current scheme: `<id>-2` could be taken on another clone just the same.
  const fresh = uniqueId(id.slice(0, 83), () => false);
  return (
    `ID clash: ${kept} and ${other} both claim the ID "${id}". Serving ${kept} (its folder sorts first, so every server ` +
    `at this commit serves the same one) and ignoring ${other}. To keep both, rename the ignored item's files (every locale) ` +
    `to a new ID, e.g. ${fresh}, and commit.`
  );
}

const sameClaim = (a: ItemHome & { type: ContentType }, b: ItemHome, type: ContentType) =>
  a.kind === b.kind && a.site === b.site && a.collection === b.collection && a.type === type;

/**
 * The order in which claimants of one ID win: by folder, then type. It depends only on the files,
 * so every server at the same commit serves the same one, whatever order it read them in.
 */
const claimRank = (home: ItemHome, type: ContentType) => `${itemFolder(home)}\0${type}`;

const byId = (a: Item, b: Item) => (a.id < b.id ? -1 : 1);

const idOf = (item: Item) => item.id;

/** Every item in memory, keyed by ID, with each item's list manifest cached until the item changes. */
export class ItemIndex {
  readonly items = new Map<string, Item>();
  readonly #manifests = new Map<string, string>();
  /** ID → path → a file that claims the ID of a served item of another folder or type. */
  readonly #hidden = new Map<string, Map<string, HiddenClaim>>();
  /** Bumped on every change, so values derived from all items know when to recompute. */
  version = 0;
  readonly #listeners = new Set<(id: string) => void>();
  /**
   * Items in ID order, sorted when first asked for and then kept in order as items come and go.
   * Never changed in place (an item coming or going makes a new array), so a pass over it may await.
   */
  #sorted: readonly Item[] | null = null;
  #sorting: Promise<readonly Item[]> | null = null;
  /** Bumped when an item comes or goes, so a sort in slices knows whether what it sorted is still the set of items. */
  #membership = 0;

  /**
   * Calls `listener` with the changed item's ID after every change, synchronously (several times
   * for one write that touches several records): for a reader that mirrors the index, such as the
   * content loader in dev. Returns the function that stops the calls.
   */
  onChange(listener: (id: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(id: string): void {
    this.version++;
    for (const listener of this.#listeners) listener(id);
  }

  get(id: string): Item | undefined {
    return this.items.get(id);
  }

  /** The record of the file at `path` for this ID and locale, served or hidden. */
  storedAt(id: string, locale: string, path: string): StoredLocale | undefined {
    const served = this.items.get(id)?.locales.get(locale);
    return served?.path === path ? served : this.#hidden.get(id)?.get(path)?.stored;
  }

  /**
   * Records a locale. IDs are unique across the content root, so when another folder or type
   * already claims the ID, the claimant that ranks first is served and the other is kept hidden
   * (and comes back if the served one goes); the answer then names one file of each.
   */
  setLocale(home: ItemHome, id: string, type: ContentType, locale: string, stored: StoredLocale): ClashNotice | null {
    this.#unhide(id, stored.path);
    let notice: ClashNotice | null = null;
    const item = this.items.get(id);
    if (item && !sameClaim(item, home, type)) {
      const onlyThisFile = item.locales.size === 1 && item.locales.get(locale)?.path === stored.path;
      const servedPath = [...item.locales.values()][0]!.path;
      if (!onlyThisFile && claimRank(home, type) > claimRank(item, item.type)) {
        this.#hide(id, { home, type, locale, stored });
        return { id, served: servedPath, ignored: stored.path };
      }
      if (!onlyThisFile) {
        for (const [code, other] of item.locales)
          this.#hide(id, { home: item, type: item.type, locale: code, stored: other });
        notice = { id, served: stored.path, ignored: servedPath };
      }
      this.#drop(id);
    }
    this.#serve(home, id, type, locale, stored);
    if (notice) this.#promote(id, home, type);
    return notice;
  }

  /**
   * Forgets a locale if it is still the one stored at `path`, and says whether a served locale went;
   * an item with no locales left is gone (and a hidden claimant may take its place).
   */
  removeLocale(id: string, locale: string, path?: string): boolean {
    if (path !== undefined && this.#unhide(id, path)) return false;
    const item = this.items.get(id);
    const stored = item?.locales.get(locale);
    if (!item || !stored || (path && stored.path !== path)) return false;
    item.locales.delete(locale);
    this.#manifests.delete(id);
    this.#changed(id);
    if (item.locales.size > 0) return true;
    this.#drop(id);
    const claims = [...(this.#hidden.get(id)?.values() ?? [])];
    if (claims.length === 0) return true;
    const first = claims.reduce((best, claim) =>
      claimRank(claim.home, claim.type) < claimRank(best.home, best.type) ? claim : best,
    );
    this.#promote(id, first.home, first.type);
    return true;
  }

  /** Every ID that more than one item claims, with the files served and those ignored (sorted). */
  clashes(): IdClash[] {
    return [...this.#hidden.keys()].sort().map((id) => ({
      id,
      served: [...this.items.get(id)!.locales.values()].map((stored) => stored.path).sort(),
      ignored: [...this.#hidden.get(id)!.keys()].sort(),
    }));
  }

  #serve(home: ItemHome, id: string, type: ContentType, locale: string, stored: StoredLocale): void {
    let item = this.items.get(id);
    if (!item) {
      item = {
        id,
        type,
        kind: home.kind,
        collection: home.collection,
        ...(home.site ? { site: home.site } : {}),
        locales: new Map(),
      };
      this.items.set(id, item);
      this.#membership++;
      if (this.#sorted) this.#sorted = this.#sorted.toSpliced(insertionPoint(this.#sorted, id, idOf), 0, item);
    }
    item.locales.set(locale, stored);
    this.#manifests.delete(id);
    this.#changed(id);
  }

  #drop(id: string): void {
    this.items.delete(id);
    this.#manifests.delete(id);
    this.#membership++;
    const at = this.#sorted ? insertionPoint(this.#sorted, id, idOf) : -1;
    if (this.#sorted?.[at]?.id === id) this.#sorted = this.#sorted.toSpliced(at, 1);
    this.#changed(id);
  }

  #hide(id: string, claim: HiddenClaim): void {
    const claims = this.#hidden.get(id) ?? new Map<string, HiddenClaim>();
    this.#hidden.set(id, claims);
    claims.set(claim.stored.path, claim);
  }

  #unhide(id: string, path: string): boolean {
    const claims = this.#hidden.get(id);
    if (!claims?.delete(path)) return false;
    if (claims.size === 0) this.#hidden.delete(id);
    return true;
  }

  /** Serves the hidden files of one claimant (its other locales) under `id`. */
  #promote(id: string, home: ItemHome, type: ContentType): void {
    for (const claim of [...(this.#hidden.get(id)?.values() ?? [])]) {
      if (!sameClaim({ ...claim.home, type: claim.type }, home, type)) continue;
      this.#unhide(id, claim.stored.path);
      this.#serve(claim.home, id, claim.type, claim.locale, claim.stored);
    }
  }

  sorted(): readonly Item[] {
    this.#sorted ??= [...this.items.values()].sort(byId);
    return this.#sorted;
  }

  /** The same, sorted in slices the first time, so that no request waits on sorting every item at once. */
  async sortedInSlices(): Promise<readonly Item[]> {
    if (this.#sorted) return this.#sorted;
    this.#sorting ??= (async () => {
      // Items that come or go meanwhile make the sort start over; past a few tries, the last one is done at once.
      for (let attempt = 0; attempt < 3 && !this.#sorted; attempt++) {
        const membership = this.#membership;
        const sorted = await sortInSlices([...this.items.values()], byId);
        if (membership === this.#membership) this.#sorted ??= sorted;
      }
      return this.sorted();
    })().finally(() => {
      this.#sorting = null;
    });
    return this.#sorting;
  }

  /** Every (id, locale, path) of a file the index knows, served or hidden. */
  *files(): Generator<[string, string, string]> {
    for (const item of this.items.values()) {
      for (const [locale, stored] of item.locales) yield [item.id, locale, stored.path];
    }
    for (const [id, claims] of this.#hidden) {
      for (const [path, claim] of claims) yield [id, claim.locale, path];
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
