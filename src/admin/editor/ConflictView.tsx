import type { ContentEntry } from '../../client/index.js';
import { changedKeys, type FieldKey, type Fields, fieldLabel, fieldValue } from './fields.js';

interface Props {
  kind: ContentEntry['kind'];
  base: Fields;
  mine: Fields;
  theirs: Fields;
  by: string | undefined;
  busy: boolean;
  onTakeTheirs(): void;
  onApplyMine(): void;
}

function Value({ value }: { value: string | undefined }) {
  if (value === undefined) return <em class="muted">(removed)</em>;
  if (value === '') return <em class="muted">(empty)</em>;
  return <pre class="conflict__value">{value}</pre>;
}

/**
 * A write was refused with 412: someone saved this locale after the editor opened it. Shows, per
 * field, what the server now holds and what the editor typed, and lets them take theirs or put
 * their own changes on top of it. Nothing is overwritten blindly.
 */
export function ConflictView({ kind, base, mine, theirs, by, busy, onTakeTheirs, onApplyMine }: Props) {
  const theirChanges = new Set(changedKeys(base, theirs));
  const myChanges = new Set(changedKeys(base, mine));
  const keys: FieldKey[] = [...new Set([...theirChanges, ...myChanges])];
  return (
    <section class="conflict" aria-labelledby="conflict-title">
      <h2 id="conflict-title">Someone else saved this locale while you were editing</h2>
      <p>
        {by ? `${by} changed it.` : 'It was changed on the server.'} Your changes are kept here and were not saved.
        Compare, then choose.
      </p>
      <table class="conflict__table" aria-label="Changed fields">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">On the server now</th>
            <th scope="col">What you typed</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key}>
              <th scope="row" class="conflict__field">
                {fieldLabel(key, kind)}
                {theirChanges.has(key) && myChanges.has(key) && <span class="badge badge--warn">both changed</span>}
              </th>
              <td class={theirChanges.has(key) ? 'conflict__changed' : undefined}>
                {theirChanges.has(key) ? <Value value={fieldValue(theirs, key)} /> : <em class="muted">unchanged</em>}
              </td>
              <td class={myChanges.has(key) ? 'conflict__changed' : undefined}>
                {myChanges.has(key) ? <Value value={fieldValue(mine, key)} /> : <em class="muted">unchanged</em>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="actions">
        <button type="button" class="button button--primary" disabled={busy} onClick={onApplyMine}>
          Apply mine on top of theirs
        </button>
        <button type="button" class="button" disabled={busy} onClick={onTakeTheirs}>
          Take theirs (discard mine)
        </button>
      </div>
      <p class="hint">
        “Apply mine on top” saves their version with the fields you changed replaced by yours; fields marked “both
        changed” take your value.
      </p>
    </section>
  );
}
