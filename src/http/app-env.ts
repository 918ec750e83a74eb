import type { Identity } from '../identity/types.js';

/** What middleware hands to handlers. */
export interface AppEnv {
  /** What the route entry passes to `app.fetch`. */
  Bindings: {
    /** The address the request came from, as the server saw it. */
    clientAddress?: string;
  };
  Variables: {
    identity: Identity | null;
    /** Why there is no identity, for the 401 message. */
    identityReason: string;
  };
}
