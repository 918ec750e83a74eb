import type { GitStatus } from '../../client/index.js';

export type StatusFile = GitStatus['files'][number];

const KIND_WORDS = { page: 'page', fragment: 'fragment', data: 'data entry' } as const;
const CHANGE_WORDS = { added: 'new', modified: 'changed', deleted: 'deleted' } as const;

export const changeWord = (file: StatusFile) => CHANGE_WORDS[file.change];

/** A file as an editor knows it: "About (en)", a page; "photos/cat.png", an asset; otherwise its path. */
export function describeFile(file: StatusFile): { name: string; what: string } {
  if (file.item) {
    const { title, id, locale, kind, site } = file.item;
    return {
      name: `${title || id} (${locale})`,
      what: `${KIND_WORDS[kind as keyof typeof KIND_WORDS] ?? kind}${site ? ` on ${site}` : ''}`,
    };
  }
  if (file.asset !== undefined) {
    const manifest = file.asset.endsWith('.quire-assets.json');
    return manifest
      ? { name: file.asset.replace(/\/?\.quire-assets\.json$/, '') || '/', what: 'asset details (alt text, tags)' }
      : { name: file.asset, what: 'asset' };
  }
  return { name: file.path, what: 'file' };
}

/** The commit message offered: what changed, by name, shortened after three. */
export function defaultMessage(files: StatusFile[]): string {
  const names = [...new Set(files.map((file) => describeFile(file).name))];
  if (names.length === 0) return '';
  const shown = names.slice(0, 3).join(', ');
  return names.length > 3 ? `Update ${shown} and ${names.length - 3} more` : `Update ${shown}`;
}
