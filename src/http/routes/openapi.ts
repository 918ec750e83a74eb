import type { API } from '../endpoints.js';
import { openApiJson } from '../openapi.js';
import type { Handler } from '../register.js';

/** `GET /openapi.json`: built once per prefix, served as the same bytes. */
export const openApiHandler =
  (prefix: string): Handler<typeof API.openapi> =>
  (_, c) =>
    c.body(openApiJson(prefix), 200, { 'content-type': 'application/json; charset=utf-8' });
