import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/de';
import 'dayjs/locale/en-gb';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { deDE, enUS } from '@mui/x-date-pickers/locales';
import { useTranslation } from 'react-i18next';

export type AttendancePeriod = 'daily' | 'weekly' | 'monthly';

const pickerTexts = {
  en: enUS.components.MuiLocalizationProvider.defaultProps.localeText,
  de: deDE.components.MuiLocalizationProvider.defaultProps.localeText,
};
// both locales start the week on Monday (the spec's first day of the week); plain 'en' would start on Sunday
const adapterLocales = { en: 'en-gb', de: 'de' } as const;

export interface AttendancePeriodPickerProps {
  period: AttendancePeriod;
  label: string;
  /** YYYY-MM-DD for a day or a week, YYYY-MM for a month, '' for none (today, this month) */
  value: string;
  onChange: (value: string) => void;
  helperText?: string;
  name?: string;
}

/**
 * The date picker of the Attendance tab and the Statistics screen: a month picker for a month, the
 * day calendar with week numbers for a week, a plain day otherwise. Weeks start on Monday. Only a
 * complete, valid date is reported; typing part of one changes nothing yet.
 */
export function AttendancePeriodPicker({ period, label, value, onChange, helperText, name }: AttendancePeriodPickerProps) {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage === 'de' ? 'de' : 'en';
  const monthly = period === 'monthly';
  const picked: Dayjs | null = value ? dayjs(monthly ? `${value.slice(0, 7)}-01` : value) : null;
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={adapterLocales[language]} localeText={pickerTexts[language]}>
      <DatePicker
        label={label}
        name={name}
        value={picked && picked.isValid() ? picked : null}
        views={monthly ? ['year', 'month'] : ['year', 'month', 'day']}
        openTo={monthly ? 'month' : 'day'}
        format={monthly ? 'MM.YYYY' : 'DD.MM.YYYY'}
        displayWeekNumber={period === 'weekly'}
        onChange={(next) => {
          if (next === null) onChange('');
          else if (next.isValid()) onChange(next.format(monthly ? 'YYYY-MM' : 'YYYY-MM-DD'));
        }}
        slotProps={{ field: { clearable: true }, textField: { size: 'small', fullWidth: false, helperText: helperText ?? ' ', sx: { width: 240 } } }}
      />
    </LocalizationProvider>
  );
}
