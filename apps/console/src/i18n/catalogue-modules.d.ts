/** one part of a language's catalogue, made at build from locales/<language>.json (vite.config.ts, catalogue-parts.ts) */
declare module 'virtual:rollcall-catalogue/*' {
  const texts: import('./catalogue-parts').Catalogue;
  export default texts;
}
