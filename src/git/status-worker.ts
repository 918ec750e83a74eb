import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { changedFiles } from './worktree-status.js';

/** What the request thread asks: the changed files of one repository's scopes. */
export interface StatusRequest {
  id: number;
  dir: string;
  gitdir: string;
  scopes: string[];
}

export type StatusReply =
  | { id: number; changed: Awaited<ReturnType<typeof changedFiles>> }
  | { id: number; error: { message: string; code?: string } };

// The walk (lstat of every file, hashing the changed ones) runs here, so the requests of the
// server's thread never wait on it; its caches of HEAD's tree and the index live here between calls.
parentPort!.on('message', async ({ id, dir, gitdir, scopes }: StatusRequest) => {
  let reply: StatusReply;
  try {
    reply = { id, changed: await changedFiles({ fs, dir, gitdir, scopes, cache: {} }) };
  } catch (error) {
    const { message, code } = error as { message?: string; code?: string };
    reply = { id, error: { message: message ?? String(error), ...(typeof code === 'string' && { code }) } };
  }
  parentPort!.postMessage(reply);
});
