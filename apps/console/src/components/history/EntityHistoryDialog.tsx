import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import type { THistoryKind } from '@rollcall/contracts';
import { EntityHistoryPanel } from './EntityHistoryPanel';

/** The history of a list row's entity (a team, a reader), for screens that have no details page. */
export function EntityHistoryDialog({ kind, entity, onClose }: { kind: THistoryKind; entity: { id: string; name: string } | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={entity !== null} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="entity-history-title">
      <DialogTitle id="entity-history-title">{t('history.dialogTitle', { name: entity?.name ?? '' })}</DialogTitle>
      <DialogContent dividers>{entity ? <EntityHistoryPanel kind={kind} id={entity.id} headingless /> : null}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('history.closeDialog')}</Button>
      </DialogActions>
    </Dialog>
  );
}
