import { useCallback, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { useTranslation } from 'react-i18next';
import { SMART_CARD_PAGE_SIZE, type TSmartCard } from '@rollcall/contracts';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { DataTable, pageQueryProps } from '../../../../components/data-table';
import { useConfirmation } from '../../../../components/use-confirmation';
import { trpc } from '../../../../trpc';
import { AddSmartCardDialog } from './AddSmartCardDialog';
import { useSmartCardColumns } from './smart-card-columns';
import { useRegisterMode } from './use-register-mode';

const PAGE_SIZES = [SMART_CARD_PAGE_SIZE] as const;

/**
 * Spec tab 3, 'SmartCards': the account's cards, 10 per page, newest first (server paging);
 * 'Add Smartcard' (register mode, closed by the live registration) and 'Remove card'.
 */
export function AccountSmartCardsTab({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const [page, setPage] = useState(1);
  const list = trpc.smartCards.ofAccount.useQuery({ account_id: accountId, page, limit: SMART_CARD_PAGE_SIZE, sortBy: 'created_at', desc: true }, { placeholderData: (previous) => previous });
  const remove = trpc.smartCards.remove.useMutation();
  const registerMode = useRegisterMode(accountId);
  const confirmation = useConfirmation<TSmartCard>();
  const askToConfirm = confirmation.ask;
  const onRemove = useCallback((card: TSmartCard) => askToConfirm(card), [askToConfirm]);
  const columns = useSmartCardColumns(onRemove);

  const confirmRemove = () => {
    const card = confirmation.item;
    if (!card) return;
    remove.mutate(
      { card_id: card.id },
      confirmation.outcome(
        () => t('smartCards.removed', { uid: card.card_uid }),
        () => void utils.smartCards.ofAccount.invalidate({ account_id: accountId }),
      ),
    );
  };

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2">
          {t('smartCards.title')}
        </Typography>
        <Button variant="contained" startIcon={<AddIcon />} onClick={registerMode.open}>
          {t('smartCards.addButton')}
        </Button>
      </Box>
      <DataTable
        {...pageQueryProps(list)}
        label={t('smartCards.tableLabel')}
        columns={columns}
        getRowId={(row) => row.id}
        page={page}
        pageSize={SMART_CARD_PAGE_SIZE}
        pageSizeOptions={PAGE_SIZES}
        onPageChange={setPage}
        onPageSizeChange={() => setPage(1)}
        emptyText={t('smartCards.empty')}
      />
      <AddSmartCardDialog state={registerMode.state} onCancel={registerMode.cancel} accountId={accountId} />
      <ConfirmDialog
        open={confirmation.open}
        title={t('smartCards.removeTitle')}
        message={t('smartCards.removeMessage', { uid: confirmation.item?.card_uid ?? '' })}
        busy={remove.isPending}
        onConfirm={confirmRemove}
        onCancel={confirmation.cancel}
      />
    </>
  );
}
