import { useId, useState, type FormEvent } from 'react';
import Dialog from '@mui/material/Dialog';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { fromZonedInput } from '../../../../lib/slot-times';
import { zoneLabel, zoneWithName } from '../../../../lib/zone-label';
import { DateTimeField } from '../../../../components/DateTimeField';
import { FormDialogLayout } from '../../../../components/FormDialogLayout';
import { useSnackbar } from '../../../../components/snackbar/snackbar-context';
import { useFieldErrors } from '../../../../components/use-field-errors';
import { trpc } from '../../../../trpc';

const FIELD_NAMES = ['arrived_at', 'departed_at', 'reason'] as const;
type Field = (typeof FIELD_NAMES)[number];

/**
 * 'Add record': a slot no scan made (a forgotten card, a reader that was down), with the reason,
 * recorded as such (docs/adr/0013, 'Slots added by hand'). The times are the account's local times,
 * sent without a zone: the server reads them in the account's zone, which also draws the day.
 */
export function AddAttendanceRecordDialog({ open, accountId, timeZone, onClose }: { open: boolean; accountId: string; timeZone: string; onClose: () => void }) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby={titleId}>
      {open && <AddRecordForm titleId={titleId} accountId={accountId} timeZone={timeZone} onClose={onClose} />}
    </Dialog>
  );
}

function AddRecordForm({ titleId, accountId, timeZone, onClose }: { titleId: string; accountId: string; timeZone: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const [arrived, setArrived] = useState('');
  const [departed, setDeparted] = useState('');
  const [reason, setReason] = useState('');
  const { errors, clearErrors, showServerErrors } = useFieldErrors(FIELD_NAMES);
  const [required, setRequired] = useState<Partial<Record<Field, string[]>>>({});
  const record = trpc.arrivalsDepartures.recordManual.useMutation();
  // the account's zone labelled at the time typed (its offset then), else now
  const labelAt = (value: string) => zoneLabel(timeZone, (value && fromZonedInput(value, timeZone, null)) || undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (record.isPending) return;
    const missing: typeof required = {};
    if (!arrived) missing.arrived_at = [t('attendance.add.required')];
    if (!reason.trim()) missing.reason = [t('attendance.add.required')];
    setRequired(missing);
    if (Object.keys(missing).length) return;
    record.mutate(
      { account_id: accountId, arrived_at: arrived, departed_at: departed || null, reason },
      {
        onSuccess: () => {
          notify(t('attendance.add.saved'), 'success');
          void utils.attendanceReports.ofAccount.invalidate();
          void utils.arrivalsDepartures.list.invalidate();
          void utils.arrivalsDepartures.presence.invalidate();
          onClose();
        },
        onError: showServerErrors,
      },
    );
  };
  const errorsOf = (field: Field) => required[field] ?? errors[field];
  const change = (field: Field, set: (value: string) => void) => (value: string) => {
    set(value);
    clearErrors(field);
    setRequired((current) => ({ ...current, [field]: undefined }));
  };
  const helper = (field: Field, hint?: string) => {
    const list = errorsOf(field);
    // each rule on its own line
    return list ? list.map((message) => <span key={message} style={{ display: 'block' }}>{message}</span>) : hint;
  };

  return (
    <FormDialogLayout titleId={titleId} title={t('attendance.add.title')} onSubmit={submit} onCancel={onClose} submitLabel={t('attendance.add.save')} busy={record.isPending}>
      <Typography variant="body2" color="text.secondary">
        {t('attendance.add.intro', { zone: zoneWithName(timeZone, [labelAt(arrived)]) })}
      </Typography>
      {/* the console's date and time widget (DD.MM.YYYY HH:mm); its value is a wall clock without a zone, read here as the account's */}
      <DateTimeField label={`${t('attendance.add.arrived')} (${labelAt(arrived)})`} name="arrived_at" required value={arrived} onChange={change('arrived_at', setArrived)} errors={errorsOf('arrived_at')} fullWidth />
      <DateTimeField
        label={`${t('attendance.add.departed')} (${labelAt(departed || arrived)})`}
        name="departed_at"
        value={departed}
        onChange={change('departed_at', setDeparted)}
        errors={errorsOf('departed_at')}
        helperText={t('attendance.add.openHint')}
        fullWidth
      />
      <TextField
        label={t('attendance.add.reason')}
        name="reason"
        required
        multiline
        minRows={2}
        value={reason}
        onChange={(event) => change('reason', setReason)(event.target.value)}
        error={!!errorsOf('reason')}
        helperText={helper('reason', t('attendance.add.reasonHint'))}
        slotProps={{ htmlInput: { maxLength: 500 } }}
      />
    </FormDialogLayout>
  );
}
