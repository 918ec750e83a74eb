import { sleep } from '../processes.mjs';
import { log } from '../progress.mjs';
import { measuredRow, round, target } from '../rows.mjs';
import { memoryUsageMB } from '../site.mjs';
import { rssMB } from './upload.mjs';

const MB = 1024 * 1024;
/** The bounds: resident memory within 2.5× the content it serves, 2× at 100k items. */
const contentFactor = (items) => (items >= 100_000 ? 2 : 2.5);

/**
 * The server's VmRSS once the read and write load is over and it has been idle for `idleSeconds`,
 * against 2.5× (2× at 100k items) the bytes of the content files (every locale file and asset the
 * generator wrote under the content root, not .git). The RSS as the load ended is in the details:
 * under load V8 grows its heap for throughput and gives it back once allocation stops (its memory
 * reducer; in a 10k run a 622 MB heap went back to 126 MB between 25 and 30 s after the reads).
 */
export async function measureRssSteady({ server, contentBytes, items, idleSeconds }) {
  const factor = contentFactor(items);
  const atEndMB = rssMB(server.pid);
  const usageAtEnd = await memoryUsageMB(server);
  log(`   RSS ${atEndMB} MB as the load ended; ${idleSeconds} s idle before the steady reading`);
  await sleep(idleSeconds * 1000);
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
      label:
        `${rss} MB after ${idleSeconds} s idle (${atEndMB} MB as the load ended; ` +
        `JS heap ${usage.heapUsed} MB used of ${usage.heapTotal} MB, buffers ${usage.external} MB)`,
    },
    target: target.ratioMax(1),
    details: {
      rssMB: rss,
      idleSeconds,
      atEndMB,
      contentMB,
      factor,
      memoryUsageMB: usage,
      memoryUsageAtEndMB: usageAtEnd,
    },
  });
}
