import dayjs, { type Dayjs } from 'dayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { useTranslation } from 'react-i18next';
import { DATE_FORMAT, PickerLocalization } from './date-pickers';

export type AttendancePeriod = 'daily' | 'weekly' | 'monthly';

export interface AttendancePeriodPickerProps {
  period: AttendancePeriod;
  label: string;
  /** YYYY-MM-DD for a day or a week, YYYY-MM for a month, '' for none (today, this month) */
  value: string;
  onChange: (value: string) => void;
  /**
   * The period shown while `value` is '' (YYYY-MM-DD, or YYYY-MM for a month): the day the server
   * answered for, which is drawn in the person's zone. Without it, the browser's today.
   */
  current?: string;
  helperText?: string;
  name?: string;
}

/** the Monday of a day's week (weeks start on Monday) */
export const mondayOf = (day: Dayjs): Dayjs => day.subtract((day.day() + 6) % 7, 'day');

/** ISO 8601 week number: the week holding the year's first Thursday is week 1 */
export function isoWeekOf(day: Dayjs): number {
  const thursday = mondayOf(day).add(3, 'day');
  const firstThursday = mondayOf(thursday.startOf('year').add(3, 'day')).add(3, 'day');
  return Math.round(thursday.diff(firstThursday, 'day') / 7) + 1;
}

/** the day a value stands for: a month's first day, a week's Monday */
function dayOf(value: string, period: AttendancePeriod): Dayjs | null {
  if (!value) return null;
  const day = dayjs(period === 'monthly' ? `${value.slice(0, 7)}-01` : value.slice(0, 10));
  if (!day.isValid()) return null;
  return period === 'weekly' ? mondayOf(day) : day;
}

/**
 * The date picker of the Attendance tab and the Statistics screen: a month picker for a month
 * ('November 2026' in the field), the day calendar with week numbers for a week ('Week 47 from
 * 17.11.2026' in the field), a plain day otherwise. No value shows the current period, never an
 * empty field. Weeks start on Monday. Only a complete, valid date is reported; typing part of one
 * changes nothing yet.
 */
export function AttendancePeriodPicker({ period, label, value, onChange, current, helperText, name }: AttendancePeriodPickerProps) {
  const { t } = useTranslation();
  const monthly = period === 'monthly';
  const shown = dayOf(value, period) ?? dayOf(current ?? '', period) ?? dayOf(dayjs().format('YYYY-MM-DD'), period);
  // the week's number and its Monday as the field's text: the number goes in as escaped literal text
  const format = monthly ? 'MMMM YYYY' : period === 'weekly' && shown ? `[${t('periodPicker.weekFrom', { week: isoWeekOf(shown) }).replace(/[[\]]/g, '')}] ${DATE_FORMAT}` : DATE_FORMAT;
  return (
    <PickerLocalization>
      <DatePicker
        label={label}
        name={name}
        value={shown}
        views={monthly ? ['year', 'month'] : ['year', 'month', 'day']}
        openTo={monthly ? 'month' : 'day'}
        format={format}
        displayWeekNumber={period === 'weekly'}
        onChange={(next) => {
          if (next && next.isValid()) onChange((period === 'weekly' ? mondayOf(next) : next).format(monthly ? 'YYYY-MM' : 'YYYY-MM-DD'));
        }}
        slotProps={{ textField: { size: 'small', fullWidth: false, helperText: helperText ?? ' ', sx: { width: period === 'weekly' ? 280 : 240 } } }}
      />
    </PickerLocalization>
  );
}
