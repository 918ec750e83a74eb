export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  /** Sent as JSON (`content-type: application/json`) unless `rawBody` is given. */
  body?: unknown;
  /** Sent as-is (e.g. malformed JSON, FormData); set `content-type` in `headers` yourself if needed. */
  rawBody?: BodyInit;
  /** Merged over the defaults; a value of `null` removes a default header (e.g. `{ origin: null }`). */
  headers?: Record<string, string | null>;
  /** Appended to the URL; `undefined` values are skipped. */
  query?: Query;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** The parsed body, or `undefined` when it is empty or not JSON. */
  json: any;
  text: string;
}

export interface ApiClient {
  /** The API base, e.g. `http://127.0.0.1:4321/__cms/api`. */
  base: string;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  get(path: string, options?: RequestOptions): Promise<ApiResponse>;
  post(path: string, options?: RequestOptions): Promise<ApiResponse>;
  put(path: string, options?: RequestOptions): Promise<ApiResponse>;
  patch(path: string, options?: RequestOptions): Promise<ApiResponse>;
  delete(path: string, options?: RequestOptions): Promise<ApiResponse>;
}

/**
 * A minimal client for the injected API. `siteUrl` is the server origin; paths are relative to
 * `<siteUrl><prefix>`. Every request carries `Origin: <siteUrl>` because Astro's checkOrigin
 * answers a plain 403 to unsafe methods from a foreign or missing origin with a form-like body.
 * Redirects are not followed, so tests can see 301s.
 */
export function api(siteUrl: string, prefix = '/__cms/api'): ApiClient {
  const origin = new URL(siteUrl).origin;
  const base = `${origin}${prefix}`;

  async function request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const url = new URL(`${base}${path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers = new Headers({ origin, accept: 'application/json' });
    let body: BodyInit | undefined = options.rawBody;
    if (body === undefined && options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers.set('content-type', 'application/json');
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (value === null) headers.delete(name);
      else headers.set(name, value);
    }
    const response = await fetch(url, {
      method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, json, text };
  }

  return {
    base,
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, options) => request('POST', path, options),
    put: (path, options) => request('PUT', path, options),
    patch: (path, options) => request('PATCH', path, options),
    delete: (path, options) => request('DELETE', path, options),
  };
}

/** `{ authorization: 'Bearer <token>' }`, for the `headers` option. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}
