import { type ContentProblem, computeProblems } from './problems.js';
import { batch } from './store/batch.js';
import { type Author, createStoreContext, type StoreOptions } from './store/context.js';
import { create } from './store/create.js';
import { createReads, type Derivation } from './store/reads.js';
import { remove } from './store/remove.js';
import { transition } from './store/transition.js';
import { movePage, updateLocale } from './store/update-locale.js';

export type { BatchOperation, RejectedOperation } from './store/batch.js';
export type { Author, StoreOptions } from './store/context.js';
export type { CreateInput } from './store/create.js';
export type { ContentFileSubject, Derivation, Selection } from './store/reads.js';

/**
 * The content store: every read answers from the in-memory index (kept equal to the files),
 * every write runs under its item's lock as check-etag → write file atomically → update index.
 * Each operation is a module of `store/` and a function of the context they share.
 */
export function createContentStore(options: StoreOptions) {
  const ctx = createStoreContext(options);
  const reads = createReads(ctx);
  const { gate, sync } = ctx;
  const problems: Derivation<ContentProblem[]> = {
    name: 'problems',
    compute: (items) => computeProblems(ctx.root, items),
  };

  return {
    ready: sync.ready,
    close: ctx.close,
    /** The index every read answers from, for a reader in the same process (the content loader in dev); never written outside the store. */
    index: ctx.index,
    /** Resolves once every file change reported so far is in the index. */
    fresh: sync.fresh,
    /** Reads a file into the index again (a reader found it changed before its event came). */
    recheck: sync.recheck,
    follow: ctx.follow,
    ...reads,

    /** What is wrong with the stored files (see `computeProblems`). */
    problems: (): Promise<ContentProblem[]> => reads.derived(problems),

    /** A replaced default-locale version kept by content etag (see `createSourceCache`). */
    cachedSource: (contentEtag: string) => ctx.sourceCache.get(contentEtag),

    create: (input: Parameters<typeof create>[1], by: Author) => create(ctx, input, by),
    updateLocale: (...args: DropContext<typeof updateLocale>) => updateLocale(ctx, ...args),
    move: (...args: DropContext<typeof movePage>) => movePage(ctx, ...args),
    remove: (...args: DropContext<typeof remove>) => remove(ctx, ...args),
    batch: (...args: DropContext<typeof batch>) => batch(ctx, ...args),
    markReviewed: (id: string, locale: string, etag: string, by: Author) =>
      transition(ctx, 'mark-reviewed', id, locale, etag, by),
    breakInheritance: (id: string, locale: string, etag: string, by: Author) =>
      transition(ctx, 'break-inheritance', id, locale, etag, by),
    revertToInherited: (id: string, locale: string, etag: string, by: Author) =>
      transition(ctx, 'revert-to-inherited', id, locale, etag, by),

    /** Runs a write that is not a content write (an upload) so that git tasks wait for it too. */
    shared: <T>(task: () => Promise<T>) => gate.shared(task),

    /**
     * Runs a task that rewrites files wholesale (a git commit or pull) with no content write in
     * flight; afterwards the index catches up with whatever the task changed on disk.
     */
    async exclusive<T>(task: () => Promise<T>): Promise<T> {
      return gate.exclusive(async () => {
        try {
          return await task();
        } finally {
          await sync.rescan();
        }
      });
    },
  };
}

/** An operation's parameters after the store's context. */
type DropContext<F> = F extends (ctx: never, ...rest: infer Rest) => unknown ? Rest : never;

export type ContentStore = ReturnType<typeof createContentStore>;
