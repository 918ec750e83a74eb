import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDerivedCache } from '../../src/content/derived-cache.js';
import { ItemIndex } from '../../src/content/item-index.js';
import { stored } from './items.js';

const HOME = { kind: 'page' as const, site: 'web', collection: 'pages' };

describe('createDerivedCache', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('computes once until the index changes', () => {
    const index = new ItemIndex();
    const cached = createDerivedCache(index);
    let runs = 0;
    const count = () => cached('count', () => ++runs);
    expect([count(), count()]).toEqual([1, 1]);
    index.setLocale(HOME, 'home', 'visual', 'en', stored({ pathname: '/' }));
    expect(count()).toBe(2);
    expect(cached('other', () => 'x')).toBe('x');
  });

  it('computes again when a publication date passes, without any change to the index', () => {
    vi.useFakeTimers({ now: Date.parse('2026-06-01T00:00:00Z') });
    const index = new ItemIndex();
    index.setLocale(HOME, 'later', 'visual', 'en', stored({ pathname: '/later', publishAt: '2026-06-02T00:00:00Z' }));
    const cached = createDerivedCache(index);
    let runs = 0;
    const count = () => cached('count', () => ++runs);
    expect(count()).toBe(1);
    vi.setSystemTime(Date.parse('2026-06-01T23:59:59Z'));
    expect(count()).toBe(1);
    vi.setSystemTime(Date.parse('2026-06-02T00:00:00Z'));
    expect(count()).toBe(2);
  });

  it('keeps a bounded number of entries, dropping the oldest', () => {
    const cached = createDerivedCache(new ItemIndex());
    let runs = 0;
    for (let n = 0; n < 300; n++) cached(`key ${n}`, () => ++runs);
    expect(cached('key 299', () => ++runs)).toBe(300);
    expect(cached('key 0', () => ++runs)).toBe(301);
  });
});
