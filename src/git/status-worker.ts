import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { createStatusTracker } from './status-tracker.js';
import type { ChangedFile } from './worktree-status.js';

/** What the request thread asks: the changed files of one repository's scopes. */
export interface StatusRequest {
  id: number;
  dir: string;
  gitdir: string;
  scopes: string[];
}

export type StatusReply =
  | { id: number; changed: ChangedFile[] }
  | { id: number; error: { message: string; code?: string } };

// The walks (lstat of every file, hashing the changed ones) run here, so the requests of the
// server's thread never wait on them; the status between calls, HEAD's tree and the index live here too.
const tracker = createStatusTracker();
// isomorphic-git's object cache (pack indexes) for the worker's life: a fresh one per call read a
// 100k-item repository's pack index again on every call. Packs are never rewritten in place.
const cache = {};

parentPort!.on('message', async ({ id, dir, gitdir, scopes }: StatusRequest) => {
  let reply: StatusReply;
  try {
    reply = { id, changed: await tracker.changedFiles({ fs, dir, gitdir, scopes, cache }) };
  } catch (error) {
    const { message, code } = error as { message?: string; code?: string };
    reply = { id, error: { message: message ?? String(error), ...(typeof code === 'string' && { code }) } };
  }
  parentPort!.postMessage(reply);
});
