import { useId, useMemo, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { TCalendarEvent } from '@rollcall/contracts';
import { getApiError, describeError } from '../../../../api/api-error';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { CountedTextField } from '../../../../components/CountedTextField';
import { DateField } from '../../../../components/DateField';
import { DescriptionField } from '../../../../components/DescriptionField';
import { TimeField } from '../../../../components/TimeField';
import { useSnackbar } from '../../../../components/snackbar/snackbar-context';
import { trpc } from '../../../../trpc';
import { changeField, createInput, eventFormOf, formErrors, formFieldOf, newEventForm, updateInput, type EventForm, type EventFormField, type NewEventRange } from './event-form';

/** what opened the dialog: a clicked day or hour slot or a dragged selection (create), or a clicked event (edit) */
export type EventDialogTarget = { kind: 'create'; range: NewEventRange } | { kind: 'edit'; event: TCalendarEvent };

interface EventDialogProps {
  accountId: string;
  target: EventDialogTarget | null;
  onClose: () => void;
}

/** The calendar's event dialog (console-accounts.md 'Event dialog'): create or edit an event group. */
export function EventDialog({ accountId, target, onClose }: EventDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  // the target stays while the dialog fades out, so its texts do not change mid-fade
  const [shown, setShown] = useState(target);
  if (target && target !== shown) setShown(target);
  const key = shown ? (shown.kind === 'edit' ? shown.event.id : Object.values(shown.range).join('-')) : 'none';
  return (
    <Dialog open={target !== null} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby={titleId}>
      {shown && <EventFormContent key={key} titleId={titleId} accountId={accountId} target={shown} onClose={onClose} />}
    </Dialog>
  );
}

function EventFormContent({ titleId, accountId, target, onClose }: { titleId: string; accountId: string; target: EventDialogTarget; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const formId = useId();
  const editing = target.kind === 'edit';
  const [form, setForm] = useState<EventForm>(() => (target.kind === 'edit' ? eventFormOf(target.event) : newEventForm(target.range)));
  const [errors, setErrors] = useState<Partial<Record<EventFormField, string[]>>>({});
  // removing a whole group (many days at once) is confirmed; one day is not
  const [confirmGroupRemoval, setConfirmGroupRemoval] = useState(false);
  const statuses = trpc.attendanceStatuses.list.useQuery();
  const create = trpc.calendar.create.useMutation();
  const update = trpc.calendar.update.useMutation();
  const remove = trpc.calendar.remove.useMutation();
  // a change of the whole group keeps the days changed alone (as calendar series keep their
  // exceptions); the dialog says how many, and offers to reset them too
  const changedAlone = trpc.calendar.daysChangedAlone.useQuery({ account_id: accountId, event_group_id: target.kind === 'edit' ? target.event.event_group_id : '' }, { enabled: editing });
  // a group of one day is that day: nothing is kept apart from it, a change of the group is the day's
  const oneDayGroup = target.kind === 'edit' && target.event.start_event.slice(0, 10) === target.event.end_event.slice(0, 10);
  const changedAloneCount = oneDayGroup ? 0 : (changedAlone.data?.changed_alone.length ?? 0);
  const [resetChangedAlone, setResetChangedAlone] = useState(false);
  // a day changed alone opens as that day alone (its values are its own, not the group's); switched
  // to the whole group, the form takes the group's values, so saving does not spread the day's
  const clickedAlone = target.kind === 'edit' && !oneDayGroup && Boolean(changedAlone.data?.changed_alone.some((day) => day.event_id === target.event.id));
  const [aloneApplied, setAloneApplied] = useState(false);
  if (clickedAlone && !aloneApplied) {
    setAloneApplied(true);
    setForm((current) => changeField(current, 'single', true));
  }
  const busy = create.isPending || update.isPending || remove.isPending;

  // active statuses are offered; the event's own status stays selectable after it was made inactive
  const options = useMemo(
    () =>
      (statuses.data ?? []).filter(
        (status) => status.active === 1 || (target.kind === 'edit' && (status.id === target.event.attendance_status_id || status.id === changedAlone.data?.group.status_id)),
      ),
    [statuses.data, target, changedAlone.data],
  );

  const set = <Field extends EventFormField>(field: Field, value: EventForm[Field]) => {
    setForm((current) => {
      const next = changeField(current, field, value);
      if (field !== 'single' || !clickedAlone || target.kind !== 'edit' || !changedAlone.data) return next;
      const own = eventFormOf(target.event);
      const values = value ? { title: own.title, description: own.description, status_id: own.status_id } : changedAlone.data.group;
      return { ...next, ...values };
    });
    setErrors((current) => {
      const next = { ...current };
      delete next[field];
      if (field === 'startDate' || field === 'single') delete next.endDate;
      if (field === 'eventStartDate') delete next.eventEndDate;
      return next;
    });
  };

  const done = (message: string) => {
    notify(message, 'success');
    void utils.calendar.events.invalidate();
    onClose();
  };
  const onError = (error: unknown) => {
    const placed: Partial<Record<EventFormField, string[]>> = {};
    const unplaced: string[] = [];
    for (const [name, messages] of Object.entries(getApiError(error)?.fields ?? {})) {
      const field = formFieldOf(name, form, editing);
      if (field) (placed[field] ??= []).push(...messages);
      else unplaced.push(...messages);
    }
    setErrors(placed);
    if (unplaced.length || !Object.keys(placed).length) notify(unplaced.length ? unplaced.join(' ') : describeError(error, t), 'error');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local = formErrors(form, editing, {
      required: t('calendar.dialog.required'),
      endBeforeStart: t('calendar.dialog.endBeforeStart'),
      singleSameDay: t('calendar.dialog.singleSameDay'),
    });
    if (Object.keys(local).length) {
      setErrors(local);
      return;
    }
    if (target.kind === 'edit') update.mutate(updateInput(form, target.event, resetChangedAlone || oneDayGroup), { onSuccess: () => done(t('calendar.saved')), onError });
    else create.mutate(createInput(form, accountId), { onSuccess: () => done(t('calendar.saved')), onError });
  };

  const onRemove = () => {
    if (target.kind !== 'edit' || busy) return;
    remove.mutate(
      { account_id: accountId, event_id: target.event.id, event_group_id: target.event.event_group_id, single: form.single ? 'true' : 'false' },
      {
        onSuccess: () => done(t('calendar.removed')),
        onError: (error) => {
          setConfirmGroupRemoval(false);
          notify(describeError(error, t), 'error');
        },
      },
    );
  };

  const dateField = (field: 'startDate' | 'endDate' | 'eventStartDate' | 'eventEndDate', disabled = false) => (
    <DateField label={t(`calendar.dialog.${field}`)} name={field} value={form[field]} onChange={(value) => set(field, value)} errors={errors[field]} disabled={disabled} />
  );
  const timeField = (field: 'startTime' | 'endTime' | 'eventStartTime' | 'eventEndTime') => (
    <TimeField label={t(`calendar.dialog.${field}`)} name={field} required value={form[field]} onChange={(value) => set(field, value)} errors={errors[field]} fullWidth />
  );
  // create: the dates are the new group's range; edit: the selected day, and the group's range unless single
  const showRange = editing && !form.single;

  return (
    <>
      <DialogTitle id={titleId}>{editing ? t('calendar.dialog.editTitle') : t('calendar.dialog.createTitle')}</DialogTitle>
      <DialogContent dividers>
        <Box component="form" id={formId} noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          {/* first, so it is read before the change is saved */}
          {editing && !form.single && changedAloneCount > 0 && (
            <Alert severity="info" sx={{ gridColumn: '1 / -1' }}>
              <Typography variant="body2">{t('calendar.dialog.changedAlone', { count: changedAloneCount })}</Typography>
              <FormControlLabel
                label={t('calendar.dialog.resetChangedAlone', { count: changedAloneCount })}
                control={<Checkbox name="reset_changed_days" size="small" checked={resetChangedAlone} onChange={(event) => setResetChangedAlone(event.target.checked)} />}
              />
            </Alert>
          )}
          <CountedTextField
            label={t('calendar.dialog.title')}
            name="title"
            required
            autoFocus
            autoComplete="off"
            value={form.title}
            onValueChange={(value) => set('title', value)}
            errors={errors.title}
            sx={{ gridColumn: '1 / -1' }}
          />
          <TextField
            select
            label={t('calendar.dialog.status')}
            name="status_id"
            required
            value={options.some((status) => status.id === form.status_id) ? form.status_id : ''}
            onChange={(event) => set('status_id', event.target.value)}
            error={Boolean(errors.status_id?.length)}
            helperText={errors.status_id?.join(' ') ?? (statuses.data && !options.length ? t('calendar.dialog.noStatuses') : ' ')}
            sx={{ gridColumn: '1 / -1' }}
          >
            {options.map((status) => (
              <MenuItem key={status.id} value={status.id}>
                {status.active === 1 ? status.title : t('calendar.dialog.inactiveStatus', { title: status.title })}
              </MenuItem>
            ))}
          </TextField>
          <Box sx={{ gridColumn: '1 / -1', display: 'grid' }}>
            <DescriptionField value={form.description} onValueChange={(value) => set('description', value)} errors={errors.description} label={t('calendar.dialog.description')} maxLength={2000} minRows={2} />
          </Box>

          {editing && (
            <Typography variant="subtitle2" sx={{ gridColumn: '1 / -1' }}>
              {t('calendar.dialog.selectedDay')}
            </Typography>
          )}
          {dateField('startDate', showRange)}
          {timeField('startTime')}
          {dateField('endDate', form.single || showRange)}
          {timeField('endTime')}

          {showRange && (
            <>
              <Typography variant="subtitle2" sx={{ gridColumn: '1 / -1' }}>
                {t('calendar.dialog.eventRange')}
              </Typography>
              {dateField('eventStartDate')}
              {timeField('eventStartTime')}
              {dateField('eventEndDate')}
              {timeField('eventEndTime')}
            </>
          )}

          <Box sx={{ gridColumn: '1 / -1' }}>
            <FormControlLabel label={t('calendar.dialog.single')} control={<Switch name="single" checked={form.single} onChange={(event) => set('single', event.target.checked)} />} />
            {editing && !form.single && <FormHelperText>{t('calendar.dialog.singleHint')}</FormHelperText>}
          </Box>
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2, gap: 1 }}>
        {editing && (
          <Button color="error" onClick={() => (form.single ? onRemove() : setConfirmGroupRemoval(true))} disabled={busy} loading={remove.isPending} sx={{ mr: 'auto' }}>
            {form.single ? t('calendar.dialog.removeDay') : t('calendar.dialog.removeGroup')}
          </Button>
        )}
        <Button onClick={onClose} disabled={busy}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" form={formId} variant="contained" loading={create.isPending || update.isPending}>
          {editing ? t('calendar.dialog.save') : t('calendar.dialog.create')}
        </Button>
      </DialogActions>
      <ConfirmDialog
        open={confirmGroupRemoval}
        title={t('calendar.dialog.removeGroupTitle', { title: target.kind === 'edit' ? target.event.title : '' })}
        message={t('calendar.dialog.removeGroupMessage')}
        busy={remove.isPending}
        onConfirm={onRemove}
        onCancel={() => setConfirmGroupRemoval(false)}
      />
    </>
  );
}
