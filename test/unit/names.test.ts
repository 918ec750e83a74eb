import { describe, expect, it } from 'vitest';
import { findNamed, hasName } from '../../src/content/names.js';
import { item } from './items.js';

const header = item(
  'header',
  { kind: 'fragment', collection: 'components' },
  { en: { name: 'header' }, de: { name: 'kopf' } },
);
const shopHeader = item(
  'shop-header',
  { kind: 'fragment', collection: 'components', site: 'shop' },
  { en: { name: 'header' } },
);
const settings = item('settings', { kind: 'data', collection: 'config', type: 'json' }, { en: { name: 'header' } });
const all = [header, shopHeader, settings];

describe('hasName', () => {
  it('looks at every locale, or at the one given', () => {
    expect(hasName(header, 'kopf')).toBe(true);
    expect(hasName(header, 'kopf', 'en')).toBe(false);
    expect(hasName(header, 'kopf', 'de')).toBe(true);
    expect(hasName(header, 'footer')).toBe(false);
  });
});

describe('findNamed', () => {
  it('finds the item in exactly that scope: kind, site or global, collection', () => {
    expect(findNamed(all, { kind: 'fragment', collection: 'components' }, 'header')).toBe(header);
    expect(findNamed(all, { kind: 'fragment', collection: 'components', site: 'shop' }, 'header')).toBe(shopHeader);
    expect(findNamed(all, { kind: 'data', collection: 'config' }, 'header')).toBe(settings);
    expect(findNamed(all, { kind: 'fragment', collection: 'layout' }, 'header')).toBeUndefined();
  });

  it('leaves out the item being renamed, and can ask one locale', () => {
    expect(
      findNamed(all, { kind: 'fragment', collection: 'components' }, 'header', { exceptId: 'header' }),
    ).toBeUndefined();
    expect(findNamed(all, { kind: 'fragment', collection: 'components' }, 'kopf', { locale: 'en' })).toBeUndefined();
  });
});
