/** A caller as verified by the access gateway. */
export interface Identity {
  email: string;
  sub: string;
  /** The token's `name` claim, when it has one (used for git authorship). */
  name?: string;
}

/** The outcome of looking for an identity on a request: who, or why nobody. */
export type IdentityResult = { identity: Identity } | { identity: null; reason: string };

export type IdentityVerifier = (headers: Headers) => Promise<IdentityResult>;
