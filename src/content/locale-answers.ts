import { approximateBytes } from './derived-cache.js';
import type { Item, StoredLocale } from './types.js';

/** Enough for the locales an editor team reads over and over; the rest are rendered when asked. */
const DEFAULT_BUDGET_BYTES = 8 * 1024 * 1024;

interface Answer {
  item: Item;
  stored: StoredLocale;
  source: StoredLocale | undefined;
  json: string;
  bytes: number;
}

/**
 * The JSON of single-locale answers, the most recently asked kept within a byte budget. An answer
 * depends on nothing but the item, the locale's record and the record it inherits from: the index
 * replaces a record on every change, so a kept answer is served only while all three are the same
 * objects, and a change costs no invalidation.
 */
export function createLocaleAnswers(budgetBytes = DEFAULT_BUDGET_BYTES) {
  const answers = new Map<string, Answer>();
  let bytes = 0;

  function forget(key: string, answer: Answer) {
    answers.delete(key);
    bytes -= answer.bytes;
  }

  return async function answerJson(
    item: Item,
    locale: string,
    stored: StoredLocale,
    render: () => Promise<string>,
  ): Promise<string> {
    const key = `${item.id}\0${locale}`;
    const inheritance = stored.file.inheritance;
    const source = inheritance ? item.locales.get(inheritance.from) : undefined;
    const kept = answers.get(key);
    if (kept) forget(key, kept);
    if (kept && kept.item === item && kept.stored === stored && kept.source === source) {
      answers.set(key, kept);
      bytes += kept.bytes;
      return kept.json;
    }
    const json = await render();
    const answer = { item, stored, source, json, bytes: approximateBytes(key) + approximateBytes(json) };
    if (answer.bytes > budgetBytes) return json;
    answers.set(key, answer);
    bytes += answer.bytes;
    for (const [oldest, other] of answers) {
      if (bytes <= budgetBytes) break;
      forget(oldest, other);
    }
    return json;
  };
}
