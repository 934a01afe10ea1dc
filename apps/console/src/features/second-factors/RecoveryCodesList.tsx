import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import { useTranslation } from 'react-i18next';

/**
 * Ten recovery codes, shown this once (only their hashes are kept): copy them or download them as a
 * text file, then say they are kept safe.
 */
export function RecoveryCodesList({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const text = `${t('secondFactors.recoveryCodes.fileHeading')}\n\n${codes.join('\n')}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'rollcall-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Alert severity="warning">{t('secondFactors.recoveryCodes.shownOnce')}</Alert>
      <Box component="ol" aria-label={t('secondFactors.recoveryCodes.title')} sx={{ m: 0, pl: 4, display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(14rem, 1fr))', columnGap: 4, rowGap: 0.5, fontFamily: 'monospace', fontSize: '0.95rem', whiteSpace: 'nowrap' }}>
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={() => void navigator.clipboard?.writeText(text).then(() => setCopied(true))}>
          {copied ? t('secondFactors.recoveryCodes.copied') : t('secondFactors.recoveryCodes.copy')}
        </Button>
        <Button variant="outlined" startIcon={<DownloadIcon />} onClick={download}>
          {t('secondFactors.recoveryCodes.download')}
        </Button>
      </Box>
      <Button variant="contained" onClick={onDone}>
        {t('secondFactors.recoveryCodes.done')}
      </Button>
    </Box>
  );
}
