import { useState } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import CheckIcon from '@mui/icons-material/Check';
import { useTranslation } from 'react-i18next';

/** how many characters of an id a table shows: enough to tell ids apart at a glance */
export const SHOWN_ID_LENGTH = 8;

/**
 * An entity's id as people can tell it apart and copy it whole. Ids are UUID v7: their first
 * characters are the creation time, so ids made in the same minute share them; the last ones are
 * random. The short form is the last characters (as every screen shows it), the whole id is the
 * title (hover) and what the copy button puts on the clipboard. `full` shows it whole (details).
 */
export function EntityId({ id, full = false, variant = 'body2' }: { id: string; full?: boolean; variant?: 'body2' | 'caption' }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = () =>
    void navigator.clipboard?.writeText(id).then(() => {
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    });
  const label = copied ? t('entityId.copied') : t('entityId.copy', { id });
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.25, whiteSpace: 'nowrap' }}>
      <Typography component="code" variant={variant} title={id} data-entity-id={id} sx={{ fontFamily: 'monospace', wordBreak: full ? 'break-all' : undefined, whiteSpace: full ? 'normal' : 'nowrap' }}>
        {full ? id : id.slice(-SHOWN_ID_LENGTH)}
      </Typography>
      <Tooltip title={copied ? t('entityId.copied') : t('entityId.copyShort')}>
        <IconButton size="small" aria-label={label} onClick={copy} sx={{ p: 0.25 }}>
          {copied ? <CheckIcon sx={{ fontSize: 14 }} color="success" /> : <ContentCopyIcon sx={{ fontSize: 14 }} />}
        </IconButton>
      </Tooltip>
    </Box>
  );
}
