import { describe, expect, it } from 'vitest';
import { applyLocaleUpdate, mergeMeta, type UpdateContext } from '../../src/content/locale-update.js';
import type { LocaleFile } from '../../src/content/types.js';
import type { QuireError } from '../../src/errors.js';

const context = (overrides: Partial<UpdateContext> = {}): UpdateContext => ({
  kind: 'page',
  type: 'visual',
  locale: 'en',
  defaultLocale: 'en',
  sourceContentEtag: 'source',
  now: '2026-06-01T00:00:00Z',
  by: 'ed@example.test',
  ...overrides,
});

const english: LocaleFile = {
  pathname: '/about',
  created: '2026-01-01T00:00:00Z',
  modified: '2026-01-01T00:00:00Z',
  meta: { title: 'About', keep: 1 },
  content: { visualData: { blocks: [] } },
};

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as QuireError).code;
  }
  return undefined;
};

describe('mergeMeta', () => {
  it('merges key by key, and null removes a key', () => {
    expect(mergeMeta({ a: 1, b: 2 }, { b: null, c: 3 })).toEqual({ a: 1, c: 3 });
    expect(mergeMeta({ a: 1 }, undefined)).toEqual({ a: 1 });
  });
});

describe('applyLocaleUpdate', () => {
  it('creates a default locale with its content and attribution', () => {
    const file = applyLocaleUpdate(undefined, { pathname: '/about', content: { visualData: {} } }, context());
    expect(file).toEqual({
      created: '2026-06-01T00:00:00Z',
      createdBy: 'ed@example.test',
      modified: '2026-06-01T00:00:00Z',
      modifiedBy: 'ed@example.test',
      meta: {},
      pathname: '/about',
      content: { visualData: {} },
    });
  });

  it('makes a new translation without content inherit from the default locale, with content customized', () => {
    const inherited = applyLocaleUpdate(undefined, { pathname: '/ueber' }, context({ locale: 'de' }));
    expect(inherited.inheritance).toEqual({ state: 'inherited', from: 'en', inheritedEtag: 'source' });
    expect(inherited.content).toBeUndefined();
    const own = applyLocaleUpdate(
      undefined,
      { pathname: '/ueber', content: { visualData: 1 } },
      context({ locale: 'de' }),
    );
    expect(own.inheritance?.state).toBe('customized');
  });

  it('turns an inherited locale customized when its content is written', () => {
    const inherited = applyLocaleUpdate(undefined, { pathname: '/ueber' }, context({ locale: 'de' }));
    const written = applyLocaleUpdate(inherited, { content: { visualData: 2 } }, context({ locale: 'de' }));
    expect(written.inheritance?.state).toBe('customized');
    expect(written.content).toEqual({ visualData: 2 });
  });

  it('keeps the old pathname for redirects, and forgets it when the page moves back', () => {
    const moved = applyLocaleUpdate(english, { pathname: '/team' }, context());
    expect(moved.previousPathnames).toEqual(['/about']);
    const back = applyLocaleUpdate(moved, { pathname: '/about' }, context());
    expect(back.previousPathnames).toEqual(['/team']);
  });

  it('unsets a date with null, false or an empty string, and gives MDX an empty body', () => {
    const scheduled = applyLocaleUpdate(english, { publishAt: '2026-07-01T00:00:00Z' }, context());
    expect(scheduled.publishAt).toBe('2026-07-01T00:00:00Z');
    for (const unset of [null, false, ''] as const) {
      expect(applyLocaleUpdate(scheduled, { publishAt: unset }, context()).publishAt).toBeUndefined();
    }
    expect(
      applyLocaleUpdate(undefined, { name: 'x', content: {} }, context({ kind: 'fragment', type: 'mdx' })).content,
    ).toEqual({ mdx: '' });
  });

  it('refuses what the kind or locale does not allow', () => {
    expect(codeOf(() => applyLocaleUpdate(english, { name: 'x' }, context()))).toBe('INVALID_REQUEST');
    expect(codeOf(() => applyLocaleUpdate(english, { pathname: '/x' }, context({ kind: 'data' })))).toBe(
      'INVALID_REQUEST',
    );
    expect(codeOf(() => applyLocaleUpdate(english, { inherit: true }, context()))).toBe('INVALID_REQUEST');
    expect(codeOf(() => applyLocaleUpdate(undefined, { content: {} }, context()))).toBe('MISSING_REQUIRED_FIELD');
    expect(codeOf(() => applyLocaleUpdate(undefined, { pathname: '/x' }, context()))).toBe('MISSING_REQUIRED_FIELD');
    const noSource = context({ locale: 'de', sourceContentEtag: undefined });
    expect(codeOf(() => applyLocaleUpdate(undefined, { pathname: '/x' }, noSource))).toBe('INVALID_REQUEST');
  });
});
