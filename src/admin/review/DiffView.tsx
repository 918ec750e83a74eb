import type { Review } from '../../client/index.js';

type Diff = NonNullable<Review['diff']>;
type FieldChange = Diff['content'][number];
type Words = NonNullable<FieldChange['words']>;

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** One side of a word-level change: the words it shares with the other side, and its own marked. */
function WordSide({ words, side }: { words: Words; side: 'before' | 'after' }) {
  const own = side === 'before' ? 'removed' : 'added';
  return (
    <>
      {words.map((part, index) => {
        if (!part.change) return <span key={index}>{part.text}</span>;
        if (part.change !== own) return null;
        return own === 'removed' ? (
          <del key={index} class="diff__removed">
            {part.text}
          </del>
        ) : (
          <ins key={index} class="diff__added">
            {part.text}
          </ins>
        );
      })}
    </>
  );
}

function Side({
  change,
  side,
}: {
  change: { words?: Words; before?: unknown; after?: unknown };
  side: 'before' | 'after';
}) {
  if (change.words) return <WordSide words={change.words} side={side} />;
  const value = change[side];
  if (value === undefined) return <span class="diff__none">—</span>;
  const Mark = side === 'before' ? 'del' : 'ins';
  return <Mark class={side === 'before' ? 'diff__removed' : 'diff__added'}>{show(value)}</Mark>;
}

const CHANGE_WORDS = { added: 'added', removed: 'removed', changed: 'changed' } as const;

function FieldTable({ caption, changes }: { caption: string; changes: FieldChange[] }) {
  if (changes.length === 0) return null;
  return (
    <table class="diff diff--fields">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Reviewed source</th>
          <th scope="col">Current source</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => (
          <tr key={change.path} class={`diff__row diff__row--${change.change}`}>
            <th scope="row">
              <code>{change.path}</code> <span class="diff__kind">{CHANGE_WORDS[change.change]}</span>
            </th>
            <td>
              <Side change={change} side="before" />
            </td>
            <td>
              <Side change={change} side="after" />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function LineTable({ lines }: { lines: NonNullable<Diff['lines']> }) {
  return (
    <table class="diff diff--lines">
      <caption>Text, line by line</caption>
      <thead>
        <tr>
          <th scope="col">Reviewed source</th>
          <th scope="col">Current source</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line, index) => (
          <tr key={index} class={`diff__row diff__row--${line.change}`}>
            <td>{line.change === 'same' ? line.before : <Side change={line} side="before" />}</td>
            <td>{line.change === 'same' ? line.after : <Side change={line} side="after" />}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The reviewed source beside the current one: prose word by word, blocks and data field by field. */
export function DiffView({ diff }: { diff: Diff }) {
  const nothing =
    diff.meta.length === 0 && diff.content.length === 0 && !diff.lines?.some((line) => line.change !== 'same');
  if (nothing) return <p class="diff__same">The source is the same as when this translation was reviewed.</p>;
  return (
    <div class="diffs">
      <FieldTable caption="Meta" changes={diff.meta} />
      {diff.lines && <LineTable lines={diff.lines} />}
      <FieldTable caption={diff.lines ? 'Other content fields' : 'Content fields'} changes={diff.content} />
    </div>
  );
}
