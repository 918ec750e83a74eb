import { QuireError } from '../../errors.js';
import { ContentMovedOn, readContents } from '../bodies.js';
import type { ContentData, Item, StoredLocale } from '../types.js';
import type { ContentOf } from '../views.js';
import type { StoreContext } from './context.js';

/** Rereads of a file found changed under a read before the read gives up (a file rewritten this often is being written in a loop). */
const REREADS = 5;

/**
 * Runs a read that needs content from the files: a file found changed by hand before its event
 * arrived is read into the index again and the read runs anew, so an answer's content and etag
 * always belong together. `read` catches up with the index itself, as every read does.
 */
export async function withContents<T>(
  ctx: StoreContext,
  read: (load: (holders: Iterable<StoredLocale>) => Promise<ContentOf>) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await read(readContents);
    } catch (error) {
      if (!(error instanceof ContentMovedOn)) throw error;
      if (attempt === REREADS)
        throw new QuireError('INTERNAL_ERROR', `${error.file} kept changing on disk while it was read: try again.`);
      await ctx.sync.recheck(error.file);
    }
  }
}

/**
 * A locale's own content, for a write that rewrites its file (the item's lock held). A file
 * changed by hand since the index read it makes the write stale: what the editor read is not what
 * is on disk.
 */
export async function contentForWrite(
  item: Item,
  locale: string,
  stored: StoredLocale,
): Promise<ContentData | undefined> {
  try {
    return (await readContents([stored]))(stored);
  } catch (error) {
    if (!(error instanceof ContentMovedOn)) throw error;
    throw new QuireError(
      'STALE_WRITE',
      `Content "${item.id}" (${locale}) changed on disk since it was read: reload it and apply your change again.`,
      { id: item.id, locale, currentEtag: null },
    );
  }
}
