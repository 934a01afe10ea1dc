import type { ReactNode } from 'react';
import 'dayjs/locale/de';
import 'dayjs/locale/en-gb';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { deDE, enUS } from '@mui/x-date-pickers/locales';
import { useTranslation } from 'react-i18next';

/**
 * The one date and time format of the console, in both languages: DD.MM.YYYY and a 24-hour clock
 * (the spec's 'DD.MM.YYYY @ HH:mm' of every table, lib/format-date.ts). The pickers read and type it
 * the same way, never the browser's 12-hour mm/dd/yyyy.
 */
export const DATE_FORMAT = 'DD.MM.YYYY';
export const TIME_FORMAT = 'HH:mm';
export const TIME_WITH_SECONDS_FORMAT = 'HH:mm:ss';
export const DATE_TIME_FORMAT = `${DATE_FORMAT} ${TIME_FORMAT}`;

const pickerTexts = {
  en: enUS.components.MuiLocalizationProvider.defaultProps.localeText,
  de: deDE.components.MuiLocalizationProvider.defaultProps.localeText,
};
// both start the week on Monday (the spec's first day of the week); dayjs' plain 'en' would start on Sunday
const adapterLocales = { en: 'en-gb', de: 'de' } as const;

export type PickerLanguage = keyof typeof adapterLocales;

export function usePickerLanguage(): PickerLanguage {
  const { i18n } = useTranslation();
  return i18n.resolvedLanguage === 'de' ? 'de' : 'en';
}

/**
 * The pickers' localization (texts, month and day names, Monday first) in the console's language.
 * Each widget brings its own, so the picker code stays in the lazily loaded screens that use it.
 */
export function PickerLocalization({ children }: { children: ReactNode }) {
  const language = usePickerLanguage();
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={adapterLocales[language]} localeText={pickerTexts[language]}>
      {children}
    </LocalizationProvider>
  );
}
