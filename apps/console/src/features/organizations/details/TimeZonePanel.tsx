import { useId, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { splitFieldErrors } from '../../../api/api-error';
import { useReadOnly } from '../../../components/read-only';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { TimeZoneField } from '../../../components/TimeZoneField';
import { trpc } from '../../../trpc';
import { TabHeading } from './TabHeading';

const FIELD_NAMES = ['time_zone'] as const;

/**
 * The organization's attendance time zone (ours, not in the spec; REST v2 `organization/{id}/time-zone`):
 * it draws the days of members who have no time zone of their own. Empty: the parent's, else UTC.
 */
export function TimeZonePanel({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const readOnly = useReadOnly();
  const utils = trpc.useUtils();
  const formId = useId();
  const headingId = useId();
  const current = trpc.organizations.timeZone.useQuery({ id: organizationId });
  const save = trpc.organizations.setTimeZone.useMutation();
  // what the administrator picked; null until then, so the field shows the stored zone
  const [picked, setPicked] = useState<string | null>(null);
  const zone = picked ?? current.data?.time_zone ?? '';
  const [errors, setErrors] = useState<string[] | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { id: organizationId, time_zone: zone || null },
      {
        onSuccess: (saved) => {
          setErrors(undefined);
          notify(t('organizations.timeZone.updated'), 'success');
          utils.organizations.timeZone.setData({ id: organizationId }, saved);
          setPicked(null);
        },
        onError: (error) => {
          const { fields, notice } = splitFieldErrors(error, FIELD_NAMES, t);
          setErrors(fields.time_zone);
          if (notice) notify(notice, 'error');
        },
      },
    );
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 720 }}>
      <Box component="form" id={formId} noValidate onSubmit={submit} aria-labelledby={headingId} sx={{ display: 'grid', gap: 2.5 }}>
        <Box id={headingId}>
          <TabHeading title={t('organizations.timeZone.heading')} />
          <Typography variant="body2" color="text.secondary">
            {t('organizations.timeZone.explanation')}
          </Typography>
        </Box>
        <TimeZoneField
          label={t('organizations.timeZone.field')}
          name="time_zone"
          value={zone}
          onValueChange={(value) => {
            setPicked(value);
            setErrors(undefined);
          }}
          errors={errors}
          hint={t('organizations.timeZone.hint')}
        />
        {readOnly ? null : (
          <Box>
            <Button type="submit" variant="contained" loading={save.isPending} disabled={current.isLoading}>
              {t('organizations.timeZone.save')}
            </Button>
          </Box>
        )}
      </Box>
    </Paper>
  );
}
