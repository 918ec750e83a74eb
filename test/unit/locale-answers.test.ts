import { describe, expect, it } from 'vitest';
import { ItemIndex } from '../../src/content/item-index.js';
import { createLocaleAnswers } from '../../src/content/locale-answers.js';
import type { ContentData, Item, ItemHome, LocaleFile, StoredLocale } from '../../src/content/types.js';
import { localizedEntryOf } from '../../src/content/views.js';
import { stored } from './items.js';

const HOME = { kind: 'page' as const, site: 'web', collection: 'pages' };

describe('createLocaleAnswers', () => {
  const setup = (budget?: number) => {
    const index = new ItemIndex();
    const answers = createLocaleAnswers(budget);
    // The content a locale's file holds: the index keeps none.
    const contents = new Map<StoredLocale, ContentData>();
    const put = (id: string, locale: string, fields: Partial<LocaleFile>, home: ItemHome = HOME) => {
      const { content, ...file } = fields;
      const record = stored(file);
      if (content) contents.set(record, content);
      index.setLocale(home, id, 'visual', locale, record);
      return record;
    };
    let renders = 0;
    const answer = async (id: string, locale: string) => {
      const item: Item = index.get(id)!;
      const record = item.locales.get(locale)!;
      const json = await answers(item, locale, record, async () => {
        renders++;
        return JSON.stringify(localizedEntryOf(item, locale, record, (holder) => contents.get(holder)));
      });
      return JSON.parse(json);
    };
    return { index, put, answer, renders: () => renders };
  };

  it('renders a locale once, and again after it or the locale it inherits from changed', async () => {
    const { put, answer, renders } = setup();
    put('home', 'en', { pathname: '/', content: { data: { v: 1 } } });
    put('home', 'de', { pathname: '/de', inheritance: { state: 'inherited', from: 'en', inheritedEtag: 'c' } });
    expect((await answer('home', 'de')).localized.content).toEqual({ data: { v: 1 } });
    await answer('home', 'de');
    expect(renders()).toBe(1);
    // The source changed: the inherited locale shows the new content at once.
    put('home', 'en', { pathname: '/', content: { data: { v: 2 } } });
    expect((await answer('home', 'de')).localized.content).toEqual({ data: { v: 2 } });
    expect(renders()).toBe(2);
    put('home', 'de', { pathname: '/de-neu', content: { data: { v: 3 } } });
    expect((await answer('home', 'de')).localized).toMatchObject({ pathname: '/de-neu', content: { data: { v: 3 } } });
    expect(renders()).toBe(3);
  });

  it('renders again for an item that was deleted and created anew under the same ID', async () => {
    const { index, put, answer, renders } = setup();
    const record = put('a', 'en', { pathname: '/a' });
    await answer('a', 'en');
    index.removeLocale('a', 'en');
    index.setLocale({ ...HOME, collection: 'blog' }, 'a', 'visual', 'en', record);
    expect((await answer('a', 'en')).collection).toBe('blog');
    expect(renders()).toBe(2);
  });

  it('keeps the most recently read answers within its byte budget', async () => {
    const { put, answer, renders } = setup(4096);
    for (let n = 0; n < 20; n++) put(`p${n}`, 'en', { pathname: `/${n}`, meta: { text: 'x'.repeat(500) } });
    for (let n = 0; n < 20; n++) await answer(`p${n}`, 'en');
    expect(renders()).toBe(20);
    await answer('p19', 'en');
    expect(renders()).toBe(20);
    await answer('p0', 'en');
    expect(renders()).toBe(21);
  });
});
