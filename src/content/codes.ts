import * as v from 'valibot';

/** The shapes of codes and names (docs/interface.md, "Codes and names"), shared by request schemas and the store. */
export const LOCALE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
export const NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,95}$/;

export const LocaleCode = v.pipe(v.string(), v.regex(LOCALE_PATTERN, 'Expected a locale code such as en, de or pt-BR'));
export const CollectionName = v.pipe(
  v.string(),
  v.regex(
    NAME_PATTERN,
    'Expected 1-64 characters: lowercase letters, digits, "_" or "-", starting with a letter or digit',
  ),
);
export const SiteName = CollectionName;
export const ContentId = v.pipe(
  v.string(),
  v.regex(ID_PATTERN, 'Expected a content ID: lowercase letters, digits and "-"'),
);

export const Pathname = v.pipe(
  v.string(),
  v.maxLength(512, 'Expected at most 512 characters'),
  v.check(
    isValidPathname,
    'Expected a pathname that starts with "/", with no "." or ".." segment, "//", "?", "#", backslash, control character or trailing "/"',
  ),
);

/**
 * A pathname becomes a URL and a redirect's `Location`: a backslash would read as `/` in a
 * browser (`/\evil.test` is another host), a control character would break the header, and a
 * compatibility character such as `‥` or `／` must not fold (NFKC) into a dot segment or a slash.
 */
export function isValidPathname(value: string): boolean {
  return isPlainPathname(value) && isPlainPathname(value.normalize('NFKC'));
}

function isPlainPathname(value: string): boolean {
  if (!value.startsWith('/') || value.length > 512) return false;
  if (value === '/') return true;
  return (
    !value.endsWith('/') &&
    !value.includes('//') &&
    !/[?#\\\u0000-\u001f\u007f]/.test(value) &&
    !value.split('/').some((segment) => segment === '..' || segment === '.')
  );
}

/**
 * The form in which pathnames are compared when a request's URL is looked up: NFC, what browsers
 * and keyboards produce, so that a pathname stored decomposed (NFD, as some systems type it) and
 * the same one requested composed are the same page.
 */
export const pathnameKey = (pathname: string): string => pathname.normalize('NFC');
