import { afterEach, describe, expect, it, vi } from 'vitest';
import { approximateBytes, createDerivedCache } from '../../src/content/derived-cache.js';
import { ItemIndex } from '../../src/content/item-index.js';
import type { Item } from '../../src/content/types.js';
import { stored } from './items.js';

const HOME = { kind: 'page' as const, site: 'web', collection: 'pages' };

describe('createDerivedCache', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('computes once until the index changes', () => {
    const index = new ItemIndex();
    const cache = createDerivedCache(index);
    let runs = 0;
    const count = () => cache.get('count', () => ++runs);
    expect([count(), count()]).toEqual([1, 1]);
    index.setLocale(HOME, 'home', 'visual', 'en', stored({ pathname: '/' }));
    expect(count()).toBe(2);
    expect(cache.get('other', () => 'x')).toBe('x');
  });

  it('computes again when a publication date passes, without any change to the index', () => {
    vi.useFakeTimers({ now: Date.parse('2026-06-01T00:00:00Z') });
    const index = new ItemIndex();
    index.setLocale(HOME, 'later', 'visual', 'en', stored({ pathname: '/later', publishAt: '2026-06-02T00:00:00Z' }));
    const cache = createDerivedCache(index);
    let runs = 0;
    const count = () => cache.get('count', () => ++runs);
    expect(count()).toBe(1);
    vi.setSystemTime(Date.parse('2026-06-01T23:59:59Z'));
    expect(count()).toBe(1);
    vi.setSystemTime(Date.parse('2026-06-02T00:00:00Z'));
    expect(count()).toBe(2);
    expect(cache.size).toBe(1);
  });

  it('keeps many distinct answers within its byte budget, dropping the least recently used', () => {
    const budget = 100 * 1024;
    const cache = createDerivedCache(new ItemIndex(), budget);
    let runs = 0;
    const answer = (n: number) => cache.get(`list:${n}`, () => `${++runs}:${'x'.repeat(1024)}`);
    let largest = 0;
    for (let n = 0; n < 1000; n++) {
      answer(n);
      // The first answer is read after every other one: it stays while the others come and go.
      answer(0);
      largest = Math.max(largest, cache.bytes);
    }
    expect(largest).toBeLessThanOrEqual(budget);
    expect(cache.bytes).toBeGreaterThan(budget / 2);
    expect(cache.size).toBeLessThan(100);
    expect(answer(0).startsWith('1:')).toBe(true);
    const before = runs;
    answer(999);
    expect(runs).toBe(before);
    answer(1);
    expect(runs).toBe(before + 1);
  });

  it('drops every answer as soon as the index changes, before anyone asks again', () => {
    const index = new ItemIndex();
    const cache = createDerivedCache(index);
    for (let n = 0; n < 10; n++) cache.get(`list:${n}`, () => 'y'.repeat(10_000));
    expect(cache.size).toBe(10);
    expect(cache.bytes).toBeGreaterThan(100_000);
    index.setLocale(HOME, 'home', 'visual', 'en', stored({ pathname: '/' }));
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('keeps at most 1,024 answers however small, so that a write re-checks a bounded number', () => {
    const cache = createDerivedCache(new ItemIndex());
    for (let n = 0; n < 3000; n++) cache.selection(`empty:${n}`, () => () => false);
    expect(cache.size).toBe(1024);
  });

  it('answers a value larger than the whole budget without keeping it', () => {
    const cache = createDerivedCache(new ItemIndex(), 1024);
    cache.get('small', () => 'a');
    let runs = 0;
    const huge = () => cache.get('huge', () => `${++runs}${'z'.repeat(4096)}`);
    expect(huge().length).toBe(4097);
    expect(huge().startsWith('2')).toBe(true);
    expect(cache.size).toBe(1);
  });
});

describe('a cached selection', () => {
  const render = (ids: readonly string[]) => ids.join(',');

  it('re-checks only the changed items, each once, when next asked, and answers as a recomputation would', () => {
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
    expect(render(cache.selection('german', withGerman))).toBe('d');
    checked.length = 0;
    index.setLocale(HOME, 'a', 'visual', 'en', stored({ pathname: '/a' }));
    index.setLocale(HOME, 'a', 'visual', 'de', stored({ pathname: '/a-de' }));
    index.removeLocale('d', 'de');
    index.setLocale(HOME, 'e', 'visual', 'de', stored({ pathname: '/e-de' }));
    // A write costs the writer nothing per kept selection.
    expect(checked).toEqual([]);
    expect(render(cache.selection('german', withGerman))).toBe('a,e');
    expect(matchers).toBe(1);
    expect(checked).toEqual(['a', 'd', 'e']);
    index.removeLocale('a', 'en');
    index.removeLocale('a', 'de');
    expect(render(cache.selection('german', withGerman))).toBe('e');
    expect(cache.bytes).toBeGreaterThan(0);
  });

  it('never changes IDs it has handed out: an answer still being sent keeps its own', () => {
    const index = new ItemIndex();
    for (const id of ['b', 'd']) index.setLocale(HOME, id, 'visual', 'en', stored({ pathname: `/${id}` }));
    const cache = createDerivedCache(index);
    const all = () => () => true;
    const first = cache.selection('all', all);
    expect(first).toEqual(['b', 'd']);
    index.setLocale(HOME, 'c', 'visual', 'en', stored({ pathname: '/c' }));
    index.removeLocale('b', 'en');
    expect(cache.selection('all', all)).toEqual(['c', 'd']);
    expect(first).toEqual(['b', 'd']);
    // Unchanged, it is the same IDs again, not a copy.
    const now = cache.selection('all', all);
    expect(cache.selection('all', all)).toBe(now);
    // A listed item that changes and stays: the same IDs in a new array (what was rendered from the old one is stale).
    index.setLocale(HOME, 'c', 'visual', 'en', stored({ pathname: '/c-moved' }));
    const after = cache.selection('all', all);
    expect(after).toEqual(['c', 'd']);
    expect(after).not.toBe(now);
    // An item that neither is nor comes in changes nothing.
    const none = () => (item: Item) => item.id === 'd';
    const onlyD = cache.selection('only-d', none);
    index.setLocale(HOME, 'c', 'visual', 'en', stored({ pathname: '/c-again' }));
    expect(cache.selection('only-d', none)).toBe(onlyD);
  });

  it('is dropped once it falls 8,192 changes behind, and computed afresh when asked again', () => {
    const index = new ItemIndex();
    const cache = createDerivedCache(index);
    let matchers = 0;
    const withGerman = () => {
      matchers++;
      return (item: Item) => item.locales.has('de');
    };
    expect(render(cache.selection('german', withGerman))).toBe('');
    expect(cache.size).toBe(1);
    for (let n = 0; n < 8192; n++) index.setLocale(HOME, `p${n % 10}`, 'visual', 'en', stored({ pathname: `/${n}` }));
    expect(cache.size).toBe(1);
    index.setLocale(HOME, 'p3', 'visual', 'de', stored({ pathname: '/p3-de' }));
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
    expect(render(cache.selection('german', withGerman))).toBe('p3');
    expect(matchers).toBe(2);
  });

  it('is dropped when a publication date passes', () => {
    vi.useFakeTimers({ now: Date.parse('2026-06-01T00:00:00Z') });
    const index = new ItemIndex();
    const cache = createDerivedCache(index);
    const published = () => (item: Item, now: number) =>
      [...item.locales.values()].some(({ file }) => !file.publishAt || Date.parse(file.publishAt) <= now);
    expect(render(cache.selection('published', published))).toBe('');
    // A write brings a date that is later than now but earlier than any the cache knew of.
    index.setLocale(HOME, 'soon', 'visual', 'en', stored({ pathname: '/soon', publishAt: '2026-06-01T01:00:00Z' }));
    expect(render(cache.selection('published', published))).toBe('');
    vi.setSystemTime(Date.parse('2026-06-01T01:00:00Z'));
    expect(render(cache.selection('published', published))).toBe('soon');
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
