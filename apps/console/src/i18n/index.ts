import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { loadWithLaterScreens } from '../lib/lazy-with-reload';
import type { Catalogue, CataloguePart } from './catalogue-parts';
import firstScreenEnglish from 'virtual:rollcall-catalogue/en/first-screen';

export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

const STORAGE_KEY = 'rollcall.language';

function isLanguage(value: string | null | undefined): value is Language {
  return !!value && (LANGUAGES as readonly string[]).includes(value);
}

/** The admin's own choice first, then the browser's languages, then English. */
function detectLanguage(): Language {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // storage can be unavailable (private mode); detection goes on
  }
  const candidates = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const candidate of candidates) {
    const base = candidate?.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

/**
 * Each catalogue comes in two parts (catalogue-parts.ts): the first screens' texts and the rest.
 * English's first part ships with the console (English is also every missing key's fallback);
 * everything else loads when needed: a language's first part when it is chosen, the rest of the
 * texts with the code of the first screen that needs them (loadRestOfCatalogue).
 */
const CATALOGUES: Record<Language, Record<CataloguePart, () => Promise<Catalogue>>> = {
  en: {
    'first-screen': async () => firstScreenEnglish,
    rest: async () => (await import('virtual:rollcall-catalogue/en/rest')).default,
  },
  de: {
    'first-screen': async () => (await import('virtual:rollcall-catalogue/de/first-screen')).default,
    rest: async () => (await import('virtual:rollcall-catalogue/de/rest')).default,
  },
};

/** the parts every language shown needs: the rest joins once a screen beyond the first has asked for it */
const neededParts = new Set<CataloguePart>(['first-screen']);
/** the language shown, or the one being switched to: the rest of the texts loads in that language */
let targetLanguage: Language = 'en';
const loadingParts = new Map<string, Promise<void>>();

function loadPart(language: Language, part: CataloguePart): Promise<void> {
  const key = `${language}/${part}`;
  let loading = loadingParts.get(key);
  if (!loading) {
    loading = CATALOGUES[language][part]().then(
      // deep: a part adds its texts beside the other part's under the same prefix (accounts.*)
      (texts) => void i18n.addResourceBundle(language, 'translation', texts, true, true),
      (error: unknown) => {
        loadingParts.delete(key); // tried again by the next caller
        throw error;
      },
    );
    loadingParts.set(key, loading);
  }
  return loading;
}

async function loadCatalogue(language: Language): Promise<void> {
  await Promise.all([...neededParts].map((part) => loadPart(language, part)));
}

/**
 * The texts beyond the first screens', in the language shown (or being switched to); the code of
 * every screen and dialog but the first ones waits for them (lib/lazy-with-reload.ts).
 */
export function loadRestOfCatalogue(): Promise<void> {
  neededParts.add('rest');
  return loadPart(targetLanguage, 'rest');
}

loadWithLaterScreens(loadRestOfCatalogue);

export async function changeLanguage(language: Language): Promise<void> {
  try {
    window.localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // not remembered, still switched
  }
  await switchTo(language);
}

async function switchTo(language: Language): Promise<void> {
  const before = targetLanguage;
  targetLanguage = language;
  try {
    await loadCatalogue(language);
    await i18n.changeLanguage(language);
  } catch (error) {
    targetLanguage = before; // still shown in the language before
    throw error;
  }
}

function applyDocumentLanguage(language: string): void {
  document.documentElement.lang = language;
}

i18n.on('languageChanged', applyDocumentLanguage);

void i18n.use(initReactI18next).init({
  resources: { en: { translation: firstScreenEnglish } },
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: LANGUAGES,
  // Single braces so the catalogue reads exactly like the spec: 'Showing {from}-{to} of {total} records'.
  interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
});

/** resolves once the detected language's catalogue is loaded: the console renders after it, in that language */
export const languageReady: Promise<void> = (async () => {
  try {
    await switchTo(detectLanguage());
  } catch {
    // a catalogue that cannot load (offline, new deployment): the console stays in English
  }
  applyDocumentLanguage(i18n.resolvedLanguage ?? i18n.language);
})();

export default i18n;
