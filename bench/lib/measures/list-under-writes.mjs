import { startDrive } from '../load.mjs';
import { log } from '../progress.mjs';
import { failedRow, round, target } from '../rows.mjs';
import { API } from '../site.mjs';
import { prepareWriters, verifyWriters, writeLoad } from '../writers.mjs';
import { compareToFloor, LIST_FILTERS } from './reads.mjs';
import { WRITERS } from './writes.mjs';

/**
 * The filtered page list of the reads measure while 8 writers PUT continuously (the writes
 * measure's way, on 8 other www pages with all locales, from the end of the catalog), against
 * the same list's floor: a constant body of the same size from the same server, timed under the
 * same write load, so that what is left is the list's own cost of staying current.
 */
export async function measureListUnderWrites({ server, catalog, contentRoot, settings, excludeIds }) {
  const id = 'list-under-writes';
  const measure = `GET /content?${LIST_FILTERS} while ${WRITERS} writers PUT`;
  const goal = target.ratioMax(2);
  const pages = catalog.items
    .filter(
      (item) =>
        item.kind === 'page' &&
        item.site === 'www' &&
        Object.keys(item.locales).length === 3 &&
        !excludeIds.has(item.id),
    )
    .slice(-WRITERS);
  const prepared = await prepareWriters({ server, items: pages, contentRoot });
  if (prepared.error) return failedRow({ id, measure, target: goal, note: prepared.error });

  log(`list under writes: ${WRITERS} writers in the background`);
  const load = startDrive({ ...writeLoad(server, prepared), duration: 3_600 });
  let row;
  let writes;
  try {
    row = await compareToFloor(server, {
      id,
      measure,
      paths: [`${API}/content?${LIST_FILTERS}`],
      goal,
      settings,
      check: ([answer]) => ({ items: answer.json?.total }),
    });
  } finally {
    writes = await load.stop();
  }
  const { verification, allOnDisk } = await verifyWriters(server, prepared.writers);
  const acknowledged = prepared.writers.reduce((sum, writer) => sum + writer.ackedCount, 0);
  const writeDetails = {
    seconds: round(writes.seconds),
    acknowledged,
    writesPerSecond: round(acknowledged / writes.seconds, 0),
    statuses: writes.statuses,
    errors: writes.errors,
    allOnDisk,
    writers: verification,
  };
  log(`   ${writeDetails.writesPerSecond} writes/s beside it, every acknowledged write on disk: ${allOnDisk}`);
  if (!allOnDisk || writes.bad > 0 || acknowledged === 0)
    return failedRow({
      id,
      measure,
      target: goal,
      note: !allOnDisk
        ? 'an acknowledged write is not on disk'
        : `writes answered non-2xx or none: ${JSON.stringify(writes.statuses)}`,
      details: { ...row.details, writes: writeDetails },
    });
  row.details = { ...row.details, writes: writeDetails };
  if (row.status === 'measured') {
    row.floor.label += ', under the same writes';
    row.quire.label += ` (${writeDetails.writesPerSecond} writes/s beside it)`;
  }
  return row;
}
