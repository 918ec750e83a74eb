import type { ContentManifest, LocaleManifest } from '../../client/index.js';
import { publicationOf } from '../content/status.js';
import { client, localesOf } from '../state/session.js';

export type Scope = 'page' | 'fragment' | 'data';
export type CellState = 'default' | 'inherited' | 'stale' | 'customized' | 'behind' | 'missing' | 'unpublished';

/** In the order a cell is judged: the first that applies is its colour. */
export const CELL_STATES: readonly CellState[] = [
  'missing',
  'unpublished',
  'stale',
  'behind',
  'customized',
  'inherited',
  'default',
];

export const CELL_WORDS: Record<CellState, string> = {
  default: 'default',
  inherited: 'current',
  stale: 'stale',
  customized: 'customized',
  behind: 'fallen behind',
  missing: 'missing',
  unpublished: 'unpublished',
};

export function cellState(record: LocaleManifest | undefined, now = Date.now()): CellState {
  if (!record) return 'missing';
  if (publicationOf(record, now) !== 'published') return 'unpublished';
  const inheritance = record.inheritance;
  if (!inheritance) return 'default';
  if (inheritance.state === 'customized') return inheritance.sourceChanged ? 'behind' : 'customized';
  return inheritance.stale ? 'stale' : 'inherited';
}

export interface CoverageRow {
  item: ContentManifest;
  title: string;
  cells: CellState[];
}

export interface Coverage {
  locales: string[];
  rows: CoverageRow[];
  /** Per locale, how many cells of each state. */
  totals: Array<Record<CellState, number>>;
}

function titleOf(item: ContentManifest, locale: string): string {
  const record = item.locales[locale] ?? Object.values(item.locales)[0];
  const title = record?.meta.title;
  return typeof title === 'string' && title ? title : (record?.name ?? record?.pathname ?? item.id);
}

/** Items × locales of a site's pages, its fragments (site and global) or the data entries. */
export async function loadCoverage(site: string, scope: Scope): Promise<Coverage> {
  const locales = localesOf(scope === 'data' ? undefined : site);
  const list = await client.content.list({ kind: scope });
  const items = list.items.filter((item) =>
    scope === 'page' ? item.site === site : scope === 'fragment' ? item.site === undefined || item.site === site : true,
  );
  const now = Date.now();
  const rows = items.map((item) => ({
    item,
    title: titleOf(item, locales[0] ?? ''),
    cells: locales.map((locale) => cellState(item.locales[locale], now)),
  }));
  const totals = locales.map((_, position) => {
    const counts = Object.fromEntries(CELL_STATES.map((state) => [state, 0])) as Record<CellState, number>;
    for (const row of rows) counts[row.cells[position]!]++;
    return counts;
  });
  return { locales, rows, totals };
}
