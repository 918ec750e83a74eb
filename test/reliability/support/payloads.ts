/**
 * The path-traversal corpus: each payload is written as it goes on the wire in a URL (percent
 * escapes included); `decoded` is what the server sees after its one URL decoding, which is also
 * what a JSON body carries. Built from a few targets and many ways of spelling `..` and `/`.
 */

export interface Payload {
  /** How it was made, for failure messages. */
  label: string;
  /** URL form: safe to put in a request target as it is. */
  wire: string;
  /** After one URL decoding (what a router hands to a handler, and what JSON bodies carry). */
  decoded: string;
}

const TARGETS = [
  '../../outside/secret.txt',
  '../../../../../../../../etc/passwd',
  '../sites.json',
  '..',
  '../',
  'a/../../outside/canary.en.json',
  'escape/secret.txt',
  '.quire-tmp/../../../outside/secret.txt',
  '../../outside/',
];

type Spelling = [label: string, apply: (target: string) => string];

const SPELLINGS: Spelling[] = [
  ['plain', (t) => t],
  ['%2f slashes', (t) => t.replaceAll('/', '%2f')],
  ['%2F slashes', (t) => t.replaceAll('/', '%2F')],
  ['%2e dots', (t) => t.replaceAll('.', '%2e')],
  ['%2E dots', (t) => t.replaceAll('.', '%2E')],
  ['IIS %u escapes', (t) => t.replaceAll('.', '%u002e').replaceAll('/', '%u2215')],
  ['all encoded', (t) => t.replaceAll('.', '%2e').replaceAll('/', '%2f')],
  ['double encoded', (t) => t.replaceAll('.', '%252e').replaceAll('/', '%252f')],
  ['double encoded slashes', (t) => t.replaceAll('/', '%252f')],
  ['backslashes', (t) => t.replaceAll('/', '\\')],
  ['%5c backslashes', (t) => t.replaceAll('/', '%5c')],
  ['mixed separators', (t) => t.replaceAll('../', '..\\/')],
  ['overlong UTF-8', (t) => t.replaceAll('.', '%c0%ae').replaceAll('/', '%c0%af')],
  ['doubled dots', (t) => t.replaceAll('../', '....//')],
  ['semicolon', (t) => t.replaceAll('../', '..;/')],
  ['NUL suffix', (t) => `${t}%00.png`],
  ['raw NUL', (t) => `${t}\u0000.png`],
  ['two-dot leader ‥', (t) => t.replaceAll('..', '\u2025')],
  ['fullwidth ．．／', (t) => t.replaceAll('.', '\uFF0E').replaceAll('/', '\uFF0F')],
  ['fullwidth reverse solidus ＼', (t) => t.replaceAll('/', '\uFF3C')],
  ['small full stop ﹒', (t) => t.replaceAll('.', '\uFE52')],
  ['one-dot leader ․', (t) => t.replaceAll('.', '\u2024')],
  ['presentation form ︰', (t) => t.replaceAll('..', '\uFE30')],
  ['division slash ∕ after ..', (t) => t.replaceAll('/', '\u2215')],
  ['tab inside', (t) => t.replaceAll('../', '..\t/')],
  ['encoded newline', (t) => t.replaceAll('../', '..%0a/')],
];

const ABSOLUTE = [
  '/etc/passwd',
  '%2fetc%2fpasswd',
  '/proc/self/environ',
  'C:\\Windows\\win.ini',
  'C:/Windows/win.ini',
  'c:%5cwindows%5cwin.ini',
  '\\\\server\\share\\secret.txt',
  '//server/share/secret.txt',
  'file:///etc/passwd',
  '~/.ssh/id_rsa',
  '%7e/.ssh/id_rsa',
  '.',
  '%2e',
  '.quire-assets.json',
  '.quire-tmp/x.part',
  '.git/config',
  'sites.json%00',
  '\u0000',
];

/** Percent-encodes what may not stand raw in a request target (non-ASCII, controls, space, #, ?). */
export function toWire(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code > 0x7e || code <= 0x20 || char === '#' || char === '?') {
      out += [...Buffer.from(char, 'utf8')]
        .map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`)
        .join('');
    } else {
      out += char;
    }
  }
  return out;
}

/** One URL decoding, as a router does it; a malformed escape stays as it is. */
export function decodeOnce(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%([0-9a-f]{2})/gi, (sequence, hex: string) => {
      const byte = Number.parseInt(hex, 16);
      return byte < 0x80 ? String.fromCharCode(byte) : sequence;
    });
  }
}

/** The whole corpus, without duplicates; `canary` adds the canary's absolute path in a few spellings. */
export function traversalPayloads(canary: string): Payload[] {
  const seen = new Set<string>();
  const out: Payload[] = [];
  const add = (label: string, raw: string) => {
    const wire = toWire(raw);
    if (seen.has(wire)) return;
    seen.add(wire);
    out.push({ label, wire, decoded: decodeOnce(wire) });
  };
  for (const target of TARGETS) for (const [label, apply] of SPELLINGS) add(`${label}: ${target}`, apply(target));
  for (const raw of ABSOLUTE) add(`absolute/special: ${raw}`, raw);
  add('canary, absolute', canary);
  add('canary, absolute, encoded', canary.replaceAll('/', '%2f'));
  add('canary, absolute, backslashes', canary.replaceAll('/', '\\'));
  add('canary, double slash', `/${canary}`);
  return out;
}

/**
 * Whether a page pathname is one the service must accept (docs/interface.md, "Codes and names", plus: no control
 * characters or backslashes, and the same again for its NFKC form, so compatibility characters
 * such as ‥ or ／ cannot stand for `..` and `/`). A pathname is a URL path, never a file path:
 * a harmless one like `/a%2fb` is valid.
 */
export function isAcceptablePathname(value: string): boolean {
  const check = (text: string) =>
    text.startsWith('/') &&
    text.length <= 512 &&
    (text === '/' ||
      (!text.endsWith('/') &&
        !text.includes('//') &&
        !/[?#\\\u0000-\u001f\u007f]/.test(text) &&
        !text.split('/').some((segment) => segment === '..' || segment === '.')));
  return check(value) && check(value.normalize('NFKC'));
}

/**
 * Whether an asset path or folder is a plain name inside the assets folder, which the service must
 * accept (a folder's leading `/` means the assets root): relative, no empty, `.`, `..` or hidden
 * segment, no backslash, control character or percent escape, and the same for its NFKC form.
 * `a∕b` (U+2215) is such a name: one odd segment, not a separator.
 */
export function isPlainAssetPath(value: string, folder: boolean): boolean {
  const check = (text: string) => {
    if (text.length > 1024 || /[\\\u0000-\u001f\u007f]/.test(text) || /%(?:[0-9a-f]{2}|u[0-9a-f]{4})/i.test(text))
      return false;
    let rest = text;
    if (folder) rest = rest.replace(/^\//, '').replace(/\/$/, '');
    if (folder && rest === '') return true;
    if (rest.startsWith('/') || /^[a-z]:/i.test(rest)) return false;
    return rest.split('/').every((segment) => segment !== '' && !segment.startsWith('.'));
  };
  return check(value) && check(value.normalize('NFKC'));
}
