import type { PreviewOption } from '../sites/preview-url.js';

/** What the package build writes to `dist/admin/manifest.json`: the hashed entry script and its stylesheets. */
export interface AdminManifest {
  entry: string;
  css: string[];
}

export interface ShellSettings {
  /** Where the admin is mounted, e.g. `/__cms`. */
  basePath: string;
  apiPrefix: string;
  mode: 'dev' | 'production';
  /** The preview URL template (the `admin.preview` option), null for the built-in rule. */
  preview: PreviewOption;
  /** Whether the content root is in a git repository. */
  git: boolean;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The one HTML page of the admin, for its path and every deep link below it; the app routes on the client. */
export function renderShell(settings: ShellSettings, manifest: AdminManifest): string {
  const asset = (file: string) => escapeAttribute(`${settings.basePath}/assets/${file}`);
  // `<` escaped so that no value can close the script element.
  const config = JSON.stringify(settings).replace(/</g, '\\u003c');
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<title>Quire</title>${manifest.css.map((file) => `<link rel="stylesheet" href="${asset(file)}">`).join('')}\n` +
    `<script type="application/json" id="quire-admin-config">${config}</script>\n` +
    `</head><body><div id="app"></div><script type="module" src="${asset(manifest.entry)}"></script></body></html>\n`
  );
}

/** The page shown instead of the admin to a caller without a verified identity. */
export function renderRefusal(reason: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign in needed · Quire</title></head>\n' +
    '<body><main><h1>Sign in needed</h1>\n' +
    `<p>The Quire admin needs a verified identity from the site's access gateway: ${escapeAttribute(reason)}.</p>\n` +
    '<p>Open it through the gateway (for example after signing in with your organisation), or ask the site owner for access.</p>\n' +
    '</main></body></html>\n'
  );
}
