import { describe, expect, it } from 'vitest';
import { applyOnTop, changedKeys, type Fields, fieldsOf, updateFor } from '../../src/admin/editor/fields.js';
import { invalidOffset, jsonError } from '../../src/admin/editor/json-error.js';

const record = {
  locale: 'en',
  etag: 'm.c',
  created: '2026-01-01T00:00:00.000Z',
  modified: '2026-01-01T00:00:00.000Z',
  pathname: '/a',
  meta: { title: 'A', tags: ['x', 'y'], extra: { deep: 1 } },
  content: { mdx: '# A' },
};
const base: Fields = fieldsOf('mdx', record);

describe("the editor's fields", () => {
  it('holds meta as text: lists as "a, b", other values as JSON', () => {
    expect(base).toEqual({
      address: '/a',
      publishAt: '',
      unpublishAt: '',
      meta: { title: 'A', tags: 'x, y', extra: '{"deep":1}' },
      body: '# A',
    });
  });

  it("sends only what changed; a removed meta key as null; a list back as a list; never a page's pathname", () => {
    const draft: Fields = {
      ...base,
      address: '/b',
      publishAt: '2026-05-01T10:00:00.000Z',
      meta: { title: 'B', tags: 'x, z ,' },
      body: '# B',
    };
    expect(updateFor('page', 'mdx', base, draft, record.meta)).toEqual({
      update: {
        publishAt: '2026-05-01T10:00:00.000Z',
        meta: { title: 'B', tags: ['x', 'z'], extra: null },
        content: { mdx: '# B' },
      },
      problems: [],
    });
    expect(
      updateFor('data', 'json', { ...base, body: '{}' }, { ...base, body: '{}', address: 'renamed', publishAt: '' }, {})
        .update,
    ).toEqual({ name: 'renamed' });
  });

  it('refuses invalid JSON with where it is wrong, and a JSON value that is not an object for data', () => {
    const json = { ...base, body: '{}' };
    const broken = updateFor('data', 'json', json, { ...json, body: '{\n  "a": 1,\n}' }, {});
    expect(broken.update).toEqual({});
    expect(broken.problems).toEqual([
      { field: 'body', message: expect.stringMatching(/^The JSON is not valid: .* at line 3, column 1\.$/) },
    ]);
    expect(updateFor('data', 'json', json, { ...json, body: '[1]' }, {}).problems[0]!.message).toBe(
      'The data must be a JSON object ({ … }).',
    );
    expect(jsonError('{"a": [1, 2]}')).toBeUndefined();
    expect(jsonError('{"a": tru}')).toMatch(/ at line 1, column 10$/);
    expect(jsonError('{\n  "a": 1\n  "b": 2\n}')).toMatch(/ at line 3, column 3$/);
    expect(jsonError('')).toMatch(/ at line 1, column 1$/);
  });

  it('finds the first invalid character of any JSON text, and agrees with JSON.parse on what is valid', () => {
    const cases: [string, number][] = [
      ['{"a":1}', -1],
      [' [1, -2.5e3, "x\\u00e9", true, false, null, {}] ', -1],
      ['"\\q"', 2],
      ['[1,]', 3],
      ['{"a" 1}', 5],
      ['01', 1],
      ['[1 2]', 3],
      ['"a\nb"', 2],
      ['{"a":1}}', 7],
      ['-', 0],
      ['nul', 3],
      ['"\\u12G4"', 2],
    ];
    for (const [text, offset] of cases) {
      expect(invalidOffset(text), text).toBe(offset);
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      expect(parses, text).toBe(offset === -1);
    }
  });

  it('puts my changes on top of theirs: mine win where both changed, their other changes stay', () => {
    const mine: Fields = { ...base, meta: { ...base.meta, title: 'Mine' }, body: '# Mine' };
    const theirs: Fields = { ...base, meta: { ...base.meta, title: 'Theirs', description: 'Theirs too' } };
    const merged = applyOnTop(base, mine, theirs);
    expect(merged).toEqual({
      ...base,
      meta: { ...base.meta, title: 'Mine', description: 'Theirs too' },
      body: '# Mine',
    });
    expect(changedKeys(theirs, merged)).toEqual(['meta.title', 'body']);
    const removed = applyOnTop(base, { ...base, meta: { title: 'A', tags: 'x, y' } }, theirs);
    expect(removed.meta).toEqual({ title: 'Theirs', tags: 'x, y', description: 'Theirs too' });
  });
});
