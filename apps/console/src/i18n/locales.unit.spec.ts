import { ERROR_CODES } from '@rollcall/contracts';
import { describe, expect, it } from 'vitest';
import de from './locales/de.json';
import en from './locales/en.json';

type Catalogue = { [key: string]: string | Catalogue };
const catalogues: Record<'en' | 'de', Catalogue> = { en, de };

/** every text of a catalogue by its dotted key, as i18next looks it up */
function leaves(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') found.set(path, value);
    else for (const [inner, text] of leaves(value, path)) found.set(inner, text);
  }
  return found;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('the console catalogues', () => {
  const texts = { en: leaves(catalogues.en), de: leaves(catalogues.de) };

  // describeError looks a code up as `errors.<code>`; a missing text shows the server's English message
  it.each(['en', 'de'] as const)('translate every error code of the API in %s', (language) => {
    const missing = ERROR_CODES.filter((code) => !texts[language].get(`errors.${code}`)?.trim());
    expect(missing).toEqual([]);
  });

  it('have the same keys in English and German', () => {
    const onlyEnglish = [...texts.en.keys()].filter((key) => !texts.de.has(key));
    const onlyGerman = [...texts.de.keys()].filter((key) => !texts.en.has(key));
    expect({ onlyEnglish, onlyGerman }).toEqual({ onlyEnglish: [], onlyGerman: [] });
  });

  it('use the same placeholders in both languages', () => {
    const differing = [...texts.en].filter(([key, text]) => texts.de.has(key) && placeholders(text).join() !== placeholders(texts.de.get(key) ?? '').join()).map(([key]) => key);
    expect(differing).toEqual([]);
  });
});
