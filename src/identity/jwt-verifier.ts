import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import type { IdentityResult, IdentityVerifier } from './types.js';

export interface JwtSource {
  jwksUrl: string;
  issuer?: string;
  audience?: string | string[];
  /** Header carrying the token. */
  header: string;
  /** Cookie carrying the token when the header is absent. */
  cookie?: string;
  algorithms?: string[];
}

// `none` and symmetric algorithms can never verify against a public JWKS; listing them explicitly keeps jose strict.
const DEFAULT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** Verifies a gateway-signed JWT against a remote JWKS (fetched once, then cached and refreshed by jose). */
export function createJwtVerifier(source: JwtSource): IdentityVerifier {
  const jwks = createRemoteJWKSet(new URL(source.jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000 });
  const algorithms = source.algorithms ?? DEFAULT_ALGORITHMS;
  return async (headers) => {
    const header = headers.get(source.header)?.replace(/^Bearer\s+/i, '');
    const token = header || (source.cookie ? readCookie(headers, source.cookie) : undefined);
    if (!token)
      return {
        identity: null,
        reason: `no token in the ${source.header} header${source.cookie ? ` or the ${source.cookie} cookie` : ''}`,
      };
    try {
      // jose checks `exp` only when present: a token without one would be good forever, so it must have one.
      const { payload } = await jwtVerify(token, jwks, {
        issuer: source.issuer,
        audience: source.audience,
        algorithms,
        requiredClaims: ['exp'],
      });
      return identityFromClaims(payload);
    } catch (error) {
      return { identity: null, reason: describeJoseError(error) };
    }
  };
}

function identityFromClaims(payload: JWTPayload): IdentityResult {
  const email = typeof payload.email === 'string' ? payload.email : undefined;
  if (!email || !payload.sub) return { identity: null, reason: 'the token has no email or sub claim' };
  const name = typeof payload.name === 'string' && payload.name ? payload.name : undefined;
  return { identity: { email, sub: payload.sub, ...(name ? { name } : {}) } };
}

function describeJoseError(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `the token's ${error.claim} claim is not accepted`;
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey)
    return 'the token is not signed by a key of the gateway';
  if (error instanceof errors.JOSEAlgNotAllowed) return "the token's algorithm is not allowed";
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid)
    return "the gateway's signing keys could not be fetched";
  if (error instanceof errors.JOSEError) return `the token is invalid (${error.code})`;
  return "the gateway's signing keys could not be fetched";
}

function readCookie(headers: Headers, name: string): string | undefined {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeCookieValue(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** A value with a malformed percent-encoding is kept as sent: it then fails verification like any other bad token. */
function decodeCookieValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
