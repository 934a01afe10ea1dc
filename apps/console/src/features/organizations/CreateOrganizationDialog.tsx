import { useId, useState, type FormEvent } from 'react';
import Dialog from '@mui/material/Dialog';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { DescriptionField } from '../../components/DescriptionField';
import { FormDialogLayout } from '../../components/FormDialogLayout';
import { ORGANIZATION_DESCRIPTION_MAX } from '@rollcall/contracts';
import { CountedTextField } from '../../components/CountedTextField';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { useFieldErrors } from '../../components/use-field-errors';
import { trpc } from '../../trpc';
import { OrganizationPicker } from '../../components/organizations/OrganizationPicker';
import type { OrganizationOption } from './types';

const FIELD_NAMES = ['title', 'description', 'parent_id'] as const;

interface CreateOrganizationDialogProps {
  open: boolean;
  /** 'Add Suborg': the parent is preset */
  parent?: OrganizationOption | null;
  onClose: () => void;
}

/** 'Create new organization': Title (255, unique), Description, parent organization. */
export function CreateOrganizationDialog({ open, parent = null, onClose }: CreateOrganizationDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby={titleId}>
      {/* the content unmounts after closing: each opening starts from an empty form */}
      <CreateOrganizationForm titleId={titleId} parent={parent} onClose={onClose} />
    </Dialog>
  );
}

function CreateOrganizationForm({ titleId, parent, onClose }: { titleId: string; parent: OrganizationOption | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [parentOrganization, setParentOrganization] = useState<OrganizationOption | null>(parent);
  const { errors, clearErrors: clearError, showServerErrors } = useFieldErrors(FIELD_NAMES);
  const create = trpc.organizations.create.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { title, description: description || undefined, parent_id: parentOrganization?.id },
      {
        onSuccess: (created) => {
          notify(t('organizations.create.success', { title: created.title }), 'success');
          void utils.organizations.invalidate();
          onClose();
        },
        onError: showServerErrors,
      },
    );
  };

  return (
    <>
      <FormDialogLayout titleId={titleId} title={t('organizations.create.title')} onSubmit={submit} onCancel={onClose} submitLabel={t('organizations.create.submit')} busy={create.isPending}>
        <CountedTextField
          label={t('organizations.fields.title')}
          name="title"
          required
          autoFocus
          autoComplete="off"
          value={title}
          onValueChange={(value) => {
            setTitle(value);
            clearError('title');
          }}
          hint={t('organizations.create.titleHint')}
          errors={errors.title}
        />
        <DescriptionField
          label={t('organizations.fields.description')} value={description} errors={errors.description} maxLength={ORGANIZATION_DESCRIPTION_MAX}
          onValueChange={(value) => {
            setDescription(value);
            clearError('description');
          }}
        />
        <OrganizationPicker
          label={t('organizations.fields.parent')}
          name="parent_id"
          value={parentOrganization}
          onChange={(value) => {
            setParentOrganization(value);
            clearError('parent_id');
          }}
          hint={t('organizations.create.parentHint')}
          errors={errors.parent_id}
        />
      </FormDialogLayout>
    </>
  );
}
