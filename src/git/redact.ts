/** A URL with a scheme, up to whitespace, a quote or a closing bracket. */
const SCHEME_URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>`)\]]+/gi;
/** scp-like remotes, `user[:secret]@host:path`, where nothing precedes them but space, a quote or a bracket. */
const SCP_LIKE = /(^|[\s'"(<[`])[^\s'"@/:]+(?::[^\s'"@/]*)?@([a-z0-9.-]+:)/gi;

/**
 * Removes what may be a credential from every remote URL in a text (a URL alone included):
 * the user and password of any scheme (`https://user:token@`, `ssh://git:secret@`), the user of
 * scp-like remotes (`user:secret@host:path`), and any query string or fragment (`?access_token=…`),
 * which stay marked as removed so the reader knows the URL had one. Every message, log line and
 * error detail of the git layer that may hold a URL goes through here.
 */
export function redactRemote(text: string): string {
  return text
    .replace(SCHEME_URL, redactUrl)
    .replace(SCP_LIKE, (_match, before: string, host: string) => `${before}${host}`);
}

function redactUrl(url: string): string {
  const scheme = url.indexOf('://') + 3;
  const authorityEnd = firstIndex(url, ['/', '?', '#'], scheme);
  const authority = url.slice(scheme, authorityEnd);
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  const rest = url.slice(authorityEnd);
  const queryAt = firstIndex(rest, ['?', '#'], 0);
  const hidden = rest.slice(queryAt);
  const marks = `${hidden.startsWith('?') ? '?<redacted>' : ''}${hidden.includes('#') ? '#<redacted>' : ''}`;
  return `${url.slice(0, scheme)}${host}${rest.slice(0, queryAt)}${marks}`;
}

function firstIndex(text: string, characters: string[], from: number): number {
  const found = characters.map((character) => text.indexOf(character, from)).filter((index) => index >= 0);
  return found.length > 0 ? Math.min(...found) : text.length;
}
