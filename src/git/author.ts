import type { Identity } from '../identity/types.js';
import { loadGit } from './isomorphic-git.js';
import type { GitRepo } from './repository.js';

export interface Signature {
  name: string;
  email: string;
}

export const DEFAULT_SIGNATURE: Signature = { name: 'Quire', email: 'quire@localhost' };

const localPart = (email: string) => email.split('@')[0] || email;

/**
 * Who a commit is by (docs/interface.md, "Git"): the verified identity (name from the token's `name` claim,
 * else the e-mail's local part); without one, the repository's configured user; else Quire.
 */
export async function signatureFor(repo: GitRepo, identity: Identity | null | undefined): Promise<Signature> {
  const git = await loadGit();
  if (identity) return { name: identity.name?.trim() || localPart(identity.email), email: identity.email };
  const read = async (path: string) => {
    const value: unknown = await git.getConfig({ fs: repo.fs, gitdir: repo.gitdir, path });
    return typeof value === 'string' && value.trim() ? value.trim() : undefined;
  };
  const [name, email] = await Promise.all([read('user.name'), read('user.email')]);
  if (!name && !email) return DEFAULT_SIGNATURE;
  return { name: name ?? localPart(email!), email: email ?? DEFAULT_SIGNATURE.email };
}

/** The signature with the current time, as isomorphic-git takes it. */
export const stamped = (signature: Signature, now = new Date()) => ({
  ...signature,
  timestamp: Math.floor(now.getTime() / 1000),
  timezoneOffset: now.getTimezoneOffset(),
});
