import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Account status labels come from the server in English; other languages translate them by id and
 * fall back to the server's label for a status the console does not know.
 */
export function useStatusLabel() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  return useCallback(
    (id: number, serverLabel: string) => (language === 'en' ? serverLabel : t(`accountStatus.${id}`, { defaultValue: serverLabel })),
    [language, t],
  );
}
