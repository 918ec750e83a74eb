import { describe, expect, it } from 'vitest';
import { ItemIndex } from '../../src/content/item-index.js';
import { createLocaleAnswers } from '../../src/content/locale-answers.js';
import type { Item } from '../../src/content/types.js';
import { localizedEntryOf } from '../../src/content/views.js';
import { stored } from './items.js';

const HOME = { kind: 'page' as const, site: 'web', collection: 'pages' };

describe('createLocaleAnswers', () => {
  const setup = (budget?: number) => {
    const index = new ItemIndex();
    const answers = createLocaleAnswers(budget);
    let renders = 0;
    const answer = (id: string, locale: string) => {
      const item: Item = index.get(id)!;
      const record = item.locales.get(locale)!;
      return answers(item, locale, record, () => {
        renders++;
        return JSON.stringify(localizedEntryOf(item, locale, record));
      });
    };
    return { index, answer, renders: () => renders };
  };

  it('renders a locale once, and again after it or the locale it inherits from changed', () => {
    const { index, answer, renders } = setup();
    index.setLocale(HOME, 'home', 'visual', 'en', stored({ pathname: '/', content: { data: { v: 1 } } }));
    index.setLocale(
      HOME,
      'home',
      'visual',
      'de',
      stored({ pathname: '/de', inheritance: { state: 'inherited', from: 'en', inheritedEtag: 'c' } }),
    );
    expect(JSON.parse(answer('home', 'de')).localized.content).toEqual({ data: { v: 1 } });
    answer('home', 'de');
    expect(renders()).toBe(1);
    // The source changed: the inherited locale shows the new content at once.
    index.setLocale(HOME, 'home', 'visual', 'en', stored({ pathname: '/', content: { data: { v: 2 } } }));
    expect(JSON.parse(answer('home', 'de')).localized.content).toEqual({ data: { v: 2 } });
    expect(renders()).toBe(2);
    index.setLocale(HOME, 'home', 'visual', 'de', stored({ pathname: '/de-neu', content: { data: { v: 3 } } }));
    expect(JSON.parse(answer('home', 'de')).localized).toMatchObject({
      pathname: '/de-neu',
      content: { data: { v: 3 } },
    });
    expect(renders()).toBe(3);
  });

  it('renders again for an item that was deleted and created anew under the same ID', () => {
    const { index, answer, renders } = setup();
    const record = stored({ pathname: '/a' });
    index.setLocale(HOME, 'a', 'visual', 'en', record);
    answer('a', 'en');
    index.removeLocale('a', 'en');
    index.setLocale({ ...HOME, collection: 'blog' }, 'a', 'visual', 'en', record);
    expect(JSON.parse(answer('a', 'en')).collection).toBe('blog');
    expect(renders()).toBe(2);
  });

  it('keeps the most recently read answers within its byte budget', () => {
    const { index, answer, renders } = setup(4096);
    for (let n = 0; n < 20; n++)
      index.setLocale(HOME, `p${n}`, 'visual', 'en', stored({ pathname: `/${n}`, meta: { text: 'x'.repeat(500) } }));
    for (let n = 0; n < 20; n++) answer(`p${n}`, 'en');
    expect(renders()).toBe(20);
    answer('p19', 'en');
    expect(renders()).toBe(20);
    answer('p0', 'en');
    expect(renders()).toBe(21);
  });
});
