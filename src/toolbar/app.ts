import { defineToolbarApp } from 'astro/toolbar';
import { createQuireClient } from '../client/client.js';
import { findPage, stateWords } from './find-page.js';
import { SETTINGS_EVENT, type ToolbarSettings } from './messages.js';

const STYLE = `
  :host { font-family: system-ui, sans-serif; }
  .panel { position: fixed; bottom: 72px; left: 50%; transform: translateX(-50%); width: min(26rem, calc(100vw - 2rem));
    background: #13151a; color: #e8e9ec; border: 1px solid #343841; border-radius: 8px; padding: 1rem; font-size: 14px; line-height: 1.4; }
  h2 { margin: 0 0 .5rem; font-size: 15px; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .25rem .75rem; margin: 0 0 .75rem; }
  dt { color: #a4aab4; }
  dd { margin: 0; overflow-wrap: anywhere; }
  a.open { display: inline-block; background: #8fb0ff; color: #0d1020; font-weight: 600; padding: .4rem .8rem; border-radius: 6px; text-decoration: none; }
  a.open:focus-visible { outline: 3px solid #ffc640; outline-offset: 2px; }
`;

/** The panel's content as plain DOM (the app runs in the owner's page, outside the admin's bundle). */
function element(tag: string, attributes: Record<string, string>, ...children: (Node | string)[]) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** "Edit this page": which Quire item and locale this page is, its state, and a link into the admin's editor. */
export default defineToolbarApp({
  init(canvas, app, server) {
    const panel = element('section', { class: 'panel', 'aria-label': 'Quire', 'data-quire-toolbar': '' });
    const style = document.createElement('style');
    style.textContent = STYLE;
    canvas.append(style, panel);
    panel.append('Asking Quire about this page…');

    let settings: ToolbarSettings | undefined;
    async function show() {
      if (!settings) return;
      const client = createQuireClient({ baseUrl: location.origin, prefix: settings.prefix });
      try {
        const found = await findPage(client, location.href, settings.preview);
        if (!found) {
          panel.replaceChildren(
            element('h2', {}, 'Not a Quire page'),
            element('p', {}, 'No Quire page of any site and locale has this address.'),
          );
          return;
        }
        const { item, site, locale } = found;
        const record = item.locales[locale]!;
        const title = typeof record.meta.title === 'string' && record.meta.title ? record.meta.title : item.id;
        const editor = `${settings.adminPath}/content/${encodeURIComponent(item.id)}/${encodeURIComponent(locale)}`;
        panel.replaceChildren(
          element('h2', {}, title),
          element(
            'dl',
            {},
            element('dt', {}, 'Item'),
            element('dd', { 'data-item': item.id }, `${item.id} (${item.collection} on ${site})`),
            element('dt', {}, 'Locale'),
            element('dd', { 'data-locale': locale }, locale),
            element('dt', {}, 'State'),
            element('dd', {}, stateWords(record)),
          ),
          element('a', { class: 'open', href: editor, target: '_top' }, 'Open in the editor'),
        );
      } catch (error) {
        panel.replaceChildren(
          element('h2', {}, 'Quire did not answer'),
          element('p', {}, error instanceof Error ? error.message : String(error)),
        );
      }
    }

    server.on<ToolbarSettings>(SETTINGS_EVENT, (given) => {
      settings = given;
      void show();
    });
    // Asked again each time it is opened: the page may have been edited meanwhile.
    app.onToggled(({ state }) => {
      if (state) void show();
    });
  },
});
