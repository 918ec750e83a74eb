import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { type BranchState, branchState } from './branch-state.js';
import { createStatusTracker } from './status-tracker.js';
import type { ChangedFile } from './worktree-status.js';

/** What the request thread asks: the changed files of one repository's scopes, and with `branch`, where the branch stands. */
export interface StatusRequest {
  id: number;
  dir: string;
  gitdir: string;
  scopes: string[];
  branch: { remoteBranch: string | null } | null;
}

export type StatusReply =
  | { id: number; changed: ChangedFile[]; branch?: BranchState }
  | { id: number; error: { message: string; code?: string } };

// The walks (lstat of every file, hashing the changed ones) run here, so the requests of the
// server's thread never wait on them; the status between calls, HEAD's tree and the index live here too.
const tracker = createStatusTracker();
// isomorphic-git's object cache (pack indexes) for the worker's life: a fresh one per call read a
// 100k-item repository's pack index again on every call. Packs are never rewritten in place.
const cache = {};

parentPort!.on('message', async ({ id, dir, gitdir, scopes, branch }: StatusRequest) => {
  let reply: StatusReply;
  try {
    const repo = { fs, dir, gitdir, scopes, cache };
    const changed = await tracker.changedFiles(repo);
    reply = branch ? { id, changed, branch: await branchState(repo, branch.remoteBranch) } : { id, changed };
  } catch (error) {
    const { message, code } = error as { message?: string; code?: string };
    reply = { id, error: { message: message ?? String(error), ...(typeof code === 'string' && { code }) } };
  }
  parentPort!.postMessage(reply);
});
