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
import { FormDialogLayout } from '../../components/FormDialogLayout';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { formatDateTime } from '../../lib/format-date';
import { useFieldErrors } from '../../components/use-field-errors';
import { trpc } from '../../trpc';
import { fromLocalInput, toLocalInput } from '../../lib/slot-times';

const FIELD_NAMES = ['arrived_at', 'departed_at', 'reason'] as const;

/** 'Edit' of a slot: new times and a required reason, recorded as a correction (the scans stay). */
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
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const [arrived, setArrived] = useState(toLocalInput(slot.arrived_at));
  const [departed, setDeparted] = useState(toLocalInput(slot.departed_at));
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
      { id: slot.id, arrived_at: fromLocalInput(arrived, slot.arrived_at) ?? '', departed_at: fromLocalInput(departed, slot.departed_at), reason },
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
      <TextField
        label={t('arrivalsDepartures.dialog.arrivedAt')}
        name="arrived_at"
        type="datetime-local"
        required
        value={arrived}
        onChange={(event) => change('arrived_at', setArrived)(event.target.value)}
        error={!!errorsOf('arrived_at')}
        helperText={errorsOf('arrived_at')?.join(' ')}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }}
      />
      <TextField
        label={t('arrivalsDepartures.dialog.departedAt')}
        name="departed_at"
        type="datetime-local"
        required={slot.departed_at !== null}
        value={departed}
        onChange={(event) => change('departed_at', setDeparted)(event.target.value)}
        error={!!errorsOf('departed_at')}
        helperText={errorsOf('departed_at')?.join(' ') ?? (slot.departed_at ? undefined : t('arrivalsDepartures.dialog.openHint'))}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }}
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
                    from: `${formatDateTime(correction.previous.arrived_at)} – ${correction.previous.departed_at ? formatDateTime(correction.previous.departed_at) : '…'}`,
                    to: `${formatDateTime(correction.arrived_at)} – ${correction.departed_at ? formatDateTime(correction.departed_at) : '…'}`,
                  })}
                  secondary={t('arrivalsDepartures.dialog.historyBy', { by: correction.corrected_by_name ?? correction.corrected_by, at: formatDateTime(correction.corrected_at), reason: correction.reason })}
                />
              </ListItem>
            ))}
          </List>
        </>
      )}
    </FormDialogLayout>
  );
}
