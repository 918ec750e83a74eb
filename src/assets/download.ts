import { createWriteStream } from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { QuireError } from '../errors.js';
import { BlockedAddressError, guardedLookup } from './address-policy.js';

export interface DownloadOptions {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /** Which resolved addresses may be connected to. */
  isAllowed: (address: string) => boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const failed = (url: string, reason: string, cause?: unknown) =>
  new QuireError('ASSET_UPLOAD_FAILED', `Could not import ${url}: ${reason}.`, { url, reason }, { cause });

/**
 * Downloads a URL into `target` with node:http(s): http and https only, redirects followed by hand
 * (at most `maxRedirects`), each hop's address checked at connect time (an IP literal before the
 * request, a host name by the guarded lookup), one deadline for the whole download, and the size
 * limit enforced from `Content-Length` and again while streaming.
 */
export async function downloadToFile(
  input: string,
  target: string,
  options: DownloadOptions,
): Promise<{ size: number; finalUrl: URL }> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const lookup = guardedLookup(options.isAllowed);
  let url = parseUrl(input, input);
  for (let hop = 0; ; hop++) {
    const response = await request(url, input, lookup, signal, options);
    const location = response.headers.location;
    if (REDIRECTS.has(response.statusCode ?? 0) && location) {
      response.resume();
      if (hop >= options.maxRedirects) throw failed(input, `more than ${options.maxRedirects} redirects`);
      url = parseUrl(new URL(location, url).href, input);
      continue;
    }
    if ((response.statusCode ?? 0) < 200 || (response.statusCode ?? 0) > 299) {
      response.resume();
      throw failed(input, `${url.href} answered HTTP ${response.statusCode}`);
    }
    const declared = Number(response.headers['content-length'] ?? NaN);
    if (declared > options.maxBytes) {
      response.destroy();
      throw tooLarge(options.maxBytes);
    }
    return { size: await save(response, target, input, options.maxBytes, signal), finalUrl: url };
  }
}

function parseUrl(text: string, input: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw failed(input, `"${text}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw failed(input, `only http and https URLs can be imported, not ${url.protocol}`);
  return url;
}

function request(
  url: URL,
  input: string,
  lookup: ReturnType<typeof guardedLookup>,
  signal: AbortSignal,
  options: DownloadOptions,
): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Node does not call `lookup` for an IP literal, so a literal is checked here.
  if (net.isIP(host) && !options.isAllowed(host)) throw failed(input, `${host} is not a public address`);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.get(
      url,
      {
        lookup,
        signal,
        // A fresh connection per hop: a pooled socket would skip the lookup check.
        agent: false,
        headers: { 'user-agent': 'astro-quire (asset import)', accept: 'image/*, application/pdf;q=0.9, */*;q=0.5' },
      },
      resolve,
    );
    outgoing.on('error', (error) => reject(translate(error, input, signal)));
  });
}

async function save(
  response: IncomingMessage,
  target: string,
  input: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<number> {
  let size = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      done(size > maxBytes ? tooLarge(maxBytes) : null, chunk);
    },
  });
  try {
    await pipeline(response, limit, createWriteStream(target, { flags: 'wx' }));
  } catch (error) {
    if (error instanceof QuireError) throw error;
    throw translate(error as Error, input, signal);
  }
  return size;
}

const tooLarge = (maxBytes: number) =>
  new QuireError('ASSET_TOO_LARGE', `The file is larger than ${maxBytes} bytes (assets.maxBytes).`, {
    limit: maxBytes,
  });

function translate(error: Error, input: string, signal: AbortSignal | undefined): QuireError {
  if (error instanceof QuireError) return error;
  if (error instanceof BlockedAddressError) return failed(input, error.message, error);
  if (signal?.aborted || error.name === 'AbortError' || error.name === 'TimeoutError')
    return failed(input, 'the download timed out', error);
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return failed(input, 'the host name could not be resolved', error);
  if (code === 'ECONNREFUSED') return failed(input, 'the connection was refused', error);
  return failed(input, error.message, error);
}
