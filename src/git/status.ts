import path from 'node:path';
import { type GitRepo, realpathLoose, relativeInside } from './repository.js';
import { statusOffThread } from './status-thread.js';
import type { ChangedFile } from './worktree-status.js';

/** GitStatus, as `GET /git/status` answers it. */
export interface GitStatus {
  isRepo: true;
  hasChanges: boolean;
  changedFiles: number;
  ahead: number;
  behind: number;
  branch: string;
  remoteConfigured: boolean;
  files: StatusFile[];
}

/**
 * A changed file (its path relative to the repository) and where it lies: its path under the
 * content root, for naming the item it belongs to, and its path under the assets dir when it is in there.
 */
export interface StatusFile extends ChangedFile {
  contentFile?: string;
  asset?: string;
}

/** The folders whose files the status names, as the options give them. */
export interface StatusPlaces {
  contentRoot: string;
  assetsDir: string;
}

/**
 * The status, read in the worker thread (the changed files, the branch, and ahead/behind as
 * `branchState` counts them): no request waits on a walk of the tree or of the history, nor on
 * loading isomorphic-git, which the server's thread loads only for a commit, a pull or a push.
 */
export async function readStatus(repo: GitRepo, remoteBranch: string | null, places: StatusPlaces): Promise<GitStatus> {
  const { changed, branch } = await statusOffThread(repo, remoteBranch);
  return {
    isRepo: true,
    hasChanges: changed.length > 0,
    changedFiles: changed.length,
    ahead: branch.ahead,
    behind: branch.behind,
    branch: branch.branch ?? 'HEAD',
    remoteConfigured: branch.remoteConfigured,
    files: await placed(repo, changed, places),
  };
}

async function placed(repo: GitRepo, files: ChangedFile[], places: StatusPlaces): Promise<StatusFile[]> {
  // The repository's dir is a real path; the options' folders may lie behind a symlink.
  const [contentRoot, assetsDir] = await Promise.all([
    realpathLoose(places.contentRoot),
    realpathLoose(places.assetsDir),
  ]);
  return files.map((file) => {
    const absolute = path.join(repo.dir, ...file.path.split('/'));
    const contentFile = relativeInside(contentRoot, absolute) ?? undefined;
    const asset = relativeInside(assetsDir, absolute) ?? undefined;
    return { ...file, ...(contentFile && { contentFile }), ...(asset && { asset }) };
  });
}
