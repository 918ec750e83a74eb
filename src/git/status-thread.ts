import { Worker } from 'node:worker_threads';
import { packageDistFile } from '../util/package-files.js';
import type { BranchState } from './branch-state.js';
import type { GitRepo } from './repository.js';
import type { StatusReply, StatusRequest } from './status-worker.js';
import type { ChangedFile } from './worktree-status.js';

type Answer = { changed: ChangedFile[]; branch?: BranchState };
type Pending = { resolve: (answer: Answer) => void; reject: (error: Error) => void };

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, Pending>();

/** Fails every call in flight and lets the next call start a new worker. */
function failAll(error: Error) {
  worker = null;
  for (const { reject } of pending.values()) reject(error);
  pending.clear();
}

function statusWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(packageDistFile('src', 'git', 'status-worker.js'));
  // An idle worker must not keep the server's process alive.
  started.unref();
  started.on('message', (reply: StatusReply) => {
    const call = pending.get(reply.id);
    pending.delete(reply.id);
    if (pending.size === 0) started.unref();
    if (!call) return;
    if ('changed' in reply) call.resolve(reply);
    else call.reject(Object.assign(new Error(reply.error.message), reply.error.code && { code: reply.error.code }));
  });
  started.on('error', (error) => failAll(error));
  started.on('exit', (code) => {
    if (worker === started) failAll(new Error(`the git status worker stopped (exit code ${code})`));
  });
  worker = started;
  return started;
}

function ask(repo: GitRepo, branch: StatusRequest['branch']): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    const request: StatusRequest = { id, dir: repo.dir, gitdir: repo.gitdir, scopes: repo.scopes, branch };
    const thread = statusWorker();
    // Referenced while a call waits on it, like any other pending I/O.
    thread.ref();
    thread.postMessage(request);
  });
}

/** `changedFiles` of the repository, computed in a worker thread: the event loop goes on serving meanwhile. */
export const changedFilesOffThread = (repo: GitRepo): Promise<ChangedFile[]> =>
  ask(repo, null).then((answer) => answer.changed);

/** The changed files and where the branch stands (see `branchState`), computed in the worker thread. */
export const statusOffThread = (repo: GitRepo, remoteBranch: string | null) =>
  ask(repo, { remoteBranch }) as Promise<Required<Answer>>;
