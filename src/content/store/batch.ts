import { QuireError } from '../../errors.js';
import type { LocaleUpdate } from '../locale-update.js';
import type { Author, StoreContext } from './context.js';
import { updateLocale } from './update-locale.js';

export interface BatchOperation {
  id: string;
  locale: string;
  data: LocaleUpdate;
  etag: string;
}

/** An operation the HTTP layer already found invalid: reported in place, like any other failure. */
export interface RejectedOperation {
  id: string;
  locale: string;
  error: QuireError;
}

/** Applies each operation on its own; one failure does not undo the others. */
export async function batch(ctx: StoreContext, operations: Array<BatchOperation | RejectedOperation>, by: Author) {
  const results = [];
  for (const operation of operations) {
    try {
      if ('error' in operation) throw operation.error;
      const { etag } = await updateLocale(ctx, operation.id, operation.locale, operation.data, operation.etag, by);
      results.push({ id: operation.id, locale: operation.locale, updated: true, etag });
    } catch (error) {
      if (!(error instanceof QuireError)) throw error;
      results.push({
        id: operation.id,
        locale: operation.locale,
        updated: false,
        error: { code: error.code, message: error.message },
      });
    }
  }
  return results;
}
