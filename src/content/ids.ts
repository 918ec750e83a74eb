import { randomBytes } from 'node:crypto';
import type { Kind } from './types.js';

/** Lowercase Crockford base32 (no i, l, o, u): 5 bits per character, URL-safe, hard to misread. */
const SUFFIX_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/**
 * 12 characters = 60 random bits. Clones of one repository never see each other's new IDs, so only
 * randomness keeps them apart: even if a million items on many clones all had the same readable
 * part, the chance that any two share a suffix is about n²/2⁶¹ ≈ 4·10⁻⁷ (README, "Content IDs").
 */
export const ID_SUFFIX_LENGTH = 12;
/** The readable part leaves room for `-<suffix>` within 64 characters, so an unnamed item's ID is also a valid name. */
const SLUG_MAX = 64 - 1 - ID_SUFFIX_LENGTH;

/** A readable slug: a page's pathname ('/about/team' → 'about-team', '/' → 'home'), else its name or collection. */
export function idBase(kind: Kind, source: { pathname?: string; name?: string; collection: string }): string {
  const text =
    kind === 'page' && source.pathname !== undefined
      ? source.pathname === '/'
        ? 'home'
        : source.pathname
      : (source.name ?? source.collection);
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  return slug || kind;
}

/** `randomSuffix(bytes)` for a given source of random bytes (tests simulate clones with it). */
export function randomSuffix(random: (size: number) => Uint8Array = randomBytes): string {
  // 256 is a multiple of 32, so `byte & 31` is uniform.
  return [...random(ID_SUFFIX_LENGTH)].map((byte) => SUFFIX_ALPHABET[byte & 31]).join('');
}

/**
 * The base with a random suffix (`about-team-7kq2mx4p9abz`), drawn again in the astronomically rare
 * case it is taken here. A suffixed ID never equals a fixed `/content/...` segment (`batch`, `collections`).
 */
export function uniqueId(base: string, taken: (id: string) => boolean, random?: (size: number) => Uint8Array): string {
  for (;;) {
    const id = `${base}-${randomSuffix(random)}`;
    if (!taken(id)) return id;
  }
}
