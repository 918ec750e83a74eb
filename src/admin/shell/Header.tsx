import { GitBadge } from '../git/GitBadge.js';
import { liveStatus } from '../state/live.js';
import { editorHref, href, navigate, route } from '../state/router.js';
import {
  chooseLocale,
  chooseSite,
  config,
  localeCode,
  siteLocales,
  siteName,
  siteNames,
  user,
} from '../state/session.js';

const LIVE_WORDS = {
  connecting: 'connecting…',
  live: 'live',
  reconnecting: 'reconnecting…',
} as const;

function Identity() {
  const identity = user.value;
  if (!identity) return null;
  return <span class="identity">{identity.authenticated ? identity.user.email : `open access (${config.mode})`}</span>;
}

/** In the editor the locale picker switches the open item to that locale. */
function pickLocale(code: string) {
  chooseLocale(code);
  const current = route.value;
  if (current.screen === 'editor') navigate(editorHref(current.id, code));
}

export function Header() {
  const current = route.value;
  const screen = current.screen;
  const shownLocale = current.screen === 'editor' ? current.locale : localeCode.value;
  return (
    <header class="header">
      <div class="header__brand">
        <a href={href('/content')} class="brand">
          Quire
        </a>
        <span
          class={`live live--${liveStatus.value}`}
          title="Changes made elsewhere show up here while the connection is live"
        >
          {LIVE_WORDS[liveStatus.value]}
        </span>
      </div>
      <nav class="header__nav" aria-label="Main">
        <a href={href('/content')} aria-current={screen === 'content' ? 'page' : undefined}>
          Content
        </a>
        <a href={href('/new')} aria-current={screen === 'new' ? 'page' : undefined}>
          New
        </a>
        <a href={href('/review')} aria-current={screen === 'review' ? 'page' : undefined}>
          Review
        </a>
        <a href={href('/media')} aria-current={screen === 'media' ? 'page' : undefined}>
          Media
        </a>
        <a href={href('/git')} aria-current={screen === 'git' ? 'page' : undefined}>
          Git
          <GitBadge />
        </a>
        <a href="/">View site</a>
      </nav>
      <div class="header__pickers">
        <span class="picker">
          <label for="site-picker">Site</label>
          <select
            id="site-picker"
            value={siteName.value}
            onChange={(event) => chooseSite(event.currentTarget.value)}
            disabled={siteNames.value.length === 0}
          >
            {siteNames.value.length === 0 && <option value="">no sites</option>}
            {siteNames.value.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </span>
        <span class="picker">
          <label for="locale-picker">Locale</label>
          <select id="locale-picker" value={shownLocale} onChange={(event) => pickLocale(event.currentTarget.value)}>
            {siteLocales.value.map((code, index) => (
              <option key={code} value={code}>
                {index === 0 ? `${code} (default)` : code}
              </option>
            ))}
          </select>
        </span>
        <Identity />
      </div>
    </header>
  );
}
