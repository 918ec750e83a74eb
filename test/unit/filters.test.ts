import { describe, expect, it } from 'vitest';
import { isPublished, matchesFilters } from '../../src/content/filters.js';
import { item } from './items.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const page = item('home', { site: 'web' }, { en: {}, de: { inheritance: { state: 'inherited', from: 'en' } } });
const scheduled = item('later', { site: 'web' }, { en: { publishAt: '2026-07-01T00:00:00Z' } });

describe('isPublished', () => {
  it('holds between publishAt (reached) and unpublishAt (not yet reached)', () => {
    expect(isPublished(page.locales.get('en')!.file, NOW)).toBe(true);
    expect(isPublished({ ...page.locales.get('en')!.file, publishAt: '2026-06-01T00:00:00Z' }, NOW)).toBe(true);
    expect(isPublished({ ...page.locales.get('en')!.file, publishAt: '2026-06-02T00:00:00Z' }, NOW)).toBe(false);
    expect(isPublished({ ...page.locales.get('en')!.file, unpublishAt: '2026-06-01T00:00:00Z' }, NOW)).toBe(false);
  });
});

describe('matchesFilters', () => {
  const matches = (filters: Parameters<typeof matchesFilters>[1], target = page, expected = ['en', 'de', 'fr']) =>
    matchesFilters(target, filters, expected, NOW);

  it('passes everything without filters and checks each one given', () => {
    expect(matches({})).toBe(true);
    expect(matches({ kind: 'page', site: 'web', collection: 'pages', type: 'visual' })).toBe(true);
    expect(matches({ kind: 'fragment' })).toBe(false);
    expect(matches({ site: 'shop' })).toBe(false);
    expect(matches({ type: 'mdx' })).toBe(false);
  });

  it('counts inherited locales as present for locales and missingLocales', () => {
    expect(matches({ locales: ['de'] })).toBe(true);
    expect(matches({ locales: ['fr', 'it'] })).toBe(false);
    expect(matches({ missingLocales: ['fr'] })).toBe(true);
    expect(matches({ missingLocales: ['de'] })).toBe(false);
  });

  it('sorts items by localization against the expected locales', () => {
    expect(matches({ localization: 'partial' })).toBe(true);
    expect(matches({ localization: 'complete' }, page, ['en', 'de'])).toBe(true);
    expect(matches({ localization: 'one' })).toBe(false);
    expect(matches({ localization: 'one' }, scheduled)).toBe(true);
  });

  it('asks for publication of the locales asked for, or of any', () => {
    expect(matches({ published: true })).toBe(true);
    expect(matches({ published: true }, scheduled)).toBe(false);
    expect(matches({ published: false }, scheduled)).toBe(true);
    expect(matches({ published: true, locales: ['fr'] })).toBe(false);
  });
});
