import { QuireError } from '../errors.js';
import { compareHistories } from './history.js';
import { loadGit } from './isomorphic-git.js';
import { redactRemote } from './redact.js';
import { credentials, describeRemoteFailure, fetchBranch, http, REMOTE, remoteUrl, unusableRemote } from './remote.js';
import { at, currentBranch, type GitRepo, resolveOrNull } from './repository.js';

const failed = (message: string, details?: unknown) => new QuireError('GIT_PUSH_FAILED', message, details);

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Pushes the checked-out branch to `origin/<remoteBranch>` (the branch of the same name by default). */
export async function pushBranch(repo: GitRepo, configuredBranch: string | null): Promise<{ summary: string }> {
  const git = await loadGit();
  const branch = await currentBranch(repo);
  if (!branch) throw failed('HEAD is detached: check out a branch in the repository, then push again.');
  const local = await resolveOrNull(repo, `refs/heads/${branch}`);
  if (!local) throw failed(`Nothing to push: branch ${branch} has no commits yet. Commit first.`);
  const url = await remoteUrl(repo);
  if (!url) {
    throw failed(
      `No remote named "${REMOTE}" is configured: add one with \`git remote add ${REMOTE} https://<host>/<owner>/<repo>.git\`, set GIT_TOKEN, then push again.`,
      { reason: 'no-remote' },
    );
  }
  const unusable = unusableRemote(url);
  if (unusable) throw failed(unusable, { reason: 'unsupported-remote' });

  const target = configuredBranch ?? branch;
  const tracking = await resolveOrNull(repo, `refs/remotes/${REMOTE}/${target}`);
  const { ahead } = await compareHistories(repo, local, tracking);
  try {
    await git.push({ ...at(repo), http, ...credentials(), remote: REMOTE, ref: branch, remoteRef: target });
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    if (
      code === 'PushRejectedError' ||
      (code === 'GitPushError' && /non-fast-forward|fetch first|rejected/i.test(message ?? ''))
    ) {
      // Refresh the remote-tracking ref, so that status shows how far behind the branch is.
      await fetchBranch(repo, branch, target).catch(() => null);
      throw failed(
        `The remote branch ${target} has commits that are not here (someone else pushed): pull first, then push again.`,
        { reason: 'non-fast-forward' },
      );
    }
    if (code === 'GitPushError')
      throw failed(`The remote refused the push: ${redactRemote(message ?? '')}`, { reason: 'rejected' });
    throw failed(describeRemoteFailure(error, url), { reason: 'remote' });
  }
  return {
    summary:
      ahead === 0
        ? `${REMOTE}/${target} is already up to date`
        : `Pushed ${plural(ahead, 'commit')} to ${REMOTE}/${target}`,
  };
}
