import path from 'node:path';
import { compareHistories } from './history.js';
import { REMOTE, remoteUrl } from './remote.js';
import { currentBranch, type GitRepo, realpathLoose, relativeInside, resolveOrNull } from './repository.js';
import { changedFilesOffThread } from './status-thread.js';
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
 * `ahead`/`behind` compare the local branch with `refs/remotes/origin/<branch>` as of the last
 * fetch (every pull, and a rejected push, refreshes it; a push moves it): a status answer needs
 * no network and no token. Never fetched: every local commit counts as ahead.
 */
export async function readStatus(repo: GitRepo, remoteBranch: string | null, places: StatusPlaces): Promise<GitStatus> {
  const changed = await changedFilesOffThread(repo);
  const branch = await currentBranch(repo);
  const remoteConfigured = (await remoteUrl(repo)) !== null;
  let ahead = 0;
  let behind = 0;
  if (remoteConfigured && branch) {
    const local = await resolveOrNull(repo, `refs/heads/${branch}`);
    const tracking = await resolveOrNull(repo, `refs/remotes/${REMOTE}/${remoteBranch ?? branch}`);
    if (local || tracking) ({ ahead, behind } = await compareHistories(repo, local, tracking));
  }
  return {
    isRepo: true,
    hasChanges: changed.length > 0,
    changedFiles: changed.length,
    ahead,
    behind,
    branch: branch ?? 'HEAD',
    remoteConfigured,
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
