import { log } from '../progress.mjs';
import { measuredRow, round, target } from '../rows.mjs';
import { memoryUsageMB } from '../site.mjs';
import { rssMB } from './upload.mjs';

const MB = 1024 * 1024;
/** The bounds: resident memory within 2.5× the content it serves, 2× at 100k items. */
const contentFactor = (items) => (items >= 100_000 ? 2 : 2.5);

/**
 * The server's VmRSS once the read and write load is over, against 2.5× (2× at 100k items) the
 * bytes of the content files (every locale file and asset the generator wrote under the content
 * root, not .git).
 */
export async function measureRssSteady({ server, contentBytes, items }) {
  const factor = contentFactor(items);
  const rss = rssMB(server.pid);
  const usage = await memoryUsageMB(server);
  const contentMB = round(contentBytes / MB, 1);
  const boundMB = round(contentMB * factor, 1);
  log(`   steady RSS ${rss} MB against ${boundMB} MB (${factor}× ${contentMB} MB of content)`);
  return measuredRow({
    id: 'rss-steady',
    measure: 'server RSS after the full read/write load',
    floor: { value: boundMB, unit: 'MB', label: `${boundMB} MB (${factor}× the content's ${contentMB} MB)` },
    quire: {
      value: rss,
      unit: 'MB',
      label: `${rss} MB (JS heap ${usage.heapUsed} MB used of ${usage.heapTotal} MB, buffers ${usage.external} MB)`,
    },
    target: target.ratioMax(1),
    details: { rssMB: rss, contentMB, factor, memoryUsageMB: usage },
  });
}
