import { useId, useState, type FormEvent } from 'react';
import Dialog from '@mui/material/Dialog';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { APPLICATION_DESCRIPTION_MAX } from '@rollcall/contracts';
import { CountedTextField } from '../../components/CountedTextField';
import { DescriptionField } from '../../components/DescriptionField';
import { FormDialogLayout } from '../../components/FormDialogLayout';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { useFormFields } from '../../components/use-form-fields';
import { trpc } from '../../trpc';
import { ClientSecretDialog } from './ClientSecretDialog';
import { ScopesField } from './ScopesField';
import type { ApplicationScope, ClientSecret } from './types';

const FIELD_NAMES = ['title', 'url', 'description', 'scopes'] as const;

/**
 * 'Create a new application' (spec sections 2, 4, 5 and 8): Title (required, 255), URL (optional,
 * 255), Description, the repeatable scopes; 'Create App'. Server field errors land under title, url
 * and scopes; on success the dialog closes and the new client's secret is shown once (the list
 * stays: the secret dialog must outlive the form).
 */
export function CreateApplicationDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const [secret, setSecret] = useState<ClientSecret | null>(null);
  return (
    <>
      <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby={titleId}>
        {/* the content unmounts after closing: each opening starts from an empty form */}
        <CreateApplicationForm
          titleId={titleId}
          onClose={onClose}
          onCreated={(issued) => {
            onClose();
            setSecret(issued);
          }}
        />
      </Dialog>
      <ClientSecretDialog secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}

function CreateApplicationForm({ titleId, onClose, onCreated }: { titleId: string; onClose: () => void; onCreated: (secret: ClientSecret | null) => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const { values, errors, textField, change, showServerErrors } = useFormFields({ title: '', url: '', description: '', scopes: [] as ApplicationScope[] }, FIELD_NAMES);
  const create = trpc.applications.create.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { ...values, url: values.url || null },
      {
        onSuccess: (created) => {
          notify(t('applications.create.success'), 'success');
          void utils.applications.invalidate();
          onCreated(created.client_secret);
        },
        onError: showServerErrors,
      },
    );
  };

  return (
    <FormDialogLayout titleId={titleId} title={t('applications.create.title')} onSubmit={submit} onCancel={onClose} submitLabel={t('applications.create.submit')} busy={create.isPending}>
      <CountedTextField label={t('applications.fields.title')} name="title" required autoFocus autoComplete="off" {...textField('title')} />
      <CountedTextField label={t('applications.fields.url')} name="url" type="url" autoComplete="off" hint={t('applications.fields.urlHint')} {...textField('url')} />
      <DescriptionField label={t('applications.fields.description')} maxLength={APPLICATION_DESCRIPTION_MAX} {...textField('description')} />
      <ScopesField value={values.scopes} onChange={(scopes) => change('scopes', scopes)} errors={errors.scopes} />
    </FormDialogLayout>
  );
}
