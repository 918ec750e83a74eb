import { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { openApiJson } from '../openapi.js';

/** `GET /openapi.json`: public, like `/auth/user`; it describes the API and holds no content. */
export function openApiRoutes(prefix: string) {
  return new Hono<AppEnv>().get('/openapi.json', (c) => c.body(openApiJson(prefix), 200, {
    'content-type': 'application/json; charset=utf-8',
  }));
}
