import type { FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { APPLICATION_DESCRIPTION_MAX, type TApplication } from '@rollcall/contracts';
import { CountedTextField } from '../../../components/CountedTextField';
import { DescriptionField } from '../../../components/DescriptionField';
import { useReadOnly } from '../../../components/read-only';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useFormFields } from '../../../components/use-form-fields';
import { trpc } from '../../../trpc';
import { SectionCard } from './SectionCard';

const FIELD_NAMES = ['title', 'url', 'description'] as const;

/** Basic info: Title (255), URL (255), Description, Save ('Basic app info updated'). */
export function BasicInfoCard({ application }: { application: TApplication }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const readOnly = useReadOnly();
  const utils = trpc.useUtils();
  const { values, textField, showServerErrors } = useFormFields({ title: application.title, url: application.url ?? '', description: application.description }, FIELD_NAMES);
  const update = trpc.applications.updateBasic.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      { id: application.id, ...values, url: values.url || null },
      {
        onSuccess: () => {
          notify(t('applications.basic.updated'), 'success');
          void utils.applications.invalidate();
        },
        onError: showServerErrors,
      },
    );
  };

  return (
    <SectionCard title={t('applications.basic.title')}>
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2.5, maxWidth: 720 }}>
        <CountedTextField label={t('applications.fields.title')} name="title" required disabled={readOnly} {...textField('title')} />
        <CountedTextField label={t('applications.fields.url')} name="url" type="url" disabled={readOnly} hint={t('applications.fields.urlHint')} {...textField('url')} />
        <DescriptionField label={t('applications.fields.description')} maxLength={APPLICATION_DESCRIPTION_MAX} {...textField('description')} />
        {readOnly ? null : (
          <Box>
            <Button type="submit" variant="contained" loading={update.isPending}>
              {t('applications.basic.save')}
            </Button>
          </Box>
        )}
      </Box>
    </SectionCard>
  );
}
