import type { Context, Hono } from 'hono';
import type { AppEnv } from './app-env.js';
import type { BodyOf, EndpointSpec, ParamsOf, QueryOf } from './endpoint.js';
import { readJsonBody } from './json-body.js';
import { parseInput } from './validate.js';

/** What a handler receives: the endpoint's input, validated against its declaration. */
export interface RouteInput<E extends EndpointSpec> {
  params: ParamsOf<E>;
  query: QueryOf<E>;
  /** The JSON body; for a multipart endpoint, a function that validates the form's text fields once they are read. */
  body: E['body'] extends { multipart: true } ? (fields: unknown) => BodyOf<E> : BodyOf<E>;
  /** The `If-Match` header as sent (see `guardEtag`). */
  ifMatch: string | undefined;
}

export type Handler<E extends EndpointSpec> = (
  input: RouteInput<E>,
  c: Context<AppEnv>,
) => Response | Promise<Response>;

/** One handler per endpoint of an area: a declaration without a handler does not compile. */
export type AreaHandlers<A> = { [K in keyof A]: A[K] extends EndpointSpec ? Handler<A[K]> : never };

/** Registers the endpoint's route: its path, query and body are validated before the handler runs. */
export function registerEndpoint<E extends EndpointSpec>(
  app: Hono<AppEnv>,
  endpoint: E,
  handler: Handler<E>,
  options: { jsonBodyBytes: number },
): void {
  const missingCode = endpoint.missingIsInvalid ? 'INVALID_REQUEST' : 'MISSING_REQUIRED_FIELD';
  const parse = (schema: EndpointSpec['params'], value: unknown, what: string) =>
    schema ? parseInput(schema, value, what, missingCode) : {};

  app.on(endpoint.method, endpoint.path, async (c) => {
    const params = parse(endpoint.params, c.req.param(), 'path');
    const query = parse(endpoint.query, c.req.query(), 'query');
    let body: unknown;
    const declared = endpoint.body;
    if (declared?.multipart) {
      body = (fields: unknown) => parseInput(declared.schema, fields, 'form', missingCode);
    } else if (declared) {
      const raw = await readJsonBody(c.req.raw, options.jsonBodyBytes);
      body = parseInput(declared.schema, raw === undefined && declared.optional ? {} : raw, 'body', missingCode);
    }
    const input = { params, query, body, ifMatch: c.req.header('if-match') } as RouteInput<E>;
    return handler(input, c);
  });
}
