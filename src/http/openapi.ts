import { createRequire } from 'node:module';
import { type ConversionConfig, type JsonSchema, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';
import { type Endpoint, PATH_PARAMETER } from './endpoint.js';
import { ENDPOINTS, errorCodesOf } from './endpoints.js';
import {
  BatchOperationSchema,
  BatchOperationSlot,
  CreateContentSchema,
  LocaleUpdateSchema,
} from './schemas/content.js';
import { JsonObject } from './schemas/object-only.js';
import { errorEnvelope, RESPONSE_COMPONENTS } from './schemas/responses.js';

/** Schemas that appear by name (`#/components/schemas/<name>`) wherever they are used. */
const COMPONENTS: Record<string, v.GenericSchema> = {
  ...RESPONSE_COMPONENTS,
  CreateContentInput: CreateContentSchema,
  LocaleUpdateData: LocaleUpdateSchema,
  BatchOperation: BatchOperationSchema,
};

type Json = Record<string, unknown>;

/** `/content/:id` → `/content/{id}`; `/assets/meta/:path{.+}` → `/assets/meta/{path}`. */
export function toOpenApiPath(honoPath: string): string {
  return honoPath.replace(PATH_PARAMETER, '{$1}');
}

/** `content.getLocale` → `contentGetLocale`. */
const operationId = (operation: string) => operation.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase());

const baseConfig: ConversionConfig = {
  target: 'draft-2020-12',
  // Requests are documented as sent: a pipeline stops before its first transformation (a comma list stays a string).
  typeMode: 'input',
  // Trimming is leniency, not a constraint a client must meet.
  ignoreActions: ['trim'],
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  // A refinement JSON Schema cannot express is said in words.
  overrideAction: ({ valibotAction, jsonSchema }) => {
    if (valibotAction.type !== 'check') return undefined;
    const message = (valibotAction as { message?: unknown }).message;
    if (typeof message !== 'string') return jsonSchema;
    return {
      ...jsonSchema,
      description: jsonSchema.description ? `${jsonSchema.description} ${message}.` : `${message}.`,
    };
  },
  overrideSchema: ({ valibotSchema, jsonSchema }) => {
    if (valibotSchema === BatchOperationSlot) return { $ref: '#/components/schemas/BatchOperation' };
    if (valibotSchema === JsonObject) return { type: 'object' };
    // objectOnly(schema): the schema alone says it (see there).
    if (
      valibotSchema.type === 'intersect' &&
      (valibotSchema as v.IntersectSchema<v.GenericSchema[], undefined>).options[0] === JsonObject
    ) {
      return (jsonSchema.allOf as JsonSchema[])[1];
    }
    // Said outright: generators (openapi-typescript) close an object that does not say it takes other keys.
    if (valibotSchema.type === 'loose_object') return { ...jsonSchema, additionalProperties: true };
    return undefined;
  },
};

/** One schema, with named schemas as references. */
function convert(schema: v.GenericSchema): Json {
  const { $schema: _, $defs, ...converted } = toJsonSchema(schema, { ...baseConfig, definitions: COMPONENTS }) as Json;
  // Only named schemas may be referenced: an unnamed recursive (lazy) schema would leave a dangling $ref.
  const unnamed = Object.keys(($defs ?? {}) as Json).filter((key) => !(key in COMPONENTS));
  if (unnamed.length > 0)
    throw new Error(`OpenAPI: add the recursive schema(s) ${unnamed.join(', ')} to the named components.`);
  return converted;
}

const jsonContent = (schema: Json) => ({ 'application/json': { schema } });

const ETAG_HEADER = {
  ETag: { description: 'The etag, quoted: `"<metaEtag>.<contentEtag>"`.', schema: { type: 'string' } },
};

/** An object schema's properties as parameters `in` the path, query or header. */
function parametersIn(where: 'path' | 'query', schema: v.GenericSchema | undefined): Json[] {
  if (!schema) return [];
  const converted = convert(schema) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(converted.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || (converted.required?.includes(name) ?? false),
      ...(description !== undefined && { description }),
      schema: rest,
    };
  });
}

function parameters(endpoint: Endpoint): Json[] {
  const list = [...parametersIn('path', endpoint.params), ...parametersIn('query', endpoint.query)];
  if (endpoint.ifMatch) {
    const required = endpoint.ifMatch === 'required';
    list.push({
      name: 'If-Match',
      in: 'header',
      required,
      description: required
        ? 'The current etag (quoted, weak or bare). Another one is 412 STALE_WRITE.'
        : 'The current etag (quoted, weak or bare), as an alternative to `etag`; when both are given both must match. ' +
          'Another one is 412 STALE_WRITE.',
      schema: { type: 'string' },
    });
  }
  return list;
}

function requestBody(endpoint: Endpoint): Json | undefined {
  const body = endpoint.body;
  if (!body) return undefined;
  if (body.multipart) {
    const fields = convert(body.schema) as { properties?: Json; required?: string[] };
    const schema = {
      ...fields,
      properties: {
        file: { description: 'The file.', contentMediaType: 'application/octet-stream' },
        ...fields.properties,
      },
      required: ['file', ...(fields.required ?? [])],
    };
    return { required: true, content: { 'multipart/form-data': { schema } } };
  }
  return { required: !body.optional, content: jsonContent(convert(body.schema)) };
}

function responses(endpoint: Endpoint): Json {
  const result: Json = {};
  const success = endpoint.response;
  if (success) {
    const headers = success.etag ? { headers: ETAG_HEADER } : {};
    const content = success.file
      ? { '*/*': { schema: { description: "The file's bytes." } } }
      : success.eventStream
        ? {
            'text/event-stream': {
              schema: { type: 'string', description: 'Server-Sent Events (see the description).' },
            },
          }
        : jsonContent(convert(success.schema!));
    result[String(success.status)] = { description: success.description, ...headers, content };
    if (success.alsoStatus)
      result[String(success.alsoStatus.status)] = { description: success.alsoStatus.description, content };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(endpoint))
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    result[String(status)] = { description: codes.join(', '), content: jsonContent(convert(errorEnvelope(codes))) };
  }
  if (endpoint.method !== 'GET') {
    const forbidden = result['403'] as { description: string; content: Json };
    result['403'] = {
      description: `${forbidden.description}; or ${CROSS_SITE_FORM.description}`,
      content: { ...forbidden.content, ...CROSS_SITE_FORM.content },
    };
  }
  return result;
}

/** Astro's own answer, before the API sees the request: plain text, not the envelope. */
const CROSS_SITE_FORM = {
  description:
    "refused by Astro's `checkOrigin` (plain text): a form-like or missing content type (`application/x-www-form-urlencoded`, " +
    '`multipart/form-data`, `text/plain`) from another origin. Send an `Origin` header that matches the site.',
  content: { 'text/plain': { schema: { type: 'string' } } },
};

/** How a caller proves who it is: the access gateway's token or header (which one is the server's `auth` option). */
const SECURITY_SCHEMES = {
  cloudflareAccess: {
    type: 'apiKey',
    in: 'header',
    name: 'Cf-Access-Jwt-Assertion',
    description:
      'Cloudflare Access (`auth.type: cloudflare-access`): the JWT the gateway adds to every request it lets through.',
  },
  cloudflareAccessCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'CF_Authorization',
    description: 'Cloudflare Access: the same JWT in the cookie the gateway sets, when the header is absent.',
  },
  gatewayJwt: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'Another gateway (`auth.type: jwt`): a JWT verified against the configured JWKS, in `Authorization: Bearer` ' +
      '(or the header and cookie named by `auth.header` and `auth.cookie`).',
  },
  trustedHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Forwarded-Email',
    description:
      'A proxy that authenticates for the server (`auth.type: trusted-header`): the e-mail in the header named by ' +
      '`auth.emailHeader` (shown here with a common name). Only safe when nothing else can reach the server.',
  },
};

/** Any one of the schemes will do; which one the server takes is its `auth` option. */
const SECURITY = Object.keys(SECURITY_SCHEMES).map((name) => ({ [name]: [] }));

const tagOf = (endpoint: Endpoint) => (endpoint.operation.includes('.') ? endpoint.operation.split('.')[0]! : 'meta');

function operation(endpoint: Endpoint): Json {
  const body = requestBody(endpoint);
  return {
    operationId: operationId(endpoint.operation),
    tags: [tagOf(endpoint)],
    summary: endpoint.summary,
    ...(endpoint.description && { description: endpoint.description }),
    ...(endpoint.access === 'public' && { security: [] }),
    parameters: parameters(endpoint),
    ...(body && { requestBody: body }),
    responses: responses(endpoint),
  };
}

/** HEAD of a file endpoint: the GET's headers without the body (every GET answers HEAD; a file is where it is useful). */
function headOperation(get: Json): Json {
  const responses = Object.fromEntries(
    Object.entries(get.responses as Record<string, Json>).map(([status, { description, headers }]) => [
      status,
      { description, ...(headers !== undefined && { headers }) },
    ]),
  );
  return { ...get, operationId: `${get.operationId}Head`, summary: `${get.summary} (headers only)`, responses };
}

const TAGS: Record<string, string> = {
  meta: 'The document itself.',
  auth: 'Who the caller is.',
  events: 'Live changes, as Server-Sent Events.',
  assets: 'Files under the assets folder, with their metadata.',
  content: 'Pages, fragments and data entries by ID, each with its locales.',
  data: 'Data entries by collection and name.',
  fragments: 'Fragments by collection and name, global or per site.',
  blocks: 'The fragments again, reported with `kind: block`.',
  git: 'The repository that holds the content.',
  sites: "The sites configuration, redirects, translations, and each site's pages.",
};

const DESCRIPTION = `The content API of astro-quire, generated from the schemas the routes validate with.

- Errors: \`{ error: { code, message, details? } }\`; each operation lists its codes by status. An unknown
  path under the prefix is 404 ROUTE_NOT_FOUND, a method a path does not have is 405 METHOD_NOT_ALLOWED (with
  \`Allow\`).
- Etags: \`<metaEtag>.<contentEtag>\` per locale; a write with an outdated etag is 412 STALE_WRITE.
- A browser request from another origin (an \`Origin\`, or \`Sec-Fetch-Site: cross-site\`, that is neither the
  site's own nor listed in \`allowedOrigins\`) is 403 FORBIDDEN_ORIGIN; clients that send no \`Origin\`
  (scripts, servers) are not affected. Under \`astro dev --host\` without required identity, changes from
  other machines are 403 FORBIDDEN_CLIENT.
- Identity comes from an access gateway (see the security schemes). With \`requireIdentity\` (the default in
  production) every operation except those marked public answers 401 UNAUTHORIZED without a verified identity.
- Astro's \`checkOrigin\` answers unsafe requests from another origin with a plain 403: send an \`Origin\`
  header matching the site, or a JSON content type. A JSON body sent with another content type is 415
  UNSUPPORTED_MEDIA_TYPE.
- Every GET also answers HEAD (the same headers, no body).
- The rules schemas cannot show (etags, inheritance, redirects, asset paths, git) are in docs/interface.md
  of the astro-quire repository.`;

function packageVersion(): string {
  try {
    return (createRequire(import.meta.url)('astro-quire/package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** The OpenAPI 3.1 document of the API under `prefix`. */
export function buildOpenApiDocument(prefix: string): Json {
  const paths: Record<string, Json> = {};
  for (const endpoint of ENDPOINTS) {
    const path = toOpenApiPath(endpoint.path);
    const documented = operation(endpoint);
    const head = endpoint.response?.file ? { head: headOperation(documented) } : {};
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: documented, ...head };
  }
  const tags = [...new Set(ENDPOINTS.map(tagOf))];
  const components = toJsonSchemaDefs(COMPONENTS, baseConfig) as Record<string, JsonSchema>;
  return {
    openapi: '3.1.1',
    info: {
      title: 'astro-quire content API',
      version: packageVersion(),
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: prefix, description: "The API prefix (the integration's `prefix` option)." }],
    tags: tags.map((name) => ({ name, description: TAGS[name] })),
    security: SECURITY,
    paths,
    components: { schemas: components, securitySchemes: SECURITY_SCHEMES },
  };
}

const serialized = new Map<string, string>();

/** The document as JSON text, built once per process and prefix. */
export function openApiJson(prefix: string): string {
  let text = serialized.get(prefix);
  if (text === undefined) {
    text = JSON.stringify(buildOpenApiDocument(prefix));
    serialized.set(prefix, text);
  }
  return text;
}
