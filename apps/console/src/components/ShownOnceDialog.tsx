import { useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';

export interface ShownOnceField {
  label: string;
  value: string;
  /** a copy button with this label, and the text shown under the field once copied */
  copy?: { label: string; copied: string };
  /** several lines (a configuration snippet), shown as they are */
  multiline?: boolean;
  /** a hint under the field (replaced by the copy confirmation once copied) */
  hint?: string;
}

/**
 * A secret shown this once (a client secret, a reader's token): only its hash is kept, so closing
 * this dialog is the last time anyone sees it. Persistent: no closing by a stray click or Escape.
 */
export function ShownOnceDialog({ open, title, warning, fields, doneLabel, onClose }: { open: boolean; title: string; warning: string; fields: ShownOnceField[]; doneLabel: string; onClose: () => void }) {
  const titleId = useId();
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <Dialog open={open} aria-labelledby={titleId} fullWidth maxWidth="sm" disableEscapeKeyDown>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', gap: 2.5 }}>
        <Alert severity="warning">{warning}</Alert>
        {fields.map((field) => (
          <TextField
            key={field.label}
            label={field.label}
            value={field.value}
            multiline={field.multiline}
            helperText={field.copy && copied === field.label ? field.copy.copied : (field.hint ?? (field.copy ? ' ' : undefined))}
            slotProps={{
              input: {
                readOnly: true,
                sx: { fontFamily: 'monospace', ...(field.multiline ? { fontSize: '0.8125rem', alignItems: 'flex-start' } : {}) },
                endAdornment: field.copy ? (
                  <InputAdornment position="end">
                    <IconButton aria-label={field.copy.label} onClick={() => void navigator.clipboard?.writeText(field.value).then(() => setCopied(field.label))} edge="end">
                      <ContentCopyIcon fontSize="small" />
                    </IconButton>
                  </InputAdornment>
                ) : undefined,
              },
            }}
          />
        ))}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button
          variant="contained"
          onClick={() => {
            setCopied(null);
            onClose();
          }}
        >
          {doneLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
