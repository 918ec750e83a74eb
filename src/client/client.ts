import { createEtagMemory } from './etag-memory.js';
import { errorFromResponse } from './errors.js';
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
  query?: object;
  /** Sent as JSON. */
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

const encode = encodeURIComponent;
/** An asset path keeps its `/` separators; each segment is encoded. */
const encodePath = (path: string) => path.replace(/^\/+/, '').split('/').map(encode).join('/');

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

  async function send(method: string, path: string, call: Call = {}): Promise<Response> {
    const url = new URL(`${base}${path}`);
    for (const [name, value] of Object.entries((call.query ?? {}) as Query)) {
      if (value === undefined || value === null) continue;
      url.searchParams.set(name, Array.isArray(value) ? value.join(',') : String(value));
    }
    const configured = typeof options.headers === 'function' ? await options.headers() : options.headers;
    // Origin: Astro's checkOrigin refuses unsafe requests from Node (which sends none) without it.
    // Reads go without, so that a base URL the server sees under another origin (a TLS proxy) still reads.
    const headers = new Headers({ accept: 'application/json', ...(method === 'GET' || method === 'HEAD' ? {} : { origin }) });
    new Headers(configured).forEach((value, name) => headers.set(name, value));
    for (const [name, value] of Object.entries(call.headers ?? {})) headers.set(name, value);
    let body: BodyInit | undefined;
    if (call.json !== undefined) {
      body = JSON.stringify(call.json);
      headers.set('content-type', 'application/json');
    } else if (call.form) {
      body = call.form;
    }
    const response = await fetchImpl(url, { method, headers, body, signal: call.signal });
    if (!response.ok) throw errorFromResponse(response.status, await response.text());
    return response;
  }

  async function request<R>(method: string, path: string, call?: Call): Promise<R> {
    const result = await (await send(method, path, call)).json() as R;
    etags.remember(result);
    return result;
  }

  const get = <R>(path: string, query?: object) => request<R>('GET', path, { query });
  /** The caller's etag, else the remembered one. */
  const etagFor = (id: string, locale: string, given: string | undefined) => given ?? etags.get(id, locale);

  function fragmentArea(area: 'fragments' | 'blocks') {
    return {
      collections: () => get<T.Collections>(`/${area}/collections`),
      list: (query?: T.FragmentListQuery) => get<T.FragmentList>(`/${area}`, query),
      nameAvailable: (name: string, query?: T.FragmentNameQuery) => get<T.Availability>(`/${area}/name-available`, { ...query, name }),
      get: (name: string, query?: T.FragmentGetQuery) => get<T.FragmentManifest>(`/${area}/${encode(name)}`, query),
    };
  }

  async function writeLocale(method: 'PUT' | 'PATCH', id: string, locale: string, data: T.LocaleUpdateData, given?: { etag?: string }) {
    const etag = etagFor(id, locale, given?.etag);
    const result = await request<T.Written>(method, `/content/${encode(id)}`, { query: { locale, etag }, json: data });
    etags.set(id, locale, result.etag);
    return result;
  }

  const transition = (action: string) => async (id: string, locale: string, etag?: string) => {
    const result = await request<T.Transitioned>('POST', `/content/${encode(id)}/${action}`, { query: { locale, etag: etagFor(id, locale, etag) } });
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
    const wait = (ms: number) => new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
    void (async () => {
      let delay = firstWait;
      while (!signal.aborted) {
        try {
          const response = await send('GET', '/events', { headers: { accept: 'text/event-stream' }, signal });
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

  return {
    /** The etags the client carries: read them, set one, or forget them. */
    etags: { get: etags.get, set: etags.set, forget: etags.forget, clear: etags.clear },

    /** The OpenAPI 3.1 document of the API. */
    openapi: () => get<Record<string, unknown>>('/openapi.json'),

    auth: {
      user: () => get<T.AuthUser>('/auth/user'),
    },

    content: {
      collections: () => get<T.Collections>('/content/collections'),
      list: (query?: T.ContentListQuery) => get<T.ManifestList>('/content', query),
      needsReview: (locale: string, query?: T.NeedsReviewQuery) => get<T.ManifestList>('/content/needs-review', { ...query, locale }),
      get: (id: string) => get<T.ContentEntry>(`/content/${encode(id)}`),
      getLocale: (id: string, locale: string) => get<T.LocalizedEntry>(`/content/${encode(id)}/${encode(locale)}`),
      /** The answer's etag is the default locale's; it is remembered when the input has a single locale. */
      async create(input: T.CreateContentInput) {
        const result = await request<T.Created>('POST', '/content', { json: input });
        const locales = Object.keys(input.locales);
        if (locales.length === 1) etags.set(result.id, locales[0]!, result.etag);
        return result;
      },
      /** PUT: only the supplied fields change. Without an etag (given or remembered) the write is not checked for conflicts. */
      update: (id: string, locale: string, data: T.LocaleUpdateData, given?: { etag?: string }) => writeLocale('PUT', id, locale, data, given),
      /** PATCH: the same as `update`. */
      patch: (id: string, locale: string, data: T.LocaleUpdateData, given?: { etag?: string }) => writeLocale('PATCH', id, locale, data, given),
      /** One locale, or (without `locale`) the whole item, whose etag is then the default locale's. */
      async delete(id: string, given: { locale?: string; etag?: string } = {}) {
        const etag = given.etag ?? (given.locale !== undefined ? etags.get(id, given.locale) : undefined);
        const result = await request<T.Success>('DELETE', `/content/${encode(id)}`, {
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
        const result = await request<T.BatchResult>('POST', '/content/batch', { json: { operations: withEtags } });
        for (const operation of result.operations) if (operation.updated && operation.etag) etags.set(operation.id, operation.locale, operation.etag);
        return result;
      },
      markReviewed: transition('mark-reviewed'),
      breakInheritance: transition('break-inheritance'),
      revertToInherited: transition('revert-to-inherited'),
    },

    sites: {
      get: () => get<T.SitesConfig>('/sites'),
      collections: (site: string) => get<T.Collections>(`/${encode(site)}/collections`),
      pages: (site: string, query?: { locale?: string }) => get<T.ManifestList>(`/${encode(site)}/pages`, query),
      pathnameAvailable: (site: string, pathname: string, query?: T.PathnameQuery) => get<T.Availability>(`/${encode(site)}/pathname-available`, { ...query, pathname }),
      async move(site: string, input: T.MoveInput) {
        const etag = etagFor(input.id, input.locale, input.etag);
        const result = await request<T.Moved>('POST', `/${encode(site)}/move`, { json: { ...input, etag } });
        etags.set(input.id, input.locale, result.etag);
        return result;
      },
      redirects: (query?: T.RedirectsQuery) => get<T.RedirectList>('/redirects', query),
      untranslated: (targetLocale: string, query?: T.UntranslatedQuery) => get<T.ManifestList>(`/untranslated/${encode(targetLocale)}`, query),
    },

    data: {
      collections: () => get<T.Collections>('/data/collections'),
      nameAvailable: (name: string, collection: string, query?: { excludeId?: string }) => get<T.Availability>('/data/name-available', { ...query, name, collection }),
      list: (query?: T.DataListQuery) => get<T.ManifestList>('/data', query),
      get: (name: string, collection: string, query?: { locale?: string }) => get<T.ContentManifest>(`/data/${encode(name)}`, { ...query, collection }),
    },

    fragments: fragmentArea('fragments'),
    /** The same items as `fragments`, with `kind: 'block'` in answers. */
    blocks: fragmentArea('blocks'),

    assets: {
      list: () => get<T.AssetList>('/assets'),
      folder: (path = '/') => get<T.FolderListing>('/assets/folders', { path }),
      createFolder: (path: string) => request<T.FolderCreated>('POST', '/assets/folders', { json: { path } }),
      folderTree: () => get<T.FolderTree>('/assets/folder-tree'),
      meta: (path: string) => get<T.AssetEntry>(`/assets/meta/${encodePath(path)}`),
      updateMeta: (path: string, change: T.AssetMetaChange) => request<T.AssetEntry>('PATCH', `/assets/meta/${encodePath(path)}`, { json: change }),
      delete: (path: string) => request<T.Success>('DELETE', `/assets/meta/${encodePath(path)}`),
      usage: (path: string) => get<T.AssetUsage>(`/assets/usage/${encodePath(path)}`),
      /** Uploads a Blob or File (multipart); `fields.filename` names a Blob that has no name. */
      upload(file: Blob, fields: T.UploadFields = {}) {
        const { filename, ...rest } = fields;
        const form = new FormData();
        for (const [name, value] of Object.entries(rest)) {
          if (value !== undefined) form.append(name, Array.isArray(value) ? value.join(',') : String(value));
        }
        form.append('file', file, filename ?? (file as { name?: string }).name ?? 'upload');
        return request<T.AssetEntry>('POST', '/assets/upload', { form });
      },
      importUrl: (input: T.ImportUrlInput) => request<T.AssetEntry>('POST', '/assets/import-url', { json: input }),
      move: (input: T.AssetMoveInput) => request<T.AssetsMoved>('POST', '/assets/move', { json: input }),
      /** The file itself, as a Response (check `headers`, read `blob()` or `body`). */
      serve: (path: string) => send('GET', `/assets/serve/${encodePath(path)}`),
      /** The URL to put in content for an asset path (what `AssetEntry.url` holds, made absolute). */
      serveUrl: (path: string) => `${base}/assets/serve/${encodePath(path)}`,
    },

    events: {
      subscribe,
    },

    git: {
      status: () => get<T.GitStatus>('/git/status'),
      commit: (message?: string) => request<T.CommitResult>('POST', '/git/commit', { json: message === undefined ? {} : { message } }),
      push: () => request<T.GitSyncResult>('POST', '/git/push', { json: {} }),
      pull: () => request<T.GitPullResult>('POST', '/git/pull', { json: {} }),
    },
  };
}

export type QuireClient = ReturnType<typeof createQuireClient>;
