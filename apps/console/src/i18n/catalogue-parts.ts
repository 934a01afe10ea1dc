/**
 * The catalogues (locales/en.json, locales/de.json) stay one file per language; the build serves
 * each in two parts, selected by key prefix from the same file (vite.config.ts, `catalogueParts`):
 * the first screens' texts (sign-in, the admin shell, the accounts list, and every error text)
 * ship with the console's entry; the rest loads with the code of any other screen or dialog
 * (lib/lazy-with-reload.ts), so the first screen does not download every screen's texts.
 * catalogue-parts.unit.spec.ts checks that each text the first screens' code names is here.
 */
export const FIRST_SCREEN_TEXTS = [
  'app',
  'common',
  'language',
  'layout',
  'nav',
  'userMenu',
  'errorPage',
  // any answer of the API can end in an error text, on any screen
  'errors',
  'signIn',
  'secondFactors.signIn',
  'secondFactors.passwordless',
  'table',
  'entityId',
  'accountStatus',
  'accounts.title',
  'accounts.tableLabel',
  'accounts.createButton',
  'accounts.search',
  'accounts.statusFilter',
  'accounts.empty',
  'accounts.never',
  'accounts.columns',
  'accounts.import.button',
] as const;

export const CATALOGUE_PARTS = ['first-screen', 'rest'] as const;
export type CataloguePart = (typeof CATALOGUE_PARTS)[number];

export type Catalogue = { [key: string]: string | Catalogue };

/** whether the text at a dotted key belongs to the first screens' part (plural forms `key_one` go with `key`) */
export function isFirstScreenText(key: string): boolean {
  return FIRST_SCREEN_TEXTS.some((prefix) => key === prefix || key.startsWith(`${prefix}.`) || key.startsWith(`${prefix}_`));
}

/** the texts of one part, nested as in the catalogue; every text is in exactly one part */
export function cataloguePart(catalogue: Catalogue, part: CataloguePart, prefix = ''): Catalogue {
  const selected: Catalogue = {};
  for (const [name, value] of Object.entries(catalogue)) {
    const key = prefix ? `${prefix}.${name}` : name;
    if (typeof value === 'string') {
      if (isFirstScreenText(key) === (part === 'first-screen')) selected[name] = value;
    } else {
      const inner = cataloguePart(value, part, key);
      if (Object.keys(inner).length) selected[name] = inner;
    }
  }
  return selected;
}

/**
 * How a first screen's code is loaded (lib/lazy-with-reload.ts): `lazyWithReload(() =>
 * import('./X'), { firstScreen: 'sign-in' })`, the value naming the part of the first screens it
 * belongs to. The build finds the first screens by it (vite.config.ts) and so does the test of
 * their texts.
 */
export const FIRST_SCREEN_IMPORT = /lazyWithReload\(\s*\(\)\s*=>\s*import\('(\.{1,2}\/[^']+)'\)\s*,\s*\{\s*firstScreen:\s*'([\w-]+)'\s*\}\s*\)/g;
