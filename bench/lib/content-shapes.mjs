/**
 * The bodies of synthetic items, sized like real ones: a page's visual-editor JSON (~5 KB), a
 * fragment's MDX (~3 KB), a data entry's JSON (~1 KB). Asset references use the serve URL that
 * usage tracking recognises (docs/interface.md, "Assets").
 */
export const ASSET_URL_PREFIX = '/__cms/api/assets/serve/';
const assetUrl = (asset) => `${ASSET_URL_PREFIX}${asset}`;

const VISUAL_BYTES = 5_000;
const MDX_BYTES = 3_000;
const DATA_BYTES = 1_000;

export function visualData(t, title, images) {
  const content = [
    {
      type: 'Hero',
      props: {
        id: 'hero-1',
        title,
        subtitle: t.sentence(12),
        image: { src: assetUrl(t.pick(images)), alt: t.title(4) },
        cta: { label: t.title(2), href: '/contact' },
      },
    },
  ];
  let bytes = JSON.stringify(content).length;
  for (let n = 2; bytes < VISUAL_BYTES; n++) {
    const id = `block-${n}`;
    const kind = n % 4;
    const block =
      kind === 0
        ? {
            type: 'Features',
            props: {
              id,
              heading: t.title(3),
              items: [0, 1, 2].map(() => ({ title: t.title(2), text: t.sentence(14), icon: t.word() })),
            },
          }
        : kind === 1
          ? {
              type: 'Image',
              props: {
                id,
                src: assetUrl(t.pick(images)),
                alt: t.title(5),
                caption: t.sentence(9),
                width: 1200,
                height: 800,
              },
            }
          : kind === 2
            ? { type: 'Quote', props: { id, text: t.paragraph(2), author: t.title(2), role: t.title(2) } }
            : { type: 'TextBlock', props: { id, heading: t.title(4), body: t.paragraph(4), align: 'left' } };
    content.push(block);
    bytes += JSON.stringify(block).length + 1;
  }
  return { root: { props: { title, theme: 'light' } }, content, zones: {} };
}

export function mdxSource(t, images) {
  const parts = [`# ${t.title(4)}`, '', t.paragraph(3), ''];
  let bytes = parts.join('\n').length;
  for (let n = 0; bytes < MDX_BYTES; n++) {
    const section =
      n % 3 === 0
        ? `## ${t.title(3)}\n\n${t.paragraph(4)}\n`
        : n % 3 === 1
          ? `<Callout type="note" title="${t.title(2)}">\n  ${t.sentence(16)}\n</Callout>\n\n![${t.title(3)}](${assetUrl(t.pick(images))})\n`
          : `- ${t.sentence(8)}\n- ${t.sentence(8)}\n- [${t.title(2)}](/docs/${t.word()})\n`;
    parts.push(section);
    bytes += section.length + 1;
  }
  return `${parts.join('\n')}\n`;
}

export function dataEntry(t, index, productImages) {
  const data = {
    sku: `SKU-${String(index).padStart(6, '0')}`,
    title: t.title(3),
    price: 5 + t.int(500) + 0.99,
    currency: 'EUR',
    image: assetUrl(t.pick(productImages)),
    tags: [t.word(), t.word(), t.word()],
    specs: {
      color: t.word(),
      material: t.word(),
      weightGrams: 100 + t.int(2_000),
      dimensions: `${10 + t.int(90)}x${10 + t.int(90)}x${1 + t.int(20)} cm`,
    },
    available: t.chance(0.9),
    description: '',
  };
  data.description = t.paragraph(2);
  while (JSON.stringify(data).length < DATA_BYTES) data.description += ` ${t.sentence(8)}`;
  return data;
}

/** An earlier version of the same content: what a stale translation was last reviewed against. */
export function earlierVersion(type, content) {
  if (type === 'visual')
    return {
      visualData: {
        ...content.visualData,
        root: { props: { ...content.visualData.root.props, title: `${content.visualData.root.props.title} (draft)` } },
      },
    };
  if (type === 'mdx') return { mdx: `${content.mdx}\nAn earlier closing line.\n` };
  return { data: { ...content.data, price: content.data.price + 1 } };
}
