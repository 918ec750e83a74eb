import { type ErrorCode, isQuireError, QuireError } from '../errors.js';
import type { QuireEvent } from '../events/types.js';
import type { Identity } from '../identity/types.js';
import { KeyedLock } from '../util/keyed-lock.js';
import { signatureFor } from './author.js';
import { type CommitResult, commitScope } from './commit.js';
import { fetchForPull, rebaseOntoFetched } from './pull.js';
import { pushBranch } from './push.js';
import { redactRemote } from './redact.js';
import { openRepository } from './repository.js';
import { type GitStatus, readStatus } from './status.js';
import { statusOffThread } from './status-thread.js';

export interface GitServiceOptions {
  contentRoot: string;
  assetsDir: string;
  /** The `git.branch` option: the remote branch to push to and pull from. Null: `GIT_BRANCH` at call time, else the current branch's name. */
  branch: string | null;
  /** Runs a task with no content write in flight, then lets the content index catch up (the store's `exclusive`). */
  exclusive: <T>(task: () => Promise<T>) => Promise<T>;
  /** Told of each operation that changed the repository (the content a pull changed is announced by the store). */
  announce: (event: QuireEvent & { kind: 'git' }) => void;
}

/** Errors that are not already domain errors become `code`, with the library's message. */
async function translated<T>(code: ErrorCode, what: string, task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (error) {
    if (isQuireError(error)) throw error;
    const message = redactRemote((error as Error)?.message ?? String(error));
    throw new QuireError(
      code,
      `git ${what} failed: ${message}`,
      { reason: (error as { code?: string })?.code ?? 'error' },
      { cause: error },
    );
  }
}

/**
 * Git over the repository that holds the content root (isomorphic-git, no git binary). Operations
 * run one at a time; commit and the local part of pull also hold content writes, so a write
 * arriving meanwhile waits and is neither lost nor half-committed.
 */
export function createGitService(options: GitServiceOptions) {
  const lock = new KeyedLock();
  const serial = <T>(task: () => Promise<T>) => lock.run('git', task);
  const open = () => openRepository(options.contentRoot, options.assetsDir);
  const remoteBranch = () => options.branch ?? (process.env.GIT_BRANCH || null);
  const announced = <T>(action: 'commit' | 'pull' | 'push', result: T): T => {
    options.announce({ kind: 'git', action });
    return result;
  };

  return {
    /**
     * Starts the status worker and its first walk of the tree, so the first status call (the
     * admin's badge asks at once) costs neither. Not a repository: nothing to do.
     */
    warmStatus(): void {
      open()
        .then(
          (repo) => statusOffThread(repo, remoteBranch()),
          () => null,
        )
        .catch(() => null);
    },

    /** Whether the content root is inside a repository git can work with (without reading its status). */
    isRepository: (): Promise<boolean> =>
      open().then(
        () => true,
        () => false,
      ),

    status: (): Promise<GitStatus> =>
      serial(() =>
        translated('GIT_STATUS_FAILED', 'status', async () => {
          return readStatus(await open(), remoteBranch(), options);
        }),
      ),

    commit: (message: string | undefined, identity: Identity | null | undefined): Promise<CommitResult> =>
      serial(() =>
        translated('GIT_COMMIT_FAILED', 'commit', async () => {
          const repo = await open();
          const author = await signatureFor(repo, identity);
          const result = await options.exclusive(() => commitScope(repo, { message, author }));
          return result.commit === null ? result : announced('commit', result);
        }),
      ),

    push: (): Promise<{ summary: string }> =>
      serial(() =>
        translated('GIT_PUSH_FAILED', 'push', async () => {
          return announced('push', await pushBranch(await open(), remoteBranch()));
        }),
      ),

    pull: (identity: Identity | null | undefined): Promise<{ summary: string }> =>
      serial(() =>
        translated('GIT_PULL_FAILED', 'pull', async () => {
          const repo = await open();
          // The fetch only adds objects and moves origin/<branch>: content writes may go on meanwhile.
          const target = await fetchForPull(repo, remoteBranch());
          const committer = await signatureFor(repo, identity);
          return announced('pull', await options.exclusive(() => rebaseOntoFetched(repo, target, committer)));
        }),
      ),
  };
}

export type GitService = ReturnType<typeof createGitService>;
