import { useId, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import { useTranslation } from 'react-i18next';
import { DescriptionField } from '../../../components/DescriptionField';
import { ORGANIZATION_DESCRIPTION_MAX } from '@rollcall/contracts';
import { splitFieldErrors } from '../../../api/api-error';
import { CountedTextField } from '../../../components/CountedTextField';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { trpc } from '../../../trpc';
import type { OrganizationDetails } from '../types';
import { TabHeading } from './TabHeading';
import { TimeZonePanel } from './TimeZonePanel';

const FIELD_NAMES = ['title', 'description'] as const;
type FieldName = (typeof FIELD_NAMES)[number];

/** Details: Title (255, unique), Description, Save ('Details updated'); below, the attendance time zone (ours). */
export function DetailsTab({ organization }: { organization: OrganizationDetails }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const formId = useId();
  const headingId = useId();
  const [title, setTitle] = useState(organization.title);
  const [description, setDescription] = useState(organization.description ?? '');
  const [errors, setErrors] = useState<Partial<Record<FieldName, string[]>>>({});
  const update = trpc.organizations.updateDetails.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      { id: organization.id, title, description },
      {
        onSuccess: () => {
          setErrors({});
          notify(t('organizations.details.updated'), 'success');
          void utils.organizations.invalidate();
        },
        onError: (error) => {
          const { fields, notice } = splitFieldErrors(error, FIELD_NAMES, t);
          setErrors(fields);
          if (notice) notify(notice, 'error');
        },
      },
    );
  };

  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 720 }}>
        <Box component="form" id={formId} noValidate onSubmit={submit} aria-labelledby={headingId} sx={{ display: 'grid', gap: 2.5 }}>
          <Box id={headingId}>
            <TabHeading title={t('organizations.tabs.details')} />
          </Box>
          <CountedTextField
            label={t('organizations.fields.title')}
            name="title"
            required
            value={title}
            onValueChange={(value) => {
              setTitle(value);
              setErrors((current) => ({ ...current, title: undefined }));
            }}
            hint={t('organizations.details.titleHint')}
            errors={errors.title}
          />
          <DescriptionField
            label={t('organizations.fields.description')} value={description} errors={errors.description} maxLength={ORGANIZATION_DESCRIPTION_MAX} minRows={4}
            onValueChange={(value) => {
              setDescription(value);
              setErrors((current) => ({ ...current, description: undefined }));
            }}
          />
          <Box>
            <Button type="submit" variant="contained" loading={update.isPending}>
              {t('organizations.details.save')}
            </Button>
          </Box>
        </Box>
      </Paper>
      <TimeZonePanel organizationId={organization.id} />
    </Box>
  );
}
