import { useId, type FormEvent, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { SxProps, Theme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';

interface FormDialogLayoutProps {
  /** the id the surrounding Dialog is labelled by */
  titleId: string;
  title: ReactNode;
  onSubmit: (event: FormEvent) => void;
  onCancel: () => void;
  submitLabel: ReactNode;
  /** while the submit runs: the submit button shows its progress */
  busy?: boolean;
  /** the form's layout (default: one column of fields) */
  formSx?: SxProps<Theme>;
  children: ReactNode;
}

/** Inside a Dialog: the title, the form (Enter submits it) and the Cancel / submit buttons every form dialog has. */
export function FormDialogLayout({ titleId, title, onSubmit, onCancel, submitLabel, busy, formSx, children }: FormDialogLayoutProps) {
  const { t } = useTranslation();
  const formId = useId();
  return (
    <>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers>
        <Box component="form" id={formId} noValidate onSubmit={onSubmit} sx={formSx ?? { display: 'grid', gap: 2.5 }}>
          {children}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
        <Button type="submit" form={formId} variant="contained" loading={busy}>
          {submitLabel}
        </Button>
      </DialogActions>
    </>
  );
}
