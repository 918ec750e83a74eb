import type { API } from '../endpoints.js';
import { jsonText } from '../json-text.js';
import { openApiJson } from '../openapi.js';
import type { Handler } from '../register.js';

/** `GET /openapi.json`: built once per prefix, served as the same bytes. */
export const openApiHandler =
  (prefix: string): Handler<typeof API.openapi> =>
  (_, c) =>
    jsonText(c, openApiJson(prefix));
