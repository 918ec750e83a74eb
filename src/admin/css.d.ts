// Stylesheets are bundled by esbuild (scripts/build-admin.mjs), not read by TypeScript.
declare module '*.css';
