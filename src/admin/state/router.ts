import { signal } from '@preact/signals';
import { config } from './session.js';

/** The screens, as the URL names them (the URL is the state a reload restores). */
export type Route =
  | { screen: 'content'; query: URLSearchParams }
  | { screen: 'editor'; id: string; locale: string }
  | { screen: 'new'; query: URLSearchParams }
  | { screen: 'review'; query: URLSearchParams }
  | { screen: 'media'; folder: string }
  | { screen: 'git' }
  | { screen: 'not-found'; path: string };

function parse(url: URL): Route {
  const base = config.basePath;
  const rest = url.pathname.startsWith(base) ? url.pathname.slice(base.length) : url.pathname;
  const parts = rest.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'content'))
    return { screen: 'content', query: url.searchParams };
  if (parts[0] === 'content' && parts.length === 3) return { screen: 'editor', id: parts[1]!, locale: parts[2]! };
  if (parts[0] === 'new' && parts.length === 1) return { screen: 'new', query: url.searchParams };
  if (parts[0] === 'review' && parts.length === 1) return { screen: 'review', query: url.searchParams };
  if (parts[0] === 'media' && parts.length === 1)
    return { screen: 'media', folder: url.searchParams.get('folder') || '/' };
  if (parts[0] === 'git' && parts.length === 1) return { screen: 'git' };
  return { screen: 'not-found', path: url.pathname };
}

export const route = signal<Route>(parse(new URL(location.href)));

/** Asked before leaving a screen; false keeps the user where they are. */
let leaveGuard: (() => boolean) | undefined;
export function setLeaveGuard(guard: (() => boolean) | undefined) {
  leaveGuard = guard;
}

export function href(path: string, query?: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value) search.set(name, value);
  const text = search.toString();
  return `${config.basePath}${path}${text ? `?${text}` : ''}`;
}

export const editorHref = (id: string, locale: string) =>
  href(`/content/${encodeURIComponent(id)}/${encodeURIComponent(locale)}`);

export function navigate(to: string, { replace = false } = {}) {
  if (!replace && leaveGuard && !leaveGuard()) return;
  const url = new URL(to, location.href);
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  route.value = parse(url);
  if (!replace) window.scrollTo(0, 0);
}

/** Links inside the admin change the screen without a page load (a modified click still opens a tab). */
export function startRouter() {
  addEventListener('popstate', () => {
    route.value = parse(new URL(location.href));
  });
  document.addEventListener('click', (event) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    const anchor = (event.target as Element | null)?.closest?.('a');
    if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
    const url = new URL(anchor.href, location.href);
    if (
      url.origin !== location.origin ||
      !(url.pathname === config.basePath || url.pathname.startsWith(`${config.basePath}/`))
    )
      return;
    event.preventDefault();
    navigate(url.pathname + url.search);
  });
}
