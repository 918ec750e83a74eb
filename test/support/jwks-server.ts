import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, type JWTPayload, SignJWT, UnsecuredJWT } from 'jose';

export interface SignOptions {
  /** `wrong` signs with a key the JWKS does not publish (but with the same `kid`, so only the signature fails). @default 'good' */
  key?: 'good' | 'wrong';
  /** Seconds from now until `exp`; negative gives an expired token; `null` omits the claim. @default 300 */
  expiresIn?: number | null;
  /** `null` omits the claim. @default the server's audience */
  audience?: string | string[] | null;
  /** `null` omits the claim. @default the server's issuer */
  issuer?: string | null;
  /** An RSA algorithm. @default 'RS256' */
  alg?: 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512';
  /** Header `kid`. @default 'quire-test-key' */
  kid?: string;
}

export interface JwksServer {
  /** `http://127.0.0.1:<port>/jwks.json` */
  jwksUrl: string;
  issuer: string;
  audience: string;
  /** How many times the key set was fetched (to check caching, if a test cares). */
  requests(): number;
  sign(claims: JWTPayload, options?: SignOptions): Promise<string>;
  /** An `alg: none` token with the same default claims: must never be accepted. */
  unsigned(
    claims: JWTPayload,
    options?: { expiresIn?: number; audience?: string | string[] | null; issuer?: string | null },
  ): string;
  close(): Promise<void>;
}

const KID = 'quire-test-key';

/**
 * A real key server on loopback, standing in for an access gateway (Cloudflare Access, IAP, ...):
 * publishes one RSA public key as a JWK set and signs tokens with it (or with an unpublished key).
 */
export async function startJwksServer(options: { issuer?: string; audience?: string } = {}): Promise<JwksServer> {
  const issuer = options.issuer ?? 'https://gateway.test';
  const audience = options.audience ?? 'quire-test';
  const good = await generateKeyPair('RS256', { extractable: true });
  const wrong = await generateKeyPair('RS256', { extractable: true });
  // No `alg` in the JWK: the key may then verify any RSA algorithm the verifier allows.
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(good.publicKey)), kid: KID, use: 'sig' }] });

  let requests = 0;
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/jwks.json') {
      requests += 1;
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(jwks);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const now = () => Math.floor(Date.now() / 1000);

  return {
    jwksUrl: `http://127.0.0.1:${port}/jwks.json`,
    issuer,
    audience,
    requests: () => requests,
    async sign(claims, signOptions = {}) {
      const key: CryptoKey = signOptions.key === 'wrong' ? wrong.privateKey : good.privateKey;
      const jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: signOptions.alg ?? 'RS256', kid: signOptions.kid ?? KID, typ: 'JWT' })
        .setIssuedAt(typeof claims.iat === 'number' ? claims.iat : now() - 60);
      if (signOptions.expiresIn !== null) jwt.setExpirationTime(now() + (signOptions.expiresIn ?? 300));
      const iss = signOptions.issuer === undefined ? issuer : signOptions.issuer;
      const aud = signOptions.audience === undefined ? audience : signOptions.audience;
      if (iss !== null) jwt.setIssuer(iss);
      if (aud !== null) jwt.setAudience(aud);
      return jwt.sign(key);
    },
    unsigned(claims, signOptions = {}) {
      const jwt = new UnsecuredJWT(claims)
        .setIssuedAt(now() - 60)
        .setExpirationTime(now() + (signOptions.expiresIn ?? 300));
      const iss = signOptions.issuer === undefined ? issuer : signOptions.issuer;
      const aud = signOptions.audience === undefined ? audience : signOptions.audience;
      if (iss !== null) jwt.setIssuer(iss);
      if (aud !== null) jwt.setAudience(aud);
      return jwt.encode();
    },
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
