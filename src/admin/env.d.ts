// esbuild bundles the stylesheet that main.tsx imports; TypeScript only needs to know it is a module.
declare module '*.css';
