import type { AuthOption } from '../config/schema.js';
import { createJwtVerifier } from './jwt-verifier.js';
import type { IdentityVerifier } from './types.js';

const NOT_CONFIGURED: IdentityVerifier = async () => ({ identity: null, reason: 'no access gateway is configured' });

/** One verifier per gateway type; all answer "who" or "why nobody" and know nothing of HTTP responses. */
export function createIdentityVerifier(auth: AuthOption | null): IdentityVerifier {
  if (!auth) return NOT_CONFIGURED;
  switch (auth.type) {
    case 'cloudflare-access':
      return createJwtVerifier({
        jwksUrl: `https://${auth.teamDomain}/cdn-cgi/access/certs`,
        issuer: `https://${auth.teamDomain}`,
        audience: auth.audience,
        header: 'cf-access-jwt-assertion',
        cookie: 'CF_Authorization',
      });
    case 'jwt':
      return createJwtVerifier({ ...auth, header: auth.header ?? 'authorization' });
    case 'trusted-header':
      return async (headers) => {
        const email = headers.get(auth.emailHeader)?.trim();
        if (!email) return { identity: null, reason: `no ${auth.emailHeader} header` };
        return { identity: { email, sub: (auth.subHeader && headers.get(auth.subHeader)?.trim()) || email } };
      };
  }
}
