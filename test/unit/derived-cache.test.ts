import { afterEach, describe, expect, it, vi } from 'vitest';
import { approximateBytes, createDerivedCache } from '../../src/content/derived-cache.js';
import { ItemIndex } from '../../src/content/item-index.js';
import type { Item } from '../../src/content/types.js';
import { stored } from './items.js';

const HOME = { kind: 'page' as const, site: 'web', collection: 'pages' };

afterEach(() => {
  vi.useRealTimers();
});

describe('createDerivedCache', () => {
  it('computes once until the index changes', async () => {
    const index = new ItemIndex();
    const cache = createDerivedCache(index);
    let runs = 0;
    const count = () => cache.get('count', () => ++runs);
    expect([await count(), await count()]).toEqual([1, 1]);
    index.setLocale(HOME, 'home', 'visual', 'en', stored({ pathname: '/' }));
    expect(await count()).toBe(2);
    expect(await cache.get('other', () => 'x')).toBe('x');
  });

  it('computes again when a publication date passes, without any change to the index', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-06-01T00:00:00Z') });
    const index = new ItemIndex();
    index.setLocale(HOME, 'later', 'visual', 'en', stored({ pathname: '/later', publishAt: '2026-06-02T00:00:00Z' }));
    const cache = createDerivedCache(index);
    let runs = 0;
    const count = () => cache.get('count', () => ++runs);
    expect(await count()).toBe(1);
    vi.setSystemTime(Date.parse('2026-06-01T23:59:59Z'));
    expect(await count()).toBe(1);
    vi.setSystemTime(Date.parse('2026-06-02T00:00:00Z'));
    expect(await count()).toBe(2);
    expect(cache.size).toBe(1);
  });

  it('keeps many distinct answers within its byte budget, dropping the least recently used', async () => {
    const budget = 100 * 1024;
    const cache = createDerivedCache(new ItemIndex(), budget);
    let runs = 0;
    const answer = (n: number) => cache.get(`list:${n}`, () => `${++runs}:${'x'.repeat(1024)}`);
    let largest = 0;
    for (let n = 0; n < 1000; n++) {
      await answer(n);
      // The first answer is read after every other one: it stays while the others come and go.
      await answer(0);
      largest = Math.max(largest, cache.bytes);
    }
    expect(largest).toBeLessThanOrEqual(budget);
    expect(cache.bytes).toBeGreaterThan(budget / 2);
    expect(cache.size).toBeLessThan(100);
    expect((await answer(0)).startsWith('1:')).toBe(true);
    const before = runs;
    await answer(999);
    expect(runs).toBe(before);
    await answer(1);
    expect(runs).toBe(before + 1);
  });

  it('drops every answer as soon as the index changes, before anyone asks again', async () => {
    const index = new ItemIndex();
    const cache = createDerivedCache(index);
    for (let n = 0; n < 10; n++) await cache.get(`list:${n}`, () => 'y'.repeat(10_000));
    expect(cache.size).toBe(10);
    expect(cache.bytes).toBeGreaterThan(100_000);
    index.setLocale(HOME, 'home', 'visual', 'en', stored({ pathname: '/' }));
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('keeps at most 1,024 answers however small, so that a write re-checks a bounded number', async () => {
    const cache = createDerivedCache(new ItemIndex());
    for (let n = 0; n < 3000; n++) await cache.selection(`empty:${n}`, () => () => false);
    expect(cache.size).toBe(1024);
  });

  it('answers a value larger than the whole budget without keeping it', async () => {
    const cache = createDerivedCache(new ItemIndex(), 1024);
    await cache.get('small', () => 'a');
    let runs = 0;
    const huge = () => cache.get('huge', () => `${++runs}${'z'.repeat(4096)}`);
    expect((await huge()).length).toBe(4097);
    expect((await huge()).startsWith('2')).toBe(true);
    expect(cache.size).toBe(1);
  });
});

describe('a cached selection', () => {
  const render = (ids: readonly string[]) => ids.join(',');

  it('re-checks only the changed items, each once, when next asked, and answers as a recomputation would', async () => {
    const index = new ItemIndex();
    for (const id of ['b', 'd', 'f']) index.setLocale(HOME, id, 'visual', 'en', stored({ pathname: `/${id}` }));
    const cache = createDerivedCache(index);
    let matchers = 0;
    const checked: string[] = [];
    const withGerman = () => {
      matchers++;
      return (item: Item) => {
        checked.push(item.id);
        return item.locales.has('de');
      };
    };
    index.setLocale(HOME, 'd', 'visual', 'de', stored({ pathname: '/d-de' }));
    expect(render(await cache.selection('german', withGerman))).toBe('d');
    checked.length = 0;
    index.setLocale(HOME, 'a', 'visual', 'en', stored({ pathname: '/a' }));
    index.setLocale(HOME, 'a', 'visual', 'de', stored({ pathname: '/a-de' }));
    index.removeLocale('d', 'de');
    index.setLocale(HOME, 'e', 'visual', 'de', stored({ pathname: '/e-de' }));
    // A write costs the writer nothing per kept selection.
    expect(checked).toEqual([]);
    expect(render(await cache.selection('german', withGerman))).toBe('a,e');
    expect(matchers).toBe(1);
    expect(checked).toEqual(['a', 'd', 'e']);
    index.removeLocale('a', 'en');
    index.removeLocale('a', 'de');
    expect(render(await cache.selection('german', withGerman))).toBe('e');
    expect(cache.bytes).toBeGreaterThan(0);
  });

  it('never changes IDs it has handed out: an answer still being sent keeps its own', async () => {
    const index = new ItemIndex();
    for (const id of ['b', 'd']) index.setLocale(HOME, id, 'visual', 'en', stored({ pathname: `/${id}` }));
    const cache = createDerivedCache(index);
    const all = () => () => true;
    const first = await cache.selection('all', all);
    expect(first).toEqual(['b', 'd']);
    index.setLocale(HOME, 'c', 'visual', 'en', stored({ pathname: '/c' }));
    index.removeLocale('b', 'en');
    expect(await cache.selection('all', all)).toEqual(['c', 'd']);
    expect(first).toEqual(['b', 'd']);
    // Unchanged, it is the same IDs again, not a copy.
    const now = await cache.selection('all', all);
    expect(await cache.selection('all', all)).toBe(now);
    // A listed item that changes and stays: the same IDs in a new array (what was rendered from the old one is stale).
    index.setLocale(HOME, 'c', 'visual', 'en', stored({ pathname: '/c-moved' }));
    const after = await cache.selection('all', all);
    expect(after).toEqual(['c', 'd']);
    expect(after).not.toBe(now);
    // An item that neither is nor comes in changes nothing.
    const none = () => (item: Item) => item.id === 'd';
    const onlyD = await cache.selection('only-d', none);
    index.setLocale(HOME, 'c', 'visual', 'en', stored({ pathname: '/c-again' }));
    expect(await cache.selection('only-d', none)).toBe(onlyD);
  });

  it('is dropped once it falls 8,192 changes behind, and computed afresh when asked again', async () => {
    const index = new ItemIndex();
    const cache = createDerivedCache(index);
    let matchers = 0;
    const withGerman = () => {
      matchers++;
      return (item: Item) => item.locales.has('de');
    };
    expect(render(await cache.selection('german', withGerman))).toBe('');
    expect(cache.size).toBe(1);
    for (let n = 0; n < 8192; n++) index.setLocale(HOME, `p${n % 10}`, 'visual', 'en', stored({ pathname: `/${n}` }));
    expect(cache.size).toBe(1);
    index.setLocale(HOME, 'p3', 'visual', 'de', stored({ pathname: '/p3-de' }));
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
    expect(render(await cache.selection('german', withGerman))).toBe('p3');
    expect(matchers).toBe(2);
  });

  it('is dropped when a publication date passes', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-06-01T00:00:00Z') });
    const index = new ItemIndex();
    const cache = createDerivedCache(index);
    const published = () => (item: Item, now: number) =>
      [...item.locales.values()].some(({ file }) => !file.publishAt || Date.parse(file.publishAt) <= now);
    expect(render(await cache.selection('published', published))).toBe('');
    // A write brings a date that is later than now but earlier than any the cache knew of.
    index.setLocale(HOME, 'soon', 'visual', 'en', stored({ pathname: '/soon', publishAt: '2026-06-01T01:00:00Z' }));
    expect(render(await cache.selection('published', published))).toBe('');
    vi.setSystemTime(Date.parse('2026-06-01T01:00:00Z'));
    expect(render(await cache.selection('published', published))).toBe('soon');
  });
});

describe('a first selection of many items', () => {
  /** A matcher slow enough (~5 µs an item) that a pass over 20,000 items takes several slices. */
  const slowly = (test: (item: Item) => boolean) => () => (item: Item) => {
    const until = performance.now() + 0.005;
    while (performance.now() < until);
    return test(item);
  };
  const withGerman = (item: Item) => item.locales.has('de');

  function manyItems(count: number): ItemIndex {
    const index = new ItemIndex();
    for (let n = 0; n < count; n++) {
      const id = `p${String((n * 7919) % count).padStart(5, '0')}`;
      index.setLocale(HOME, id, 'visual', 'en', stored({ pathname: `/${id}` }));
      if (n % 3 === 0) index.setLocale(HOME, id, 'visual', 'de', stored({ pathname: `/${id}-de` }));
    }
    return index;
  }

  it('lets the event loop turn while it is computed, and takes in the items that changed meanwhile', async () => {
    const index = manyItems(20_000);
    const cache = createDerivedCache(index);
    let done = false;
    const answer = cache.selection('german', slowly(withGerman)).finally(() => {
      done = true;
    });
    // Another task changes items between the slices: some gain a German locale, some lose it, one is new.
    let changes = 0;
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      if (done) break;
      const n = changes++;
      const id = `p${String((n * 104_729) % 20_000).padStart(5, '0')}`;
      if (index.get(id)?.locales.has('de')) index.removeLocale(id, 'de');
      else index.setLocale(HOME, id, 'visual', 'de', stored({ pathname: `/${id}-de-${n}` }));
      if (n === 3) index.setLocale(HOME, 'p00000-new', 'visual', 'de', stored({ pathname: '/new' }));
    }
    expect(changes).toBeGreaterThan(3);
    const expected = index
      .sorted()
      .filter(withGerman)
      .map((item) => item.id);
    expect(await answer).toEqual(expected);
    expect(expected).toContain('p00000-new');
  });

  it('answers two asks made while it is computed from one pass', async () => {
    const index = manyItems(2_000);
    const cache = createDerivedCache(index);
    let matchers = 0;
    const counted = () => {
      matchers++;
      return withGerman;
    };
    const [first, second] = await Promise.all([cache.selection('german', counted), cache.selection('german', counted)]);
    expect(second).toBe(first);
    expect(matchers).toBe(1);
    expect(first.length).toBe(index.sorted().filter(withGerman).length);
  });
});

describe('ItemIndex.sortedInSlices', () => {
  it('sorts as sorted() does, then keeps the order as items come and go without changing an array it handed out', async () => {
    const index = new ItemIndex();
    const ids = Array.from({ length: 30_000 }, (_, n) => `i${((n * 7919) % 30_000).toString(36)}`);
    for (const id of ids) index.setLocale(HOME, id, 'visual', 'en', stored({ pathname: `/${id}` }));
    const sorted = await index.sortedInSlices();
    expect(sorted.map((item) => item.id)).toEqual([...ids].sort());
    index.setLocale(HOME, 'i-new', 'visual', 'en', stored({ pathname: '/new' }));
    index.removeLocale(ids[0]!, 'en');
    const after = index.sorted();
    expect(after).not.toBe(sorted);
    expect(sorted.length).toBe(30_000);
    expect(after.map((item) => item.id)).toEqual([...ids.slice(1), 'i-new'].sort());
    expect(await index.sortedInSlices()).toBe(after);
  });
});

describe('approximateBytes', () => {
  it('counts strings by their characters and each shared object once', () => {
    const text = 'a'.repeat(1000);
    expect(approximateBytes(text)).toBeGreaterThanOrEqual(1000);
    expect(approximateBytes('é'.repeat(1000))).toBeLessThan(approximateBytes('€'.repeat(1000)));
    const shared = { text };
    const once = approximateBytes([shared]);
    expect(approximateBytes([shared, shared])).toBeLessThan(once + 100);
    const map = new Map([['k', [shared]]]);
    expect(approximateBytes(map)).toBeGreaterThanOrEqual(1000);
    expect(approximateBytes(new Set([text]))).toBeGreaterThanOrEqual(1000);
  });
});
