import { compareHistories } from './history.js';
import { REMOTE, remoteUrl } from './remote.js';
import { currentBranch, type GitRepo, resolveOrNull } from './repository.js';

/** Where the current branch stands: its name (null: a detached HEAD), the remote, and the commits on each side. */
export interface BranchState {
  branch: string | null;
  remoteConfigured: boolean;
  ahead: number;
  behind: number;
}

/**
 * `ahead`/`behind` compare the local branch with `refs/remotes/origin/<branch>` as of the last
 * fetch (every pull, and a rejected push, refreshes it; a push moves it): a status answer needs
 * no network and no token. Never fetched: every local commit counts as ahead.
 */
export async function branchState(repo: GitRepo, remoteBranch: string | null): Promise<BranchState> {
  const branch = await currentBranch(repo);
  const remoteConfigured = (await remoteUrl(repo)) !== null;
  let ahead = 0;
  let behind = 0;
  if (remoteConfigured && branch) {
    const local = await resolveOrNull(repo, `refs/heads/${branch}`);
    const tracking = await resolveOrNull(repo, `refs/remotes/${REMOTE}/${remoteBranch ?? branch}`);
    if (local || tracking) ({ ahead, behind } = await compareHistories(repo, local, tracking));
  }
  return { branch, remoteConfigured, ahead, behind };
}
