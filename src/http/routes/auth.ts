import type { API } from '../endpoints.js';
import type { AreaHandlers } from '../register.js';

export function authHandlers(): AreaHandlers<typeof API.auth> {
  return {
    user: (_, c) => {
      const identity = c.get('identity');
      return c.json(
        identity
          ? { authenticated: true, user: { email: identity.email, sub: identity.sub } }
          : { authenticated: false },
      );
    },
  };
}
