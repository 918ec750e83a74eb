import { filterInSlices, forEachInSlices } from '../util/event-loop-slices.js';
import { insertionPoint } from '../util/insertion-point.js';
import type { ItemIndex } from './item-index.js';
import type { Item } from './types.js';

/**
 * At most this many answers are kept, whatever their size: many tiny answers fit any budget, and
 * each write's change is kept for every selection that has not caught up with it yet.
 */
const MAX_ENTRIES = 1024;

/**
 * How many changed IDs are kept for selections to catch up with when next asked. A selection
 * that falls further behind (nobody asked for it during that many writes) is dropped: asked
 * again, it is computed afresh, which costs about what catching up with that many changes would.
 */
const MAX_PENDING_CHANGES = 8192;

/** The default budget of everything derived from all items: answers beyond it are recomputed when asked again. */
export const DEFAULT_DERIVED_CACHE_BYTES = 64 * 1024 * 1024;

/** The earliest publishAt/unpublishAt of an item after `now` (Infinity if none). */
function itemPublicationChange(item: Item, now: number): number {
  let next = Infinity;
  for (const { file } of item.locales.values()) {
    for (const date of [file.publishAt, file.unpublishAt]) {
      const at = date ? Date.parse(date) : NaN;
      if (at > now && at < next) next = at;
    }
  }
  return next;
}

/**
 * The earliest publishAt/unpublishAt after `now` (Infinity if none): until then, every "published"
 * answer holds. A pass over every item, in slices.
 */
export async function nextPublicationChange(index: ItemIndex, now: number): Promise<number> {
  let next = Infinity;
  await forEachInSlices(index.items.values(), (item) => {
    next = Math.min(next, itemPublicationChange(item, now));
  });
  return next;
}

// What V8 spends on a value, roughly: object and array headers, a pointer per slot, strings one
// byte per character when they are Latin-1 (two otherwise). An estimate that errs high is enough
// for a budget; it is taken once per computed value, which already cost a pass over all items.
const HEADER_BYTES = 24;
const SLOT_BYTES = 8;
const TWO_BYTE = /[^\u0000-\u00ff]/;

/** The approximate heap bytes of a value, counting each object once however often it is referenced. */
export function approximateBytes(value: unknown, seen = new Set<object>()): number {
  if (typeof value === 'string') return HEADER_BYTES + value.length * (TWO_BYTE.test(value) ? 2 : 1);
  if (typeof value !== 'object' || value === null) return SLOT_BYTES;
  if (seen.has(value)) return 0;
  seen.add(value);
  let bytes = HEADER_BYTES;
  if (value instanceof Map) {
    for (const [key, entry] of value)
      bytes += 3 * SLOT_BYTES + approximateBytes(key, seen) + approximateBytes(entry, seen);
  } else if (value instanceof Set) {
    for (const entry of value) bytes += 2 * SLOT_BYTES + approximateBytes(entry, seen);
  } else if (Array.isArray(value)) {
    for (const entry of value) bytes += SLOT_BYTES + approximateBytes(entry, seen);
  } else {
    for (const [key, entry] of Object.entries(value))
      bytes += SLOT_BYTES + approximateBytes(key, seen) + approximateBytes(entry, seen);
  }
  return bytes;
}

/** Whether an item belongs to a selection, at `now`; it depends on nothing but the item (and what the key names). */
export type ItemMatcher = (item: Item, now: number) => boolean;

/** A selection of the ID-ordered items, kept as their IDs and updated item by item. */
interface Selection {
  matches: ItemMatcher;
  /**
   * Never changed in place: replaced when an item joins, leaves or changes, so an answer still
   * being rendered keeps the IDs it was given, and the array stands for one version of the answer.
   */
  ids: readonly string[];
  /** How many changes of the index (counted by the cache) `ids` includes. */
  synced: number;
}

type Entry = { bytes: number } & ({ value: unknown } | { selection: Selection });

const selectionBytes = (key: string, { ids }: Selection) =>
  approximateBytes(key) + HEADER_BYTES + SLOT_BYTES * ids.length;

const itself = (id: string) => id;

/**
 * Values computed from all items (list answers, redirects, asset usage), kept until a publication
 * date passes, within a byte budget: past it the least recently used are dropped, so any number of
 * distinct queries costs bounded memory. When an item changes, a value computed from all items is
 * dropped at once, and a selection (a list of items that each match on their own) re-checks only
 * the items changed since it was last asked, when it is next asked: a write costs a list a look at
 * the changed items, not a pass over all of them, and costs the writer nothing per kept selection.
 */
export function createDerivedCache(index: ItemIndex, budgetBytes = DEFAULT_DERIVED_CACHE_BYTES) {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  /** Until when every kept answer holds (the next publication date); null when nothing is kept. */
  let boundary: { from: number; at: number } | null = null;
  /** How many changes the index has had while anything was kept; `pending` holds the IDs of the latest ones. */
  let changes = 0;
  let pending: string[] = [];
  /** The keys of the values computed from all items (not selections): any change drops them. */
  const valueKeys = new Set<string>();
  /** Selections being computed, in slices: asked again meanwhile, the same computation answers. */
  const computing = new Map<string, Promise<readonly string[]>>();
  /** Bumped when every answer is dropped (a publication date passed): a selection computed across it is computed again. */
  let generation = 0;
  let boundaryComputing: Promise<{ from: number; at: number }> | null = null;
  /** While the boundary is computed in slices: the items changed meanwhile, looked at again at its end. */
  let changedDuringBoundary: Set<string> | null = null;

  const clear = () => {
    entries.clear();
    valueKeys.clear();
    bytes = 0;
    boundary = null;
    pending = [];
    generation++;
  };

  function drop(key: string, entry: Entry) {
    entries.delete(key);
    valueKeys.delete(key);
    bytes -= entry.bytes;
  }

  function resize(key: string, entry: Entry, size: number) {
    bytes += size - entry.bytes;
    entry.bytes = size;
    if (size > budgetBytes) drop(key, entry);
    for (const [oldest, other] of entries) {
      if (bytes <= budgetBytes && entries.size <= MAX_ENTRIES) break;
      drop(oldest, other);
    }
  }

  index.onChange((id) => {
    changedDuringBoundary?.add(id);
    if (entries.size === 0 && computing.size === 0) return;
    const item = index.get(id);
    if (boundary && item) boundary.at = Math.min(boundary.at, itemPublicationChange(item, Date.now()));
    changes++;
    pending.push(id);
    const laggingBehind = pending.length > MAX_PENDING_CHANGES;
    if (laggingBehind) pending = pending.slice(-MAX_PENDING_CHANGES);
    for (const key of valueKeys) drop(key, entries.get(key)!);
    if (!laggingBehind) return;
    const oldestPending = changes - pending.length;
    for (const [key, entry] of entries) {
      if ('selection' in entry && entry.selection.synced < oldestPending) drop(key, entry);
    }
  });

  /**
   * Takes in the items changed since the selection was last asked, each once, at their current
   * state. True when a listed item changed (its manifest may differ) or one joined or left: then
   * `ids` is a new array, so whatever was rendered from the old one (keyed by it) is not used again.
   */
  function catchUp(selection: Selection, now: number): boolean {
    if (selection.synced === changes) return false;
    const changed = new Set(pending.slice(pending.length - (changes - selection.synced)));
    selection.synced = changes;
    let ids: string[] | undefined;
    for (const id of changed) {
      const current = ids ?? selection.ids;
      const at = insertionPoint(current, id, itself);
      const listed = current[at] === id;
      const item = index.get(id);
      const belongs = item !== undefined && selection.matches(item, now);
      if (!belongs && !listed) continue;
      ids ??= selection.ids.slice();
      if (belongs && !listed) ids.splice(at, 0, id);
      else if (!belongs) ids.splice(at, 1);
    }
    if (ids) selection.ids = ids;
    return ids !== undefined;
  }

  /** Drops every answer once a publication date passed (or the clock went back): none of them still holds. */
  async function checkBoundary(now: number): Promise<void> {
    if (boundary && (now >= boundary.at || now < boundary.from)) clear();
    if (boundary) return;
    boundaryComputing ??= (async () => {
      changedDuringBoundary = new Set();
      try {
        let at = await nextPublicationChange(index, now);
        for (const id of changedDuringBoundary) {
          const item = index.get(id);
          if (item) at = Math.min(at, itemPublicationChange(item, now));
        }
        return { from: now, at };
      } finally {
        changedDuringBoundary = null;
        boundaryComputing = null;
      }
    })();
    const computed = await boundaryComputing;
    boundary ??= computed;
  }

  /** The entry under `key`, moved to the most recently used end. */
  function touch(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (entry) {
      entries.delete(key);
      entries.set(key, entry);
    }
    return entry;
  }

  async function get<T>(key: string, compute: () => T): Promise<T> {
    await checkBoundary(Date.now());
    const cached = touch(key);
    if (cached && 'value' in cached) return cached.value as T;
    const value = compute();
    // A value larger than the whole budget is answered but not kept: it would push out everything else.
    const entry = { value, bytes: 0 };
    entries.set(key, entry);
    valueKeys.add(key);
    resize(key, entry, approximateBytes(key) + approximateBytes(value));
    return value;
  }

  /**
   * The IDs of the items that match (`matcher` is made once per entry), in ID order; never changed
   * once returned, and the same array as long as none of those items changed and none joined.
   */
  async function selection(key: string, matcher: () => ItemMatcher): Promise<readonly string[]> {
    const now = Date.now();
    await checkBoundary(now);
    const cached = touch(key);
    if (cached && 'selection' in cached) {
      if (catchUp(cached.selection, now)) resize(key, cached, selectionBytes(key, cached.selection));
      return cached.selection.ids;
    }
    let answer = computing.get(key);
    if (!answer) {
      answer = computeSelection(key, matcher()).finally(() => computing.delete(key));
      computing.set(key, answer);
    }
    return answer;
  }

  /**
   * A pass over every item, in slices, so that no request waits on a first list of 100k items.
   * Items that change meanwhile are taken in as a kept selection takes them in when next asked;
   * when that is no longer possible (too many changes, or a publication date passed), it starts over.
   */
  async function computeSelection(key: string, matches: ItemMatcher): Promise<readonly string[]> {
    for (;;) {
      const now = Date.now();
      await checkBoundary(now);
      const from = { changes, generation };
      const items = await filterInSlices(await index.sortedInSlices(), (item) => matches(item, now));
      if (generation !== from.generation || changes - from.changes > pending.length) continue;
      const entry = { selection: { matches, ids: items.map((item) => item.id), synced: from.changes }, bytes: 0 };
      catchUp(entry.selection, now);
      entries.set(key, entry);
      resize(key, entry, selectionBytes(key, entry.selection));
      return entry.selection.ids;
    }
  }

  return {
    get,
    selection,
    /** The estimated bytes of the values kept now. */
    get bytes() {
      return bytes;
    },
    /** How many values are kept now. */
    get size() {
      return entries.size;
    },
  };
}

export type DerivedCache = ReturnType<typeof createDerivedCache>;
