import type nodeHttp from 'isomorphic-git/http/node';
import { isLoopback } from '../util/loopback.js';
import { loadGit } from './isomorphic-git.js';
import { redactRemote } from './redact.js';
import { at, type GitRepo, resolveOrNull } from './repository.js';

export const REMOTE = 'origin';

/** A socket idle for this long aborts the request, so an unreachable host cannot hold git (and content writes) forever. */
const IDLE_TIMEOUT_MS = 30_000;

/** isomorphic-git's Node client with an idle timeout, loaded by the first push or pull (as isomorphic-git is). */
export const http: typeof nodeHttp = {
  request: async (request) =>
    (await import('isomorphic-git/http/node')).default.request({
      ...request,
      fetchOptions: { ...request.fetchOptions, timeout: IDLE_TIMEOUT_MS },
    }),
};

export async function remoteUrl(repo: GitRepo): Promise<string | null> {
  const git = await loadGit();
  const url: unknown = await git.getConfig({ fs: repo.fs, gitdir: repo.gitdir, path: `remote.${REMOTE}.url` });
  return typeof url === 'string' && url ? url : null;
}

/** Why a remote URL cannot be used, or null when it can: isomorphic-git speaks smart HTTP(S) only, and a token never travels in clear. */
export function unusableRemote(url: string): string | null {
  const shown = redactRemote(url);
  if (/^http:\/\//i.test(url) && sendsToken(url) && !isLoopback(hostOf(url))) {
    return (
      `The remote "${REMOTE}" (${shown}) is plain HTTP, so the token would cross the network unencrypted: use an https:// remote ` +
      '(plain http:// is accepted only for this machine, such as http://127.0.0.1, for tests and local mirrors).'
    );
  }
  if (/^https?:\/\//i.test(url)) return null;
  if (/^ssh:\/\//i.test(url) || /^[^\s/@:]+(:[^\s/@]*)?@[\w.-]+:/.test(url)) {
    return (
      `The remote "${REMOTE}" (${shown}) uses SSH, which Quire cannot use: ` +
      `use an HTTPS remote instead (e.g. \`git remote set-url ${REMOTE} https://github.com/<owner>/<repo>.git\`) and put a token in GIT_TOKEN.`
    );
  }
  return (
    `The remote "${REMOTE}" (${shown}) is not an HTTPS URL; ` +
    `Quire can only talk to HTTPS remotes: use an HTTPS remote instead and put a token in GIT_TOKEN.`
  );
}

/** Whether talking to the remote sends a credential: GIT_TOKEN, or a user and password in the URL itself (isomorphic-git sends those). */
function sendsToken(url: string): boolean {
  return Boolean(process.env.GIT_TOKEN) || /^[a-z]+:\/\/[^/?#]*@/i.test(url);
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/**
 * Credentials from the environment, read at call time (never from options, which are baked into
 * the build). A rejected token is not retried: a second 401 cancels.
 */
export function credentials() {
  const token = process.env.GIT_TOKEN;
  const username = process.env.GIT_USERNAME || 'x-access-token';
  return {
    onAuth: () => (token ? { username, password: token } : undefined),
    onAuthFailure: () => ({ cancel: true }),
  };
}

/** What went wrong talking to the remote, and what to do about it. */
export function describeRemoteFailure(error: unknown, url: string): string {
  const where = redactRemote(url);
  const { code, data, message } = error as {
    code?: string;
    data?: { statusCode?: number; statusMessage?: string };
    message?: string;
  };
  const tokenSet = Boolean(process.env.GIT_TOKEN);
  const status = code === 'UserCanceledError' ? 401 : code === 'HttpError' ? data?.statusCode : undefined;
  if (status === 401) {
    return tokenSet
      ? `The remote ${where} rejected the credentials (HTTP 401): ` +
          `check that GIT_TOKEN holds a valid token (and GIT_USERNAME the user name your host expects; default x-access-token).`
      : `The remote ${where} asks for credentials (HTTP 401): ` +
          `set GIT_TOKEN (and GIT_USERNAME if your host needs one other than x-access-token) in the server's environment.`;
  }
  if (status === 403)
    return `The remote ${where} refused access (HTTP 403): the token in GIT_TOKEN needs read and write access to this repository.`;
  if (status === 404)
    return `There is no repository at ${where} (HTTP 404): check the remote URL, and that the token can see the repository.`;
  if (status !== undefined)
    return `${`The remote ${where} answered HTTP ${status} ${data?.statusMessage ?? ''}`.trimEnd()}.`;
  if (code === 'SmartHttpError') return `${where} did not answer like a git server: check the remote URL.`;
  const network = [
    'ECONNREFUSED',
    'ENOTFOUND',
    'EAI_AGAIN',
    'ETIMEDOUT',
    'ECONNRESET',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'EPIPE',
  ];
  if ((code && network.includes(code)) || /timed out|socket hang up/i.test(message ?? '')) {
    return `Could not reach the remote ${where} (${code ?? redactRemote(message ?? '')}): check the remote URL and that this server can reach it.`;
  }
  return `Talking to the remote ${where} failed: ${redactRemote(message ?? String(error))}`;
}

/**
 * Fetches one branch of the remote into `refs/remotes/origin/<branch>` and returns its commit,
 * or null when the remote does not have that branch (an empty remote, a branch not pushed yet).
 */
export async function fetchBranch(repo: GitRepo, localBranch: string, remoteBranch: string): Promise<string | null> {
  const git = await loadGit();
  const tracking = `refs/remotes/${REMOTE}/${remoteBranch}`;
  const before = await resolveOrNull(repo, tracking);
  try {
    const result = await git.fetch({
      ...at(repo),
      http,
      ...credentials(),
      remote: REMOTE,
      ref: localBranch,
      remoteRef: `refs/heads/${remoteBranch}`,
      singleBranch: true,
      tags: false,
    });
    return result.fetchHead ?? null;
  } catch (error) {
    const { code, data } = error as { code?: string; data?: { what?: string } };
    if (code === 'NotFoundError' && data?.what === `refs/heads/${remoteBranch}`) return null;
    // isomorphic-git moves the tracking ref before it stores the pack: put it back.
    if (before) await git.writeRef({ fs: repo.fs, gitdir: repo.gitdir, ref: tracking, value: before, force: true });
    else await git.deleteRef({ fs: repo.fs, gitdir: repo.gitdir, ref: tracking }).catch(() => {});
    if (code === 'NotFoundError' && data?.what === 'HEAD') {
      throw new Error(
        `the remote's HEAD (its default branch) names a branch that does not exist there; ` +
          `make an existing branch, such as ${remoteBranch}, the remote's default branch`,
      );
    }
    throw error;
  }
}
