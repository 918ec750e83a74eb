import type * as v from 'valibot';
import type { ErrorCode } from '../errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One endpoint, declared once. The declaration registers the route (`src/http/register.ts`),
 * validates its input before the handler runs, produces its OpenAPI operation
 * (`src/http/openapi.ts`) and types the client's method (`src/client/`). It holds schemas and
 * words only, so that the browser-side client can import it.
 */
export interface EndpointSpec {
  method: HttpMethod;
  /** Relative to the prefix, in Hono's syntax (`/content/:id`, `/assets/meta/:path{.+}`). */
  path: string;
  summary: string;
  description?: string;
  /** `public`: answered without a verified identity even when `requireIdentity` is on. */
  access?: 'public';
  /** The path parameters, one key per `:name` in `path`. */
  params?: v.GenericSchema;
  query?: v.GenericSchema;
  /** The JSON body (or, `multipart`, the text fields of a form); `optional`: it may be omitted, and is then `{}`. */
  body?: { schema: v.GenericSchema; optional?: true; multipart?: true };
  /**
   * The operation takes the `If-Match` header: `required`, or `alternative` to its own `etag` field
   * (when both are given both must match).
   */
  ifMatch?: 'required' | 'alternative';
  /** A missing field is INVALID_REQUEST rather than MISSING_REQUIRED_FIELD (the assets endpoints). */
  missingIsInvalid?: true;
  /** The success answer; absent for the routes that always answer 400. */
  response?: {
    status: number;
    description: string;
    /** JSON body; absent with `file`. */
    schema?: v.GenericSchema;
    /** The body is the stored file itself (and HEAD answers its headers). */
    file?: true;
    /** The body is a stream of Server-Sent Events, described in `description`. */
    eventStream?: true;
    /** The answer carries `ETag: "<metaEtag>.<contentEtag>"`. */
    etag?: true;
    /** Another success status with the same body (a batch with failures: 207). */
    alsoStatus?: { status: number; description: string };
  };
  /**
   * The error codes particular to this endpoint. The generator adds those every endpoint of its
   * kind can give: INTERNAL_ERROR, UNAUTHORIZED (unless public), INVALID_REQUEST (with input),
   * PAYLOAD_TOO_LARGE and UNSUPPORTED_MEDIA_TYPE (with a JSON body).
   */
  errors: readonly ErrorCode[];
  /** `false`: the typed client has no method for it (the routes that always answer 400). */
  clientMethod?: false;
}

/** A declaration with its name in the table: `area.name`, the client's method (`client.content.getLocale`). */
export type Endpoint = EndpointSpec & { operation: string };

/** A path parameter in Hono's syntax: `:id`, or `:path{.+}` with its own pattern. */
export const PATH_PARAMETER = /:(\w+)(\{[^}]*\})?/g;

/** The path with each parameter filled in, encoded as one segment (an asset path's `/` too, as %2F). */
export const fillPath = (path: string, params: Record<string, string>): string =>
  path.replace(PATH_PARAMETER, (_, name: string) => encodeURIComponent(params[name] ?? ''));

/** Keeps the declaration's literal types, so that handlers and the client see its exact schemas. */
export const defineEndpoint = <const E extends EndpointSpec>(endpoint: E): E => endpoint;

type OutputOf<S> = S extends v.GenericSchema ? v.InferOutput<S> : Record<string, never>;

export type ParamsOf<E extends EndpointSpec> = OutputOf<E['params']>;
export type QueryOf<E extends EndpointSpec> = OutputOf<E['query']>;
export type BodyOf<E extends EndpointSpec> = E['body'] extends { schema: infer S } ? OutputOf<S> : undefined;
/** What a successful call answers (`Response` for a file). */
export type ResultOf<E extends EndpointSpec> = E['response'] extends { schema: infer S } ? OutputOf<S> : Response;
