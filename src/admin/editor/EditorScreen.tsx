import { useEffect, useRef, useState } from 'preact/hooks';
import { type ContentEntry, type LocaleRecord, NotFoundError, StaleWriteError } from '../../client/index.js';
import { inheritanceOf } from '../content/status.js';
import { PreviewPane } from '../preview/PreviewPane.js';
import { clearDraft, readDraft, writeDraft } from '../state/drafts.js';
import { type ContentEvent, isForeign, lastContentEvent, ownWrite } from '../state/live.js';
import { editorHref, href, navigate, setLeaveGuard } from '../state/router.js';
import { client, defaultLocaleOf, localesOf } from '../state/session.js';
import { ErrorNotice } from '../ui/ErrorNotice.js';
import { LocaleChip } from '../ui/LocaleChip.js';
import { AddLocale } from './AddLocale.js';
import { AddressField } from './AddressField.js';
import { ConflictView } from './ConflictView.js';
import { ContentField } from './ContentField.js';
import { DangerZone } from './DangerZone.js';
import {
  applyOnTop,
  type FieldProblem,
  type Fields,
  fieldLabel,
  fieldsOf,
  fromLocalInput,
  sameFields,
  toLocalInput,
  updateFor,
} from './fields.js';
import { InheritancePanel } from './InheritancePanel.js';
import { MetaForm } from './MetaForm.js';

/** What the editor started from: the fields as the server had them, with that version's etag. */
interface Base {
  fields: Fields;
  etag: string;
  meta: Record<string, unknown>;
}
interface Conflict extends Base {
  by: string | undefined;
}

const baseOf = (entry: ContentEntry, record: LocaleRecord): Base => ({
  fields: fieldsOf(entry.type, record),
  etag: record.etag,
  meta: record.meta,
});
const DRAFT_DELAY_MS = 400;

export function EditorScreen({ id, locale }: { id: string; locale: string }) {
  const [entry, setEntry] = useState<ContentEntry>();
  const [loadError, setLoadError] = useState<unknown>();
  const [base, setBase] = useState<Base>();
  const [draft, setDraft] = useState<Fields>();
  const [conflict, setConflict] = useState<Conflict>();
  const [error, setError] = useState<unknown>();
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<string>();
  const [restoredAt, setRestoredAt] = useState<string>();
  const [remote, setRemote] = useState<ContentEvent>();
  const latest = useRef<{ base?: Base; draft?: Fields; entry?: ContentEntry }>({});
  latest.current = { base, draft, entry };

  const dirty = base !== undefined && draft !== undefined && !sameFields(base.fields, draft);

  /** Reads the item; keeps the user's unsaved changes on top of what the server now has. */
  async function refresh(options: { restore?: boolean } = {}) {
    try {
      const fresh = await client.content.get(id);
      setEntry(fresh);
      setLoadError(undefined);
      const record = fresh.locales[locale];
      if (!record) return;
      const next = baseOf(fresh, record);
      const previous = latest.current;
      const stored = options.restore ? readDraft(id, locale) : undefined;
      if (stored && !sameFields(stored.base, stored.draft)) {
        // The draft keeps the etag it started from: if the server moved on, saving shows the conflict view.
        setBase({ fields: stored.base, etag: stored.etag, meta: record.meta });
        setDraft(stored.draft);
        setRestoredAt(stored.savedAt);
      } else if (previous.base && previous.draft && !sameFields(previous.base.fields, previous.draft)) {
        setDraft(applyOnTop(previous.base.fields, previous.draft, next.fields));
        setBase(next);
      } else {
        setBase(next);
        setDraft(next.fields);
      }
    } catch (failure) {
      // Once the editor is open a failed re-read (a file caught mid-write, a dropped connection) is a notice; the draft stays.
      if (latest.current.entry) setError(failure);
      else setLoadError(failure);
    }
  }

  useEffect(() => {
    void refresh({ restore: true });
  }, []);

  // The draft goes to the browser's storage shortly after each change, and away once saved.
  useEffect(() => {
    if (!base || !draft) return;
    const timer = setTimeout(() => {
      if (sameFields(base.fields, draft)) clearDraft(id, locale);
      else writeDraft(id, locale, { base: base.fields, etag: base.etag, draft });
    }, DRAFT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [base, draft]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    addEventListener('beforeunload', warn);
    setLeaveGuard(() => confirm('You have unsaved changes. Leave anyway? (They stay in this browser as a draft.)'));
    return () => {
      removeEventListener('beforeunload', warn);
      setLeaveGuard(undefined);
    };
  }, [dirty]);

  // Someone else changed this locale: say so before a save runs into a 412.
  useEffect(() => {
    const event = lastContentEvent.value;
    if (!event || event.id !== id || (event.locale !== null && event.locale !== locale)) return;
    // Before the first load answers there is nothing to compare: that load reads the new version.
    if (!latest.current.base || !isForeign(event) || (event.etag && event.etag === latest.current.base.etag)) return;
    if (event.action !== 'deleted' && !dirty) {
      void refresh();
      setMessage(`Updated with a change by ${event.by ?? 'someone else'}.`);
      return;
    }
    setRemote(event);
  }, [lastContentEvent.value]);

  async function save(over?: { base: Base; draft: Fields }) {
    const from = over?.base ?? latest.current.base;
    const mine = over?.draft ?? latest.current.draft;
    const item = latest.current.entry;
    if (!from || !mine || !item || saving) return;
    const { update, problems: found } = updateFor(item.kind, item.type, from.fields, mine, from.meta);
    setProblems(found);
    setMessage(undefined);
    if (found.length > 0) return;
    if (Object.keys(update).length === 0) {
      setMessage(
        mine.address !== from.fields.address
          ? 'Nothing else to save: use Move to change the pathname.'
          : 'Nothing to save.',
      );
      return;
    }
    setSaving(true);
    setError(undefined);
    try {
      const result = await ownWrite(() => client.content.update(id, locale, update, { etag: from.etag }));
      clearDraft(id, locale);
      const fresh = await client.content.get(id);
      const record = fresh.locales[locale]!;
      const next = baseOf(fresh, record);
      setEntry(fresh);
      // Typing during the save stays: it is put on top of what was saved.
      const typedSince = latest.current.draft;
      setDraft(typedSince && typedSince !== mine ? applyOnTop(mine, typedSince, next.fields) : next.fields);
      setBase(next);
      setConflict(undefined);
      setRemote(undefined);
      setRestoredAt(undefined);
      setMessage(`Saved at ${new Date(result.modified).toLocaleTimeString()}.`);
    } catch (failure) {
      if (failure instanceof StaleWriteError) await openConflict();
      else setError(failure);
    } finally {
      setSaving(false);
    }
  }

  async function openConflict() {
    try {
      const theirs = await client.content.getLocale(id, locale);
      const item = latest.current.entry!;
      setConflict({ ...baseOf(item, theirs.localized), by: theirs.localized.modifiedBy });
      setRemote(undefined);
    } catch (failure) {
      setError(failure);
    }
  }

  function takeTheirs() {
    if (!conflict) return;
    const { by: _by, ...theirs } = conflict;
    setBase(theirs);
    setDraft(theirs.fields);
    setConflict(undefined);
    clearDraft(id, locale);
    setMessage('You now have their version; your changes were discarded.');
    void refresh();
  }

  function applyMine() {
    if (!conflict || !base || !draft) return;
    const { by: _by, ...theirs } = conflict;
    const merged = applyOnTop(base.fields, draft, theirs.fields);
    setBase(theirs);
    setDraft(merged);
    setConflict(undefined);
    void save({ base: theirs, draft: merged });
  }

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void save();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  if (loadError) {
    return (
      <section class="screen">
        <h1>{loadError instanceof NotFoundError ? 'This item does not exist' : 'The item could not be loaded'}</h1>
        <ErrorNotice error={loadError} title={`Loading ${id}`} />
        <p>
          <a href={href('/content')}>Back to the content list</a>
        </p>
      </section>
    );
  }
  if (!entry)
    return (
      <p class="loading" role="status">
        Loading {id}…
      </p>
    );

  const locales = localesOf(entry.site);
  const defaultLocale = defaultLocaleOf(entry.site);
  const record = entry.locales[locale];
  const title = (record ?? entry.locales[defaultLocale])?.meta.title || entry.id;
  const inheritance = inheritanceOf(record);
  const contentReadOnly = inheritance === 'inherited' || inheritance === 'stale';

  return (
    <section class="screen screen--editor" aria-labelledby="editor-title">
      <p class="crumbs">
        <a href={href('/content', { kind: entry.kind === 'page' ? undefined : entry.kind })}>Content</a> ›{' '}
        {entry.site ?? 'global'} › {entry.collection}
      </p>
      <h1 id="editor-title">
        {title} <span class="muted">({locale})</span>
      </h1>
      <p class="meta-line">
        <span class="badge">{entry.kind}</span> <span class="badge">{entry.type}</span> <code>{entry.id}</code>
        {record?.modified && (
          <span>
            last saved {new Date(record.modified).toLocaleString()}
            {record.modifiedBy ? ` by ${record.modifiedBy}` : ''}
          </span>
        )}
      </p>
      <nav class="locale-tabs" aria-label="Locales of this item">
        {locales.map((code) => (
          <a key={code} href={editorHref(entry.id, code)} aria-current={code === locale ? 'page' : undefined}>
            <LocaleChip locale={code} record={entry.locales[code]} />
          </a>
        ))}
      </nav>

      {!record && (
        <AddLocale
          entry={entry}
          locale={locale}
          defaultLocale={defaultLocale}
          onAdded={() => {
            void refresh();
            setMessage(`${locale} added.`);
          }}
        />
      )}

      {record && base && draft && (
        <>
          <div class="notices">
            {restoredAt && (
              <div class="notice" role="status">
                <p>
                  Your unsaved changes from {new Date(restoredAt).toLocaleString()} were restored from this browser.
                </p>
                <button
                  type="button"
                  class="button button--small"
                  onClick={() => {
                    clearDraft(id, locale);
                    setRestoredAt(undefined);
                    setBase(undefined);
                    void refresh();
                  }}
                >
                  Discard them
                </button>
              </div>
            )}
            {remote && (
              <div class="notice notice--warn" role="status">
                <p>
                  {remote.action === 'deleted' ? 'This locale was deleted' : 'This locale was changed'} by{' '}
                  {remote.by ?? 'someone else'} while you were editing.
                  {remote.action !== 'deleted' && ' Saving now would show a conflict.'}
                </p>
                {remote.action !== 'deleted' && (
                  <button type="button" class="button button--small" onClick={() => void openConflict()}>
                    Compare with their version
                  </button>
                )}
              </div>
            )}
            {message && (
              <p class="notice notice--ok" role="status">
                {message}
              </p>
            )}
            {problems.length > 0 && (
              <div class="notice notice--error" role="alert">
                <p>
                  <strong>Not saved:</strong>
                </p>
                <ul>
                  {problems.map((problem) => (
                    <li key={problem.field}>
                      {fieldLabel(problem.field, entry.kind)}: {problem.message}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {error !== undefined && (
              <ErrorNotice error={error} title="Not saved" onDismiss={() => setError(undefined)} />
            )}
          </div>

          {conflict && (
            <ConflictView
              kind={entry.kind}
              base={base.fields}
              mine={draft}
              theirs={conflict.fields}
              by={conflict.by}
              busy={saving}
              onTakeTheirs={takeTheirs}
              onApplyMine={applyMine}
            />
          )}

          {locale !== defaultLocale && (
            <InheritancePanel
              id={id}
              locale={locale}
              record={record}
              etag={base.etag}
              onDone={(done) => {
                setMessage(done);
                void refresh();
              }}
            />
          )}

          <form
            class="editor-form"
            onSubmit={(event) => {
              event.preventDefault();
              void save();
            }}
          >
            <fieldset class="group group--content">
              <legend>{entry.kind === 'data' ? 'Data' : 'Content'}</legend>
              {contentReadOnly && (
                <p class="hint">
                  This locale inherits its content from {record.inheritance?.from}. Break inheritance to edit it here.
                </p>
              )}
              <ContentField
                type={entry.type}
                isData={entry.kind === 'data'}
                body={draft.body}
                readOnly={contentReadOnly}
                onChange={(body) => setDraft({ ...draft, body })}
              />
            </fieldset>
            <fieldset class="group">
              <legend>{entry.kind === 'page' ? 'Address' : 'Name'}</legend>
              <AddressField
                entry={entry}
                locale={locale}
                saved={base.fields.address}
                value={draft.address}
                etag={base.etag}
                onChange={(address) => setDraft({ ...draft, address })}
                onMoved={(moved) => {
                  setMessage(moved);
                  void refresh();
                }}
              />
            </fieldset>
            <MetaForm meta={draft.meta} onChange={(meta) => setDraft({ ...draft, meta })} />
            <fieldset class="group">
              <legend>Publication</legend>
              <div class="pair">
                {(['publishAt', 'unpublishAt'] as const).map((key) => (
                  <div class="field" key={key}>
                    <label for={key}>
                      {key === 'publishAt' ? 'Publish at' : 'Unpublish at'} <span class="hint">(your local time)</span>
                    </label>
                    <div class="inline-form">
                      <input
                        id={key}
                        type="datetime-local"
                        value={toLocalInput(draft[key])}
                        onInput={(event) => setDraft({ ...draft, [key]: fromLocalInput(event.currentTarget.value) })}
                      />
                      {draft[key] && (
                        <button
                          type="button"
                          class="button button--small"
                          onClick={() => setDraft({ ...draft, [key]: '' })}
                        >
                          Clear
                        </button>
                      )}
                    </div>
                  </div>
                ))}
              </div>
              <p class="hint">Empty means: published now / never unpublished.</p>
            </fieldset>
            <div class="savebar">
              <button type="submit" class="button button--primary" disabled={saving || !!conflict}>
                {saving ? 'Saving…' : 'Save'}
              </button>
              <span class="savebar__state" aria-live="polite">
                {conflict
                  ? 'Resolve the conflict above first.'
                  : dirty
                    ? 'Unsaved changes (Ctrl/⌘+S saves)'
                    : 'All changes saved'}
              </span>
            </div>
          </form>

          <PreviewPane entry={entry} locale={locale} version={record.modified} />

          <DangerZone
            entry={entry}
            locale={locale}
            defaultLocale={defaultLocale}
            etag={base.etag}
            title={String(title)}
            onDeleted={(what) => {
              clearDraft(id, locale);
              setLeaveGuard(undefined);
              if (what === 'item') navigate(href('/content'), { replace: true });
              else navigate(editorHref(id, defaultLocale), { replace: true });
            }}
          />
        </>
      )}
    </section>
  );
}
