import type { AuthOption } from '../config/schema.js';

/**
 * The gateway configuration in force: the `auth` option, else Cloudflare Access from
 * `CF_ACCESS_TEAM_DOMAIN` + `CF_ACCESS_AUD` read at run time (so a built server can be configured by its host).
 */
export function effectiveAuth(auth: AuthOption | null, env: NodeJS.ProcessEnv = process.env): AuthOption | null {
  if (auth) return auth;
  const teamDomain = env.CF_ACCESS_TEAM_DOMAIN?.trim()
    .replace(/^https:\/\//, '')
    .replace(/\/+$/, '');
  const audience = env.CF_ACCESS_AUD?.trim();
  return teamDomain && audience ? { type: 'cloudflare-access', teamDomain, audience } : null;
}
