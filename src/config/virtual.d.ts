declare module 'virtual:astro-quire/config' {
  const options: import('./resolve.js').ResolvedOptions;
  export default options;
}
