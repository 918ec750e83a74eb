import type { Identity } from '../identity/types.js';

/** What middleware hands to handlers. */
export interface AppEnv {
  Variables: {
    identity: Identity | null;
    /** Why there is no identity, for the 401 message. */
    identityReason: string;
  };
}
