import { useId, useState, type FormEvent } from 'react';
import Dialog from '@mui/material/Dialog';
import { useTranslation } from 'react-i18next';
import { DescriptionField } from '../../../components/DescriptionField';
import { FormDialogLayout } from '../../../components/FormDialogLayout';
import { CountedTextField } from '../../../components/CountedTextField';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useFieldErrors } from '../../../lib/use-field-errors';
import { trpc } from '../../../trpc';
import type { OrganizationOption } from '../types';

const FIELDS = ['title', 'slug', 'description'] as const;

/** 'Create new permission': title, slug (a short name used with OIDC/OAuth2), description (shown during authorization). */
export function CreatePermissionDialog({ open, organization, onClose }: { open: boolean; organization: OrganizationOption; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} slotProps={{ paper: { sx: { width: 560, maxWidth: 'calc(100% - 32px)', m: 2 } } }}>
      <CreatePermissionForm titleId={titleId} organization={organization} onClose={onClose} />
    </Dialog>
  );
}

function CreatePermissionForm({ titleId, organization, onClose }: { titleId: string; organization: OrganizationOption; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const [title, setTitle] = useState('');
  const [slug, setSlug] = useState('');
  const [description, setDescription] = useState('');
  const { errors, clearErrors, showServerErrors } = useFieldErrors(FIELDS);
  const create = trpc.organizations.createPermission.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { organization_id: organization.id, title: title.trim(), slug: slug.trim(), description: description.trim() },
      {
        onSuccess: (permission) => {
          notify(t('organizations.permissions.created', { slug: permission.slug }), 'success');
          void utils.organizations.permissions.invalidate({ id: organization.id });
          onClose();
        },
        onError: showServerErrors,
      },
    );
  };

  return (
    <>
      <FormDialogLayout titleId={titleId} title={t('organizations.permissions.createTitle')} onSubmit={submit} onCancel={onClose} submitLabel={t('organizations.permissions.createSubmit')} busy={create.isPending}>
        <CountedTextField
          label={t('organizations.permissions.fields.title')}
          name="title"
          required
          autoFocus
          value={title}
          onValueChange={(value) => {
            setTitle(value);
            clearErrors('title');
          }}
          errors={errors.title}
        />
        <CountedTextField
          label={t('organizations.permissions.fields.slug')}
          name="slug"
          required
          value={slug}
          onValueChange={(value) => {
            setSlug(value);
            clearErrors('slug');
          }}
          hint={t('organizations.permissions.slugHint')}
          errors={errors.slug}
          slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none', style: { fontFamily: 'monospace' } } }}
        />
        <DescriptionField
          label={t('organizations.permissions.fields.description')} value={description} errors={errors.description} hint={t('organizations.permissions.descriptionHint')}
          onValueChange={(value) => {
            setDescription(value);
            clearErrors('description');
          }}
        />
      </FormDialogLayout>
    </>
  );
}
