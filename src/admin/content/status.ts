import type { LocaleManifest } from '../../client/index.js';

export type Publication = 'published' | 'scheduled' | 'unpublished';
export type Inheritance = 'own' | 'inherited' | 'stale' | 'customized' | 'missing';

/** Published at `now`: publishAt unset or passed, and unpublishAt unset or still ahead (docs/interface.md, "Publication and filters"). */
export function publicationOf(
  record: Pick<LocaleManifest, 'publishAt' | 'unpublishAt'>,
  now = Date.now(),
): Publication {
  const publishAt = record.publishAt ? Date.parse(record.publishAt) : undefined;
  const unpublishAt = record.unpublishAt ? Date.parse(record.unpublishAt) : undefined;
  if (unpublishAt !== undefined && unpublishAt <= now) return 'unpublished';
  if (publishAt !== undefined && publishAt > now) return 'scheduled';
  return 'published';
}

export function inheritanceOf(record: Pick<LocaleManifest, 'inheritance'> | undefined): Inheritance {
  if (!record) return 'missing';
  const inheritance = record.inheritance;
  if (!inheritance) return 'own';
  if (inheritance.state === 'customized') return 'customized';
  return inheritance.stale ? 'stale' : 'inherited';
}

export const INHERITANCE_WORDS: Record<Inheritance, string> = {
  own: 'default',
  inherited: 'inherited',
  stale: 'stale',
  customized: 'customized',
  missing: 'missing',
};
