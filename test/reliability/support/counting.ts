import http from 'node:http';
import type { ApiClient, ApiResponse, RequestOptions } from '../../support/http.js';
import type { Tally } from './tally.js';

/**
 * The same client, counting every answer in the tally: `load` counts requests made while the
 * test has many in flight, and any 5xx counts as a server error unless `expected5xx` says otherwise.
 */
export function countingClient(
  client: ApiClient,
  tally: Tally,
  options: { load?: boolean; expected5xx?: (response: ApiResponse) => boolean } = {},
): ApiClient {
  const request = async (method: string, path: string, requestOptions?: RequestOptions) => {
    const response = await client.request(method, path, requestOptions);
    tally.status(response.status, options.expected5xx?.(response) ?? false);
    if (options.load) tally.add('load');
    return response;
  };
  return {
    base: client.base,
    request,
    get: (path, o) => request('GET', path, o),
    post: (path, o) => request('POST', path, o),
    put: (path, o) => request('PUT', path, o),
    patch: (path, o) => request('PATCH', path, o),
    delete: (path, o) => request('DELETE', path, o),
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * One request with the path sent byte for byte as given (fetch would resolve `..` and re-encode),
 * for traversal payloads that must reach the server unnormalized.
 */
export function rawRequest(
  origin: string,
  method: string,
  rawPath: string,
  options: { headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {},
): Promise<RawResponse> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: rawPath,
        headers: {
          origin: url.origin,
          accept: 'application/json',
          ...(options.body !== undefined && { 'content-length': String(Buffer.byteLength(options.body)) }),
          ...options.headers,
        },
        timeout: options.timeoutMs ?? 30_000,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`${method} ${rawPath}: no answer in time`)));
    request.on('error', reject);
    request.end(options.body);
  });
}
