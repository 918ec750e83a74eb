import * as v from 'valibot';
import { ERROR_STATUS, type ErrorCode } from '../../src/errors.js';
import type { Endpoint } from '../../src/http/endpoint.js';
import { ENDPOINTS, errorCodesOf } from '../../src/http/endpoints.js';
import { errorEnvelope } from '../../src/http/schemas/responses.js';

export interface ContractChecker {
  /** A `fetch` that checks every answer against the endpoint table before handing it on. */
  fetch: typeof fetch;
  /** Answers that did not match what the table (and so the OpenAPI document) says. */
  problems: string[];
  /** `<operation> <status>` of every answer seen. */
  seen: Set<string>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/content/:id` → a pattern for the path; `:path{.+}` keeps its own pattern. */
function pathPattern(prefix: string, honoPath: string): RegExp {
  let source = '';
  let rest = honoPath;
  for (const match of honoPath.matchAll(/:(\w+)(?:\{([^}]*)\})?/g)) {
    const at = rest.indexOf(match[0]);
    source += escapeRegExp(rest.slice(0, at)) + (match[2] ? `(?:${match[2]})` : '[^/]+');
    rest = rest.slice(at + match[0].length);
  }
  return new RegExp(`^${escapeRegExp(prefix)}${source}${escapeRegExp(rest)}/?$`);
}

const issuesOf = (issues: v.BaseIssue<unknown>[]) =>
  issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`).join('; ');

/**
 * Wraps fetch so that every answer the typed client gets is checked against the endpoint table:
 * the success body against the response schema, the `ETag` header where documented, and an error
 * body against the envelope with the endpoint's documented codes, at the status the catalog gives.
 */
export function contractChecker(prefix = '/__cms/api'): ContractChecker {
  const routes = ENDPOINTS.map((endpoint) => ({ endpoint, pattern: pathPattern(prefix, endpoint.path) }));
  const problems: string[] = [];
  const seen = new Set<string>();

  async function check(endpoint: Endpoint, response: Response, where: string): Promise<void> {
    const success = endpoint.response;
    seen.add(`${endpoint.operation} ${response.status}`);
    if (success && (response.status === success.status || response.status === success.alsoStatus?.status)) {
      if (success.etag && !/^"[^"]+"$/.test(response.headers.get('etag') ?? ''))
        problems.push(`${where}: no quoted ETag header`);
      // A file or an event stream is not JSON (and a stream never ends).
      if (success.file || success.eventStream) return;
      const parsed = v.safeParse(success.schema!, await response.json());
      if (!parsed.success) problems.push(`${where} ${response.status}: ${issuesOf(parsed.issues)}`);
      return;
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push(`${where} ${response.status}: not JSON: ${text.slice(0, 200)}`);
      return;
    }
    const parsed = v.safeParse(errorEnvelope(errorCodesOf(endpoint)), body);
    if (!parsed.success) {
      problems.push(
        `${where} ${response.status}: an undocumented answer: ${text.slice(0, 300)} (${issuesOf(parsed.issues)})`,
      );
      return;
    }
    const code = parsed.output.error.code as ErrorCode;
    if (ERROR_STATUS[code] !== response.status)
      problems.push(`${where}: ${code} came with ${response.status}, the catalog says ${ERROR_STATUS[code]}`);
  }

  const checkingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const where = `${method} ${url.pathname}`;
    const route = routes.find(({ endpoint, pattern }) => endpoint.method === method && pattern.test(url.pathname));
    if (!route) problems.push(`${where}: no endpoint in the table`);
    else await check(route.endpoint, response.clone(), where);
    return response;
  };

  return { fetch: checkingFetch, problems, seen };
}
