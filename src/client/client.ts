import { type EndpointSpec, fillPath, type ResultOf } from '../http/endpoint.js';
import { API } from '../http/endpoints.js';
import { errorFromResponse } from './errors.js';
import { createEtagMemory } from './etag-memory.js';
import { readEventStream } from './event-stream.js';
import type * as T from './types.js';

export interface QuireClientOptions {
  /** The site's URL, e.g. `http://127.0.0.1:4321` (the API is at `<baseUrl><prefix>`). */
  baseUrl: string;
  /** The integration's `prefix` option. @default '/__cms/api' */
  prefix?: string;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Sent with every request (e.g. the gateway's token); a function is called per request. */
  headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>);
}

type QueryValue = string | number | boolean | readonly string[] | null | undefined;
type Query = Record<string, QueryValue>;

interface Call {
  /** The path parameters, by name; each is encoded as one segment. */
  params?: Record<string, string>;
  query?: object;
  /** Sent as JSON. */
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Bytes of the body sent so far; when given in a browser, the request goes through XMLHttpRequest. */
  onProgress?: T.UploadProgress;
}

/** An asset path as the API takes it: without a leading `/`. */
const assetPath = (path: string) => path.replace(/^\/+/, '');

/**
 * The client's shape, from the endpoint table: a function for every endpoint (but those marked
 * `clientMethod: false`), under the same names. Checked when the client is built, so that an
 * endpoint without a method does not compile.
 */
type ClientShape<T> = {
  [K in keyof T as T[K] extends { clientMethod: false } ? never : K]: T[K] extends EndpointSpec
    ? (...args: never[]) => unknown
    : ClientShape<T[K]>;
};
const coversTheTable = <C extends ClientShape<typeof API>>(client: C): C => client;

/**
 * A typed client for the astro-quire API: one method per endpoint, typed inputs and answers,
 * typed errors (`StaleWriteError`, `NotFoundError`, …), and etags carried for you: the client
 * remembers the etag of each (item, locale) it last read or wrote, and sends it with a write,
 * delete or transition on that locale when the caller passes none.
 */
export function createQuireClient(options: QuireClientOptions) {
  const origin = new URL(options.baseUrl).origin;
  const base = `${options.baseUrl.replace(/\/+$/, '')}${options.prefix ?? '/__cms/api'}`;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const etags = createEtagMemory();

  async function send(endpoint: EndpointSpec, call: Call = {}): Promise<Response> {
    const url = new URL(`${base}${fillPath(endpoint.path, call.params ?? {})}`);
    for (const [name, value] of Object.entries((call.query ?? {}) as Query)) {
      if (value === undefined || value === null) continue;
      url.searchParams.set(name, Array.isArray(value) ? value.join(',') : String(value));
    }
    const configured = typeof options.headers === 'function' ? await options.headers() : options.headers;
    // Origin: Astro's checkOrigin refuses unsafe requests from Node (which sends none) without it.
    // Reads go without, so that a base URL the server sees under another origin (a TLS proxy) still reads.
    const reads = endpoint.method === 'GET';
    const headers = new Headers({ accept: 'application/json', ...(reads ? {} : { origin }) });
    for (const [name, value] of new Headers(configured)) headers.set(name, value);
    for (const [name, value] of Object.entries(call.headers ?? {})) headers.set(name, value);
    let body: BodyInit | undefined;
    if (call.json !== undefined) {
      body = JSON.stringify(call.json);
      headers.set('content-type', 'application/json');
    } else if (call.form) {
      body = call.form;
    }
    const response =
      call.onProgress && typeof XMLHttpRequest === 'function'
        ? await sendWithProgress(url, endpoint.method, headers, body, call)
        : await fetchImpl(url, { method: endpoint.method, headers, body, signal: call.signal });
    if (!response.ok) throw errorFromResponse(response.status, await response.text());
    return response;
  }

  /** The same request through XMLHttpRequest, the one browser API that reports upload progress. */
  function sendWithProgress(url: URL, method: string, headers: Headers, body: BodyInit | undefined, call: Call) {
    return new Promise<Response>((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open(method, url);
      // The browser sets Origin itself and refuses a script setting it.
      for (const [name, value] of headers) if (name !== 'origin') request.setRequestHeader(name, value);
      request.upload.onprogress = (event) =>
        call.onProgress?.(event.loaded, event.lengthComputable ? event.total : undefined);
      request.onload = () =>
        resolve(
          new Response(request.status === 204 ? null : request.responseText, {
            status: request.status,
            headers: { 'content-type': request.getResponseHeader('content-type') ?? '' },
          }),
        );
      request.onerror = () => reject(new TypeError('Network request failed'));
      request.onabort = () => reject(new DOMException('The upload was aborted.', 'AbortError'));
      call.signal?.addEventListener('abort', () => request.abort(), { once: true });
      request.send(body as XMLHttpRequestBodyInit | undefined);
    });
  }

  /** Calls the endpoint; the answer is typed by its declaration's response schema. */
  async function call<E extends EndpointSpec>(endpoint: E, input?: Call): Promise<ResultOf<E>> {
    const result = (await (await send(endpoint, input)).json()) as ResultOf<E>;
    etags.remember(result);
    return result;
  }

  /** The caller's etag, else the remembered one. */
  const etagFor = (id: string, locale: string, given: string | undefined) => given ?? etags.get(id, locale);

  function fragmentArea(area: typeof API.fragments | typeof API.blocks) {
    return {
      collections: () => call(area.collections),
      list: (query?: T.FragmentListQuery) => call(area.list, { query }),
      nameAvailable: (name: string, query?: T.FragmentNameQuery) =>
        call(area.nameAvailable, { query: { ...query, name } }),
      get: (name: string, query?: T.FragmentGetQuery) => call(area.get, { params: { name }, query }),
    };
  }

  async function writeLocale(
    endpoint: typeof API.content.update | typeof API.content.patch,
    id: string,
    locale: string,
    data: T.LocaleUpdateData,
    given?: { etag?: string },
  ) {
    const etag = etagFor(id, locale, given?.etag);
    const result = await call(endpoint, { params: { id }, query: { locale, etag }, json: data });
    etags.set(id, locale, result.etag);
    return result;
  }

  const transition =
    (endpoint: typeof API.content.markReviewed) => async (id: string, locale: string, etag?: string) => {
      const result = await call(endpoint, { params: { id }, query: { locale, etag: etagFor(id, locale, etag) } });
      etags.set(id, locale, result.etag);
      return result;
    };

  /**
   * Listens to `GET /events` until stopped: reconnects after a failure or a drop, waiting longer
   * each time (reset once a stream opens). Returns the function that stops it.
   */
  function subscribe(handlers: T.EventHandlers, options: T.SubscribeOptions = {}): () => void {
    const controller = new AbortController();
    const stop = () => controller.abort();
    options.signal?.addEventListener('abort', stop, { once: true });
    if (options.signal?.aborted) stop();
    const { signal } = controller;
    const firstWait = options.retryMs ?? 1000;
    const wait = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      });
    void (async () => {
      let delay = firstWait;
      while (!signal.aborted) {
        try {
          const response = await send(API.events.subscribe, { headers: { accept: 'text/event-stream' }, signal });
          await readEventStream(response.body!, ({ event, data }) => {
            if (event === 'ready') {
              delay = firstWait;
              handlers.onOpen?.();
            } else if (event === 'change') {
              handlers.onEvent(JSON.parse(data) as T.QuireEvent);
            }
          });
          if (!signal.aborted) handlers.onError?.(new Error('The event stream was closed by the server.'));
        } catch (error) {
          if (signal.aborted) break;
          handlers.onError?.(error);
        }
        await wait(delay);
        delay = Math.min(delay * 2, options.maxRetryMs ?? 30_000);
      }
      options.signal?.removeEventListener('abort', stop);
    })();
    return stop;
  }

  return coversTheTable({
    /** The etags the client carries: read them, set one, or forget them. */
    etags: { get: etags.get, set: etags.set, forget: etags.forget, clear: etags.clear },

    /** The OpenAPI 3.1 document of the API. */
    openapi: () => call(API.openapi),

    auth: {
      user: () => call(API.auth.user),
    },

    content: {
      collections: () => call(API.content.collections),
      list: (query?: T.ContentListQuery) => call(API.content.list, { query }),
      needsReview: (locale: string, query?: T.NeedsReviewQuery) =>
        call(API.content.needsReview, { query: { ...query, locale } }),
      get: (id: string) => call(API.content.get, { params: { id } }),
      getLocale: (id: string, locale: string) => call(API.content.getLocale, { params: { id, locale } }),
      /** What changed in the default locale since this translation was reviewed (or customized). */
      review: (id: string, locale: string) => call(API.content.review, { params: { id, locale } }),
      /** The answer's etag is the default locale's; it is remembered when the input has a single locale. */
      async create(input: T.CreateContentInput) {
        const result = await call(API.content.create, { json: input });
        const locales = Object.keys(input.locales);
        if (locales.length === 1) etags.set(result.id, locales[0]!, result.etag);
        return result;
      },
      /** PUT: only the supplied fields change. Without an etag (given or remembered) the write is not checked for conflicts. */
      update: (id: string, locale: string, data: T.LocaleUpdateData, given?: { etag?: string }) =>
        writeLocale(API.content.update, id, locale, data, given),
      /** PATCH: the same as `update`. */
      patch: (id: string, locale: string, data: T.LocaleUpdateData, given?: { etag?: string }) =>
        writeLocale(API.content.patch, id, locale, data, given),
      /** One locale, or (without `locale`) the whole item, whose etag is then the default locale's. */
      async delete(id: string, given: { locale?: string; etag?: string } = {}) {
        const etag = given.etag ?? (given.locale !== undefined ? etags.get(id, given.locale) : undefined);
        const result = await call(API.content.delete, {
          params: { id },
          query: { locale: given.locale },
          headers: etag === undefined ? {} : { 'if-match': `"${etag}"` },
        });
        etags.forget(id, given.locale);
        return result;
      },
      /** Resolves with the result (also when some operations failed, status 207: see `success` and `operations[].error`). */
      async batch(operations: readonly T.BatchOperationInput[]) {
        const withEtags = operations.map((operation) => {
          const etag = etagFor(operation.id, operation.locale, operation.etag);
          return etag === undefined ? operation : { ...operation, etag };
        });
        const result = await call(API.content.batch, { json: { operations: withEtags } });
        for (const operation of result.operations) {
          if (operation.updated && operation.etag) etags.set(operation.id, operation.locale, operation.etag);
        }
        return result;
      },
      markReviewed: transition(API.content.markReviewed),
      breakInheritance: transition(API.content.breakInheritance),
      revertToInherited: transition(API.content.revertToInherited),
    },

    sites: {
      get: () => call(API.sites.get),
      collections: (site: string) => call(API.sites.collections, { params: { site } }),
      pages: (site: string, query?: { locale?: string }) => call(API.sites.pages, { params: { site }, query }),
      pathnameAvailable: (site: string, pathname: string, query?: T.PathnameQuery) =>
        call(API.sites.pathnameAvailable, { params: { site }, query: { ...query, pathname } }),
      async move(site: string, input: T.MoveInput) {
        const etag = etagFor(input.id, input.locale, input.etag);
        const result = await call(API.sites.move, { params: { site }, json: { ...input, etag } });
        etags.set(input.id, input.locale, result.etag);
        return result;
      },
      redirects: (query?: T.RedirectsQuery) => call(API.sites.redirects, { query }),
      untranslated: (targetLocale: string, query?: T.UntranslatedQuery) =>
        call(API.sites.untranslated, { params: { targetLocale }, query }),
    },

    data: {
      collections: () => call(API.data.collections),
      nameAvailable: (name: string, collection: string, query?: { excludeId?: string }) =>
        call(API.data.nameAvailable, { query: { ...query, name, collection } }),
      list: (query?: T.DataListQuery) => call(API.data.list, { query }),
      get: (name: string, collection: string, query?: { locale?: string }) =>
        call(API.data.get, { params: { name }, query: { ...query, collection } }),
    },

    fragments: fragmentArea(API.fragments),
    /** The same items as `fragments`, with `kind: 'block'` in answers. */
    blocks: fragmentArea(API.blocks),

    assets: {
      list: () => call(API.assets.list),
      folder: (path = '/') => call(API.assets.folder, { query: { path } }),
      createFolder: (path: string) => call(API.assets.createFolder, { json: { path } }),
      folderTree: () => call(API.assets.folderTree),
      meta: (path: string) => call(API.assets.meta, { params: { path: assetPath(path) } }),
      updateMeta: (path: string, change: T.AssetMetaChange) =>
        call(API.assets.updateMeta, { params: { path: assetPath(path) }, json: change }),
      delete: (path: string) => call(API.assets.delete, { params: { path: assetPath(path) } }),
      usage: (path: string) => call(API.assets.usage, { params: { path: assetPath(path) } }),
      /**
       * Uploads a Blob or File (multipart); `fields.filename` names a Blob that has no name. In a
       * browser, `options.onProgress` is called as the body is sent (where there is no
       * XMLHttpRequest, as in Node, it is not called).
       */
      upload(file: Blob, fields: T.UploadFields = {}, options: T.UploadOptions = {}) {
        const { filename, ...rest } = fields;
        const form = new FormData();
        for (const [name, value] of Object.entries(rest)) {
          if (value !== undefined) form.append(name, Array.isArray(value) ? value.join(',') : String(value));
        }
        form.append('file', file, filename ?? (file as { name?: string }).name ?? 'upload');
        return call(API.assets.upload, { form, onProgress: options.onProgress, signal: options.signal });
      },
      importUrl: (input: T.ImportUrlInput) => call(API.assets.importUrl, { json: input }),
      move: (input: T.AssetMoveInput) => call(API.assets.move, { json: input }),
      /** The file itself, as a Response (check `headers`, read `blob()` or `body`). */
      serve: (path: string) => send(API.assets.serve, { params: { path: assetPath(path) } }),
      /** The URL to put in content for an asset path (what `AssetEntry.url` holds, made absolute): its `/` stay. */
      serveUrl: (path: string) =>
        `${base}${fillPath(API.assets.serve.path, { path: '' })}${assetPath(path).split('/').map(encodeURIComponent).join('/')}`,
    },

    events: {
      subscribe,
    },

    git: {
      status: () => call(API.git.status),
      commit: (message?: string) => call(API.git.commit, { json: message === undefined ? {} : { message } }),
      push: () => call(API.git.push, { json: {} }),
      pull: () => call(API.git.pull, { json: {} }),
    },
  });
}

export type QuireClient = ReturnType<typeof createQuireClient>;
