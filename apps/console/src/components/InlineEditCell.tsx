import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import EditIcon from '@mui/icons-material/EditOutlined';
import { useTranslation } from 'react-i18next';
import { splitFieldErrors } from '../api/api-error';
import { CountedTextField } from './CountedTextField';
import { useSnackbar } from './snackbar/snackbar-context';
import { useReadOnly } from './read-only';

interface InlineEditCellProps {
  value: string;
  /** the field the server names in its errors ('title', 'slug'): they show under the input */
  field: string;
  /** the input's label while editing */
  label: string;
  /** the edit button's accessible name, naming the row ('Edit title of Auditor') */
  editLabel: string;
  /** saves the new text; a rejection carries the server's error */
  onSave: (value: string) => Promise<unknown>;
  /** the success notice ('Role title updated') */
  savedMessage: string;
  monospace?: boolean;
}

/**
 * A table cell whose text is edited in place (a role's or a permission's title and slug): the edit
 * button opens a field with the 255 counter; Enter or the tick saves, Escape or the cross cancels,
 * and the server's field errors stay under the field until it is edited.
 */
export function InlineEditCell({ value, field, label, editLabel, onSave, savedMessage, monospace }: InlineEditCellProps) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const readOnly = useReadOnly();

  const start = () => {
    setDraft(value);
    setErrors(undefined);
    setEditing(true);
  };
  const cancel = () => {
    setEditing(false);
    setErrors(undefined);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next = draft.trim();
    if (next === value) {
      cancel();
      return;
    }
    setBusy(true);
    try {
      await onSave(next);
      setEditing(false);
      notify(savedMessage, 'success');
    } catch (error) {
      const { fields, notice } = splitFieldErrors(error, [field], t);
      setErrors(fields[field]);
      if (notice) notify(notice, 'error');
    } finally {
      setBusy(false);
    }
  };

  if (!editing) {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
        <Typography component="span" variant="body2" sx={{ fontWeight: monospace ? undefined : 500, fontFamily: monospace ? 'monospace' : undefined, overflowWrap: 'break-word', minWidth: 0 }}>
          {value}
        </Typography>
        {!readOnly && (
          <Tooltip title={editLabel}>
            <IconButton size="small" aria-label={editLabel} onClick={start}>
              <EditIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </Box>
    );
  }

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5, minWidth: 280 }}>
      <CountedTextField
        label={label}
        name={field}
        size="small"
        autoFocus
        fullWidth
        value={draft}
        disabled={busy}
        onValueChange={(next) => {
          setDraft(next);
          setErrors(undefined);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            cancel();
          }
        }}
        errors={errors}
        slotProps={{ htmlInput: { style: monospace ? { fontFamily: 'monospace' } : undefined } }}
      />
      <IconButton type="submit" size="small" color="primary" aria-label={t('inlineEdit.save')} loading={busy} sx={{ mt: 0.5 }}>
        <CheckIcon fontSize="small" />
      </IconButton>
      <IconButton size="small" aria-label={t('inlineEdit.cancel')} onClick={cancel} disabled={busy} sx={{ mt: 0.5 }}>
        <CloseIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}
