import git from 'isomorphic-git';
import { compareHistories } from './history.js';
import { REMOTE, remoteUrl } from './remote.js';
import { at, currentBranch, resolveOrNull, type GitRepo } from './repository.js';

/** GitStatus of the interface. */
export interface GitStatus {
  isRepo: true;
  hasChanges: boolean;
  changedFiles: number;
  ahead: number;
  behind: number;
  branch: string;
  remoteConfigured: boolean;
}

/** A status row: [path, head, workdir, stage]; a file differs from the last commit when head ≠ workdir. */
export type StatusRow = [string, number, number, number];

/** Files under the content root and assets dir that differ from HEAD (what a commit would take). */
export async function changedRows(repo: GitRepo): Promise<StatusRow[]> {
  const matrix = await git.statusMatrix({ ...at(repo), filepaths: repo.scopes });
  return matrix.filter(([, head, workdir]) => head !== workdir) as StatusRow[];
}

/**
 * `ahead`/`behind` compare the local branch with `refs/remotes/origin/<branch>` as of the last
 * fetch (every pull, and a rejected push, refreshes it; a push moves it): a status answer needs
 * no network and no token. Never fetched: every local commit counts as ahead.
 */
export async function readStatus(repo: GitRepo, remoteBranch: string | null): Promise<GitStatus> {
  const changed = await changedRows(repo);
  const branch = await currentBranch(repo);
  const remoteConfigured = (await remoteUrl(repo)) !== null;
  let ahead = 0;
  let behind = 0;
  if (remoteConfigured && branch) {
    const local = await resolveOrNull(repo, `refs/heads/${branch}`);
    const tracking = await resolveOrNull(repo, `refs/remotes/${REMOTE}/${remoteBranch ?? branch}`);
    if (local || tracking) ({ ahead, behind } = await compareHistories(repo, local, tracking));
  }
  return { isRepo: true, hasChanges: changed.length > 0, changedFiles: changed.length, ahead, behind, branch: branch ?? 'HEAD', remoteConfigured };
}
