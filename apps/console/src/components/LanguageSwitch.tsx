import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useTranslation } from 'react-i18next';
import { changeLanguage, LANGUAGES, type Language } from '../i18n';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = (i18n.resolvedLanguage ?? 'en') as Language;
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={current}
      aria-label={t('language.label')}
      onChange={(_event, value: Language | null) => void (value && changeLanguage(value))}
    >
      {LANGUAGES.map((language) => (
        <ToggleButton
          key={language}
          value={language}
          lang={language}
          title={t(`language.${language}Name`)}
          sx={{ px: 1.25, py: 0.25, color: 'text.primary', fontWeight: 600 }}
        >
          {t(`language.${language}`)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
