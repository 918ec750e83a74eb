import { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';

export function authRoutes() {
  return new Hono<AppEnv>().get('/user', (c) => {
    const identity = c.get('identity');
    return c.json(identity ? { authenticated: true, user: { email: identity.email, sub: identity.sub } } : { authenticated: false });
  });
}
