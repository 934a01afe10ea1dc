import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json';

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
 * English ships with the console (it is also every missing key's fallback); German is loaded when it
 * is first chosen, so an English console does not download its catalogue.
 */
const CATALOGUES: Record<Language, () => Promise<Record<string, unknown>>> = {
  en: async () => en,
  de: async () => (await import('./locales/de.json')).default,
};

async function loadCatalogue(language: Language): Promise<void> {
  if (!i18n.hasResourceBundle(language, 'translation')) i18n.addResourceBundle(language, 'translation', await CATALOGUES[language]());
}

export async function changeLanguage(language: Language): Promise<void> {
  try {
    window.localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // not remembered, still switched
  }
  await loadCatalogue(language);
  await i18n.changeLanguage(language);
}

function applyDocumentLanguage(language: string): void {
  document.documentElement.lang = language;
}

i18n.on('languageChanged', applyDocumentLanguage);

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: LANGUAGES,
  // Single braces so the catalogue reads exactly like the spec: 'Showing {from}-{to} of {total} records'.
  interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
});

/** resolves once the detected language's catalogue is loaded: the console renders after it, in that language */
export const languageReady: Promise<void> = (async () => {
  const detected = detectLanguage();
  try {
    await loadCatalogue(detected);
    await i18n.changeLanguage(detected);
  } catch {
    // a catalogue that cannot load (offline, new deployment): the console stays in English
  }
  applyDocumentLanguage(i18n.resolvedLanguage ?? i18n.language);
})();

export default i18n;
