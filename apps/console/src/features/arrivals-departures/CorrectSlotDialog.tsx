import { useId, useState, type FormEvent } from 'react';
import Dialog from '@mui/material/Dialog';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { TArrivalDeparture } from '@rollcall/contracts';
import { DateTimeField } from '../../components/DateTimeField';
import { FormDialogLayout } from '../../components/FormDialogLayout';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { zonedDateTime } from '../../lib/attendance-format';
import { browserTimeZone, zoneLabel, zoneWithName } from '../../lib/zone-label';
import { useFieldErrors } from '../../components/use-field-errors';
import { trpc } from '../../trpc';
import { fromZonedInput, toZonedInput } from '../../lib/slot-times';

const FIELD_NAMES = ['arrived_at', 'departed_at', 'reason'] as const;

/**
 * 'Edit' of a slot: new times and a required reason, recorded as a correction (the scans stay). The
 * times are shown and typed in the zone the server draws the slot's day in (the account's, else its
 * organization's: `time_zone` of the row), labelled with it, whatever the browser's zone; they are
 * sent as instants, as the call takes them.
 */
export function CorrectSlotDialog({ slot, onClose }: { slot: TArrivalDeparture | null; onClose: () => void }) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog open={slot !== null} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby={titleId}>
      {slot && <CorrectSlotForm key={slot.id} titleId={titleId} slot={slot} onClose={onClose} />}
    </Dialog>
  );
}

function CorrectSlotForm({ titleId, slot, onClose }: { titleId: string; slot: TArrivalDeparture; onClose: () => void }) {
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const { t } = useTranslation();
  // a row pushed live before it was fetched again names no zone yet: the browser's, as the table shows it
  const timeZone = slot.time_zone ?? browserTimeZone();
  const zone = zoneLabel(timeZone, slot.arrived_at);
  const at = (instant: string) => {
    const { date, time } = zonedDateTime(instant, timeZone);
    return `${date} ${time}`;
  };
  const [arrived, setArrived] = useState(toZonedInput(slot.arrived_at, timeZone));
  const [departed, setDeparted] = useState(toZonedInput(slot.departed_at, timeZone));
  const [reason, setReason] = useState('');
  const { errors, clearErrors, showServerErrors } = useFieldErrors(FIELD_NAMES);
  const [required, setRequired] = useState<Partial<Record<(typeof FIELD_NAMES)[number], string[]>>>({});
  const correct = trpc.arrivalsDepartures.correct.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (correct.isPending) return;
    // start and end times are required (spec: 'This field is required'); an open slot may stay open
    const missing: typeof required = {};
    if (!arrived) missing.arrived_at = [t('arrivalsDepartures.dialog.required')];
    if (!departed && slot.departed_at) missing.departed_at = [t('arrivalsDepartures.dialog.required')];
    if (!reason.trim()) missing.reason = [t('arrivalsDepartures.dialog.required')];
    setRequired(missing);
    if (Object.keys(missing).length) return;
    correct.mutate(
      { id: slot.id, arrived_at: fromZonedInput(arrived, timeZone, slot.arrived_at) ?? '', departed_at: fromZonedInput(departed, timeZone, slot.departed_at), reason },
      {
        onSuccess: (result) => {
          notify(result.corrected ? t('arrivalsDepartures.dialog.saved') : t('arrivalsDepartures.dialog.unchanged'), 'success');
          void utils.arrivalsDepartures.list.invalidate();
          void utils.arrivalsDepartures.presence.invalidate();
          onClose();
        },
        onError: showServerErrors,
      },
    );
  };
  const errorsOf = (field: (typeof FIELD_NAMES)[number]) => required[field] ?? errors[field];
  const change = (field: (typeof FIELD_NAMES)[number], set: (value: string) => void) => (value: string) => {
    set(value);
    clearErrors(field);
    setRequired((current) => ({ ...current, [field]: undefined }));
  };

  return (
    <FormDialogLayout
      titleId={titleId}
      title={t('arrivalsDepartures.dialog.title', { name: slot.account_name || slot.username_readable })}
      onSubmit={submit}
      onCancel={onClose}
      submitLabel={t('arrivalsDepartures.dialog.save')}
      busy={correct.isPending}
    >
      <Typography variant="body2" color="text.secondary" title={timeZone}>
        {t('arrivalsDepartures.dialog.zoneIntro', { zone: zoneWithName(timeZone, [zone]) })}
      </Typography>
      <DateTimeField
        label={`${t('arrivalsDepartures.dialog.arrivedAt')} (${zone})`}
        name="arrived_at"
        required
        withSeconds
        fullWidth
        value={arrived}
        onChange={change('arrived_at', setArrived)}
        errors={errorsOf('arrived_at')}
      />
      <DateTimeField
        label={`${t('arrivalsDepartures.dialog.departedAt')} (${zone})`}
        name="departed_at"
        required={slot.departed_at !== null}
        withSeconds
        fullWidth
        value={departed}
        onChange={change('departed_at', setDeparted)}
        errors={errorsOf('departed_at')}
        helperText={slot.departed_at ? undefined : t('arrivalsDepartures.dialog.openHint')}
      />
      <TextField
        label={t('arrivalsDepartures.dialog.reason')}
        name="reason"
        required
        multiline
        minRows={2}
        value={reason}
        onChange={(event) => change('reason', setReason)(event.target.value)}
        error={!!errorsOf('reason')}
        helperText={errorsOf('reason')?.join(' ') ?? t('arrivalsDepartures.dialog.reasonHint')}
        slotProps={{ htmlInput: { maxLength: 500 } }}
      />
      {slot.corrections.length > 0 && (
        <>
          <Typography variant="subtitle2">{t('arrivalsDepartures.dialog.history')}</Typography>
          <List dense aria-label={t('arrivalsDepartures.dialog.history')}>
            {slot.corrections.map((correction) => (
              <ListItem key={correction.corrected_at} disableGutters>
                <ListItemText
                  primary={t('arrivalsDepartures.dialog.historyLine', {
                    from: `${at(correction.previous.arrived_at)} – ${correction.previous.departed_at ? at(correction.previous.departed_at) : '…'}`,
                    to: `${at(correction.arrived_at)} – ${correction.departed_at ? at(correction.departed_at) : '…'}`,
                  })}
                  secondary={t('arrivalsDepartures.dialog.historyBy', { by: correction.corrected_by_name ?? correction.corrected_by, at: `${at(correction.corrected_at)} ${zoneLabel(timeZone, correction.corrected_at)}`, reason: correction.reason })}
                />
              </ListItem>
            ))}
          </List>
        </>
      )}
    </FormDialogLayout>
  );
}
