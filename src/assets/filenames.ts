import mime from 'mime';
import { QuireError } from '../errors.js';

/** Letters NFKD does not take apart, folded by hand. */
const EXTRA_FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  Þ: 'Th',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  ŧ: 't',
  Ŧ: 'T',
};

/** Names Windows cannot create, with any extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;
const MAX_STEM = 80;

/** Unicode folded to ASCII where a plain equivalent exists ("Crème Brûlée" → "Creme Brulee"); the rest is dropped. */
export function foldToAscii(text: string): string {
  return [...text]
    .map((char) => EXTRA_FOLDS[char] ?? char)
    .join('')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
}

function cleanStem(text: string): string {
  const cleaned = foldToAscii(text)
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  const stem = cleaned.slice(0, MAX_STEM).replace(/[-_]+$/, '') || 'file';
  return RESERVED.test(stem) ? `${stem}-file` : stem;
}

/**
 * The stored name for an upload: lowercase ASCII letters, digits, `-` and `_`, one extension that
 * fits the sniffed type (the client's when it fits, else the type's own), never empty, hidden or
 * a reserved device name. `photos/Ünïcödé Fïlé.JPEG` sniffed as JPEG → `unicode-file.jpeg`.
 */
export function sanitizeFilename(originalName: string, sniffed: { mimeType: string; ext: string }): string {
  const base = originalName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  const given = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  const fitting = mime.getAllExtensions(sniffed.mimeType) ?? new Set<string>();
  const ext = given === sniffed.ext || fitting.has(given) ? given : sniffed.ext;
  return `${cleanStem(stem)}.${ext}`;
}

/** `name`, or `name-1`, `name-2`... whichever is free; `taken` compares without case (case-insensitive file systems). */
export function uniqueFilename(name: string, taken: (lowercased: string) => boolean): string {
  if (!taken(name.toLowerCase())) return name;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let n = 1; n < 100_000; n++) {
    const candidate = `${stem}-${n}${ext}`;
    if (!taken(candidate.toLowerCase())) return candidate;
  }
  throw new QuireError('WRITE_ERROR', `No free name left for ${name}.`);
}

const FOLDER_FORBIDDEN = /[<>:"|?*]/;

/** A folder the service creates must have a name every file system (and git checkout) accepts. */
export function checkNewFolderName(name: string, field: string): void {
  let problem: string | undefined;
  if (FOLDER_FORBIDDEN.test(name)) problem = 'the characters < > : " | ? * are not allowed';
  else if (/[. ]$/.test(name)) problem = 'a folder name may not end with a dot or a space';
  else if (RESERVED.test(name.split('.')[0]!)) problem = 'this is a reserved device name on Windows';
  else if (Buffer.byteLength(name) > 255) problem = 'longer than 255 bytes';
  if (problem)
    throw new QuireError('INVALID_REQUEST', `Invalid ${field}: folder name "${name}": ${problem}.`, { field, problem });
}
