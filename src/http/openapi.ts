import { createRequire } from 'node:module';
import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';
import { ENDPOINTS, pathParamDescription, type Endpoint } from './endpoints.js';
import { CreateContentSchema, LocaleUpdateSchema } from './schemas/content.js';
import { JsonObject } from './schemas/git.js';
import { errorEnvelope, RESPONSE_COMPONENTS } from './schemas/responses.js';

/** Schemas that appear by name (`#/components/schemas/<name>`) wherever they are used. */
const COMPONENTS: Record<string, v.GenericSchema> = {
  ...RESPONSE_COMPONENTS,
  CreateContentInput: CreateContentSchema,
  LocaleUpdateData: LocaleUpdateSchema,
};

type Json = Record<string, unknown>;

/** `/content/:id` → `/content/{id}`; `/assets/meta/:path{.+}` → `/assets/meta/{path}`. */
export function toOpenApiPath(honoPath: string): string {
  return honoPath.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');
}

const pathParams = (openApiPath: string) => [...openApiPath.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);

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
    return { ...jsonSchema, description: jsonSchema.description ? `${jsonSchema.description} ${message}.` : `${message}.` };
  },
  overrideSchema: ({ valibotSchema }) => (valibotSchema === JsonObject ? { type: 'object' } : undefined),
};

/** One schema, with named schemas as references. */
function convert(schema: v.GenericSchema): Json {
  const { $schema: _, $defs, ...converted } = toJsonSchema(schema, { ...baseConfig, definitions: COMPONENTS }) as Json;
  // Only named schemas may be referenced: an unnamed recursive (lazy) schema would leave a dangling $ref.
  const unnamed = Object.keys(($defs ?? {}) as Json).filter((key) => !(key in COMPONENTS));
  if (unnamed.length > 0) throw new Error(`OpenAPI: add the recursive schema(s) ${unnamed.join(', ')} to the named components.`);
  return converted;
}

const jsonContent = (schema: Json) => ({ 'application/json': { schema } });

const ETAG_HEADER = { ETag: { description: 'The etag, quoted: `"<metaEtag>.<contentEtag>"`.', schema: { type: 'string' } } };

function parameters(endpoint: Endpoint, path: string): Json[] {
  const list: Json[] = pathParams(path).map((name) => ({
    name, in: 'path', required: true, description: pathParamDescription(name), schema: { type: 'string' },
  }));
  if (endpoint.query) {
    const query = convert(endpoint.query) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      const { description, ...rest } = schema;
      list.push({ name, in: 'query', required: query.required?.includes(name) ?? false, ...(description !== undefined && { description }), schema: rest });
    }
  }
  if (endpoint.ifMatch) {
    const required = endpoint.ifMatch === 'required';
    list.push({
      name: 'If-Match', in: 'header', required, schema: { type: 'string' },
      description: required
        ? 'The current etag (quoted, weak or bare). Another one is 412 STALE_WRITE.'
        : 'The current etag (quoted, weak or bare), as an alternative to `etag`; when both are given both must match. Another one is 412 STALE_WRITE.',
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
      properties: { file: { description: 'The file.', contentMediaType: 'application/octet-stream' }, ...fields.properties },
      required: ['file', ...(fields.required ?? [])],
    };
    return { required: true, content: { 'multipart/form-data': { schema } } };
  }
  return { required: !body.optional, content: jsonContent(convert(body.schema)) };
}

/** The error codes an endpoint answers with: its own and those every endpoint of its kind can give. */
export function errorCodesOf(endpoint: Endpoint): ErrorCode[] {
  const codes = new Set<ErrorCode>(endpoint.errors);
  if (endpoint.query || endpoint.body) codes.add('INVALID_REQUEST');
  if (endpoint.body && !endpoint.body.multipart) codes.add('PAYLOAD_TOO_LARGE');
  if (!endpoint.public) codes.add('UNAUTHORIZED');
  codes.add('FORBIDDEN_ORIGIN');
  if (endpoint.method !== 'GET') codes.add('FORBIDDEN_CLIENT');
  codes.add('INTERNAL_ERROR');
  return [...codes];
}

function responses(endpoint: Endpoint): Json {
  const result: Json = {};
  const success = endpoint.response;
  if (success) {
    const headers = success.etag ? { headers: ETAG_HEADER } : {};
    const content = success.file
      ? { '*/*': { schema: { description: 'The file\'s bytes.' } } }
      : success.eventStream
        ? { 'text/event-stream': { schema: { type: 'string', description: 'Server-Sent Events (see the description).' } } }
        : jsonContent(convert(success.schema!));
    result[String(success.status)] = { description: success.description, ...headers, content };
    if (success.alsoStatus) result[String(success.alsoStatus.status)] = { description: success.alsoStatus.description, content };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(endpoint)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    result[String(status)] = { description: codes.join(', '), content: jsonContent(convert(errorEnvelope(codes))) };
  }
  return result;
}

function operation(endpoint: Endpoint, path: string): Json {
  const body = requestBody(endpoint);
  return {
    operationId: operationId(endpoint.operation),
    tags: [endpoint.operation.includes('.') ? endpoint.operation.split('.')[0] : 'meta'],
    summary: endpoint.summary,
    ...(endpoint.description && { description: endpoint.description }),
    ...(endpoint.public && { security: [] }),
    parameters: parameters(endpoint, path),
    ...(body && { requestBody: body }),
    responses: responses(endpoint),
  };
}

const DESCRIPTION = `The content API of astro-quire, generated from the schemas the routes validate with.

- Errors: \`{ error: { code, message, details? } }\`; each operation lists its codes by status. An unknown path under the prefix is 404 ROUTE_NOT_FOUND, a method a path does not have is 405 METHOD_NOT_ALLOWED (with \`Allow\`).
- Etags: \`<metaEtag>.<contentEtag>\` per locale; a write with an outdated etag is 412 STALE_WRITE.
- Identity comes from an access gateway. With \`requireIdentity\` (the default in production) every operation except those marked public answers 401 UNAUTHORIZED without a verified identity.
- A browser request from another origin (an \`Origin\`, or \`Sec-Fetch-Site: cross-site\`, that is neither the site's own nor listed in \`allowedOrigins\`) is 403 FORBIDDEN_ORIGIN; clients that send no \`Origin\` (scripts, servers) are not affected. Under \`astro dev --host\` without required identity, changes from other machines are 403 FORBIDDEN_CLIENT.
- Astro's \`checkOrigin\` answers unsafe requests from another origin with a plain 403: send an \`Origin\` header matching the site, or a JSON content type.`;

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
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operation(endpoint, path) };
  }
  const tags = [...new Set(ENDPOINTS.map((endpoint) => (endpoint.operation.includes('.') ? endpoint.operation.split('.')[0]! : 'meta')))];
  const components = toJsonSchemaDefs(COMPONENTS, baseConfig) as Record<string, JsonSchema>;
  return {
    openapi: '3.1.1',
    info: { title: 'astro-quire content API', version: packageVersion(), description: DESCRIPTION, license: { name: 'MIT', identifier: 'MIT' } },
    servers: [{ url: prefix, description: 'The API prefix (the integration\'s `prefix` option).' }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: { schemas: components },
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
