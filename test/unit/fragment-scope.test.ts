import { describe, expect, it } from 'vitest';
import { findFragment, fragmentsInScope } from '../../src/content/fragment-scope.js';
import { item } from './items.js';

const globalHeader = item('header', { kind: 'fragment', collection: 'components' }, { en: { name: 'header' } });
const globalFooter = item('footer', { kind: 'fragment', collection: 'components' }, { en: { name: 'footer' } });
const globalHeaderElsewhere = item(
  'layout-header',
  { kind: 'fragment', collection: 'layout' },
  { en: { name: 'header' } },
);
const shopHeader = item(
  'a-shop-header',
  { kind: 'fragment', collection: 'components', site: 'shop' },
  { en: { name: 'header' } },
);
const blogBanner = item(
  'blog-banner',
  { kind: 'fragment', collection: 'components', site: 'blog' },
  { en: { name: 'banner' } },
);
const all = [globalHeader, globalFooter, globalHeaderElsewhere, shopHeader, blogBanner];

const scoped = (site: string | undefined) =>
  fragmentsInScope(all, site).map(({ item, scope }) => `${item.id}:${scope}`);

describe('fragmentsInScope', () => {
  it('without a site: the global fragments only', () => {
    expect(scoped(undefined)).toEqual(['header:global', 'footer:global', 'layout-header:global']);
  });

  it('with a site: its own, and the global ones it does not shadow (same collection and name), in ID order', () => {
    expect(scoped('shop')).toEqual(['a-shop-header:site', 'footer:global', 'layout-header:global']);
    expect(scoped('blog')).toEqual(['blog-banner:site', 'footer:global', 'header:global', 'layout-header:global']);
  });
});

describe('findFragment', () => {
  it("prefers the site's own fragment, then falls back to the global one", () => {
    expect(findFragment(all, 'components', 'header', 'shop')).toBe(shopHeader);
    expect(findFragment(all, 'components', 'header', 'blog')).toBe(globalHeader);
    expect(findFragment(all, 'components', 'header', undefined)).toBe(globalHeader);
    expect(findFragment(all, 'components', 'banner', undefined)).toBeUndefined();
  });
});
