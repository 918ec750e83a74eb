import { compareHistories } from './history.js';
import { REMOTE, remoteUrl } from './remote.js';
import { currentBranch, type GitRepo, resolveOrNull } from './repository.js';
import { changedFilesOffThread } from './status-thread.js';

/** GitStatus, as `GET /git/status` answers it. */
export interface GitStatus {
  isRepo: true;
  hasChanges: boolean;
  changedFiles: number;
  ahead: number;
  behind: number;
  branch: string;
  remoteConfigured: boolean;
}

/**
 * `ahead`/`behind` compare the local branch with `refs/remotes/origin/<branch>` as of the last
 * fetch (every pull, and a rejected push, refreshes it; a push moves it): a status answer needs
 * no network and no token. Never fetched: every local commit counts as ahead.
 */
export async function readStatus(repo: GitRepo, remoteBranch: string | null): Promise<GitStatus> {
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
  };
}
