import { useState } from 'preact/hooks';
import { AssetPicker } from '../media/AssetPicker.js';
import { holdsAsset } from '../media/asset-fields.js';

interface Block {
  type: string;
  props: Record<string, unknown>;
}
interface VisualData {
  root?: unknown;
  content: Block[];
  [key: string]: unknown;
}

function asVisualData(value: unknown): VisualData | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const content = (value as { content?: unknown }).content ?? [];
  if (!Array.isArray(content)) return undefined;
  const blocks = content.every(
    (block) => typeof block === 'object' && block !== null && typeof (block as Block).type === 'string',
  );
  return blocks
    ? { ...(value as object), content: content.map((block: Block) => ({ ...block, props: block.props ?? {} })) }
    : undefined;
}

function PropField({
  blockIndex,
  name,
  value,
  readOnly,
  onChange,
}: {
  blockIndex: number;
  name: string;
  value: unknown;
  readOnly: boolean;
  onChange(value: unknown): void;
}) {
  const id = `block-${blockIndex}-${name}`;
  const isText = typeof value === 'string';
  const [text, setText] = useState(isText ? '' : JSON.stringify(value, null, 2));
  const [problem, setProblem] = useState<string>();
  if (isText) {
    const long = value.length > 80 || value.includes('\n');
    return (
      <div class="field">
        <label for={id}>{name}</label>
        {long ? (
          <textarea
            id={id}
            value={value}
            rows={3}
            readOnly={readOnly}
            onInput={(event) => onChange(event.currentTarget.value)}
          />
        ) : (
          <input id={id} value={value} readOnly={readOnly} onInput={(event) => onChange(event.currentTarget.value)} />
        )}
        {holdsAsset(name, value) && (
          <AssetPicker field={name} disabled={readOnly} onChoose={(asset) => onChange(asset.url)} />
        )}
      </div>
    );
  }
  return (
    <div class="field">
      <label for={id}>
        {name} <span class="hint">(JSON)</span>
      </label>
      <textarea
        id={id}
        class="mono"
        value={text}
        rows={Math.min(8, text.split('\n').length)}
        readOnly={readOnly}
        aria-invalid={problem ? 'true' : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onInput={(event) => {
          const next = event.currentTarget.value;
          setText(next);
          try {
            onChange(JSON.parse(next));
            setProblem(undefined);
          } catch (error) {
            setProblem((error as Error).message);
          }
        }}
      />
      {problem && (
        <p id={`${id}-problem`} class="problem">
          Not valid JSON yet, so not applied: {problem}
        </p>
      )}
    </div>
  );
}

/** A visual page as a list of blocks: add, remove, move up or down, and edit each block's fields. */
export function BlockList({
  body,
  readOnly,
  onChange,
}: {
  body: string;
  readOnly: boolean;
  onChange(body: string): void;
}) {
  const [newType, setNewType] = useState('TextBlock');
  const [newField, setNewField] = useState<Record<number, string>>({});
  let data: VisualData | undefined;
  try {
    data = asVisualData(JSON.parse(body));
  } catch {
    /* shown below */
  }
  if (!data)
    return <p class="notice">This content is not a block list that can be edited as blocks. Use the raw JSON view.</p>;
  const blocks = data.content;
  const write = (next: Block[]) => onChange(JSON.stringify({ ...data, content: next }, null, 2));
  const move = (index: number, by: number) => {
    const next = [...blocks];
    const [block] = next.splice(index, 1);
    next.splice(index + by, 0, block!);
    write(next);
  };
  return (
    <div class="blocks">
      {blocks.length === 0 && <p class="empty">No blocks yet.</p>}
      <ol class="blocks__list">
        {blocks.map((block, index) => (
          <li key={`${index}-${block.type}`} class="block">
            <fieldset>
              <legend>
                Block {index + 1} of {blocks.length}: {block.type}
              </legend>
              {!readOnly && (
                <div class="block__tools">
                  <button
                    type="button"
                    class="button button--small"
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                    aria-label={`Move block ${index + 1} (${block.type}) up`}
                  >
                    Up
                  </button>
                  <button
                    type="button"
                    class="button button--small"
                    disabled={index === blocks.length - 1}
                    onClick={() => move(index, 1)}
                    aria-label={`Move block ${index + 1} (${block.type}) down`}
                  >
                    Down
                  </button>
                  <button
                    type="button"
                    class="button button--small button--danger"
                    onClick={() => write(blocks.filter((_, at) => at !== index))}
                    aria-label={`Remove block ${index + 1} (${block.type})`}
                  >
                    Remove
                  </button>
                </div>
              )}
              {Object.entries(block.props).map(([name, value]) => (
                <PropField
                  key={name}
                  blockIndex={index}
                  name={name}
                  value={value}
                  readOnly={readOnly}
                  onChange={(changed) =>
                    write(
                      blocks.map((each, at) =>
                        at === index ? { ...each, props: { ...each.props, [name]: changed } } : each,
                      ),
                    )
                  }
                />
              ))}
              {!readOnly && (
                <div class="inline-form">
                  <label class="field field--inline">
                    <span>New field</span>
                    <input
                      value={newField[index] ?? ''}
                      onInput={(event) => setNewField({ ...newField, [index]: event.currentTarget.value })}
                    />
                  </label>
                  <button
                    type="button"
                    class="button button--small"
                    disabled={!newField[index]?.trim()}
                    onClick={() => {
                      const name = newField[index]!.trim();
                      write(
                        blocks.map((each, at) =>
                          at === index ? { ...each, props: { ...each.props, [name]: '' } } : each,
                        ),
                      );
                      setNewField({ ...newField, [index]: '' });
                    }}
                  >
                    Add field
                  </button>
                </div>
              )}
            </fieldset>
          </li>
        ))}
      </ol>
      {!readOnly && (
        <div class="inline-form">
          <label class="field field--inline">
            <span>Block type</span>
            <input value={newType} onInput={(event) => setNewType(event.currentTarget.value)} />
          </label>
          <button
            type="button"
            class="button"
            disabled={!newType.trim()}
            onClick={() =>
              write([...blocks, { type: newType.trim(), props: { id: `block-${Date.now().toString(36)}`, text: '' } }])
            }
          >
            Add block
          </button>
        </div>
      )}
    </div>
  );
}
