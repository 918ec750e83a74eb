import type { LocaleManifest } from '../../client/index.js';
import { INHERITANCE_WORDS, inheritanceOf, publicationOf } from '../content/status.js';

export const PUBLICATION_MARK = { published: '●', scheduled: '◐', unpublished: '○' } as const;

/** One locale of an item: its publication (mark and word) and inheritance state, in words, not only colour. */
export function LocaleChip({ locale, record }: { locale: string; record: LocaleManifest | undefined }) {
  const inheritance = inheritanceOf(record);
  if (!record) {
    return (
      <span class="chip chip--missing">
        <b>{locale}</b> missing
      </span>
    );
  }
  const publication = publicationOf(record);
  return (
    <span
      class={`chip chip--${publication} chip--${inheritance}`}
      title={`${locale}: ${publication}, ${INHERITANCE_WORDS[inheritance]}`}
    >
      <b>{locale}</b>
      <span class="chip__pub" aria-hidden="true">
        {PUBLICATION_MARK[publication]}
      </span>
      <span class="visually-hidden">{publication},</span>
      {inheritance === 'own' ? null : <span class="chip__inh">{INHERITANCE_WORDS[inheritance]}</span>}
    </span>
  );
}

/** What the marks on the chips mean, for someone who has not learned them yet. */
export function PublicationLegend() {
  return (
    <p class="legend" aria-hidden="true">
      {(['published', 'scheduled', 'unpublished'] as const).map((publication) => (
        <span key={publication} class={`chip--${publication}`}>
          <span class="chip__pub">{PUBLICATION_MARK[publication]}</span> {publication}
        </span>
      ))}
    </p>
  );
}
