import { useCallback, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { useTranslation } from 'react-i18next';
import { ACCESS_TOKEN_SORT_FIELDS, PAGE_SIZE_OPTIONS, type TAccessToken } from '@rollcall/contracts';
import { ConfirmDialog } from '../ConfirmDialog';
import { useConfirmation } from '../use-confirmation';
import { DataTable, pageQueryProps, type ServerSort } from '../data-table';
import { trpc } from '../../trpc';
import { AccessTokenDialog } from './AccessTokenDialog';
import { useTokenColumns } from './token-columns';
import { useGrants } from '../../auth/use-grants';

type SortField = (typeof ACCESS_TOKEN_SORT_FIELDS)[number];
const isSortField = (value: string): value is SortField => (ACCESS_TOKEN_SORT_FIELDS as readonly string[]).includes(value);

interface AccessTokensPanelProps {
  /** one account's tokens (the account tab); without it every token (the /access-tokens screen) */
  accountId?: string;
  /** a heading above the table (the account tab); the screen has its page header instead */
  heading?: string;
}

/**
 * The token table with 'Add Token' and the row menu (Edit, Delete), shared by the account tab and
 * the /access-tokens screen: server paging 10/20/30, newest first.
 */
export function AccessTokensPanel({ accountId, heading }: AccessTokensPanelProps) {
  const { t } = useTranslation();
  const grants = useGrants();
  const utils = trpc.useUtils();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZE_OPTIONS[0]);
  const [sort, setSort] = useState<{ sortBy: SortField; desc: boolean }>({ sortBy: 'created_at', desc: true });
  const list = trpc.tokens.list.useQuery({ page, limit: pageSize, sortBy: sort.sortBy, desc: sort.desc, ...(accountId ? { account_id: accountId } : {}) }, { placeholderData: (previous) => previous });
  const remove = trpc.tokens.delete.useMutation();

  // the edited token stays set while the dialog fades out, so its form does not flip to 'Create'
  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<TAccessToken | null>(null);
  const confirmation = useConfirmation<TAccessToken>();
  const askToConfirm = confirmation.ask;

  const onEdit = useCallback((token: TAccessToken) => {
    setEditing(token);
    setDialogOpen(true);
  }, []);
  const onDelete = useCallback((token: TAccessToken) => {
    askToConfirm(token);
  }, [askToConfirm, ]);
  const columns = useTokenColumns({ onEdit, onDelete }, !accountId);

  const confirmDelete = () => {
    const deleting = confirmation.item;
    if (!deleting) return;
    remove.mutate({ id: deleting.id }, confirmation.outcome(() => t('accessTokens.deleted'), () => {
      void utils.tokens.list.invalidate();
    }));
  };

  const onSortChange = (next: ServerSort) => {
    if (!isSortField(next.sortBy)) return;
    setSort({ sortBy: next.sortBy, desc: next.desc });
    setPage(1);
  };

  const addButton = (
    <Button
      variant="contained"
      startIcon={<AddIcon />}
      onClick={() => {
        setEditing(null);
        setDialogOpen(true);
      }}
    >
      {t('accessTokens.addButton')}
    </Button>
  );

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: heading ? 'space-between' : 'flex-end', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        {heading ? (
          <Typography variant="h6" component="h2">
            {heading}
          </Typography>
        ) : null}
        {grants.may('tokens:write') && addButton}
      </Box>
      <DataTable
        {...pageQueryProps(list)}
        label={t('accessTokens.tableLabel')}
        columns={columns}
        getRowId={(row) => row.id}
        page={page}
        pageSize={pageSize}
        pageSizeOptions={PAGE_SIZE_OPTIONS}
        onPageChange={setPage}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        sort={sort}
        onSortChange={onSortChange}
        emptyText={t('accessTokens.empty')}
      />
      <AccessTokenDialog open={dialogOpen} token={editing} accountId={accountId} onClose={() => setDialogOpen(false)} />
      <ConfirmDialog
        open={confirmation.open}
        title={t('accessTokens.deleteTitle', { title: confirmation.item?.token_title ?? '' })}
        message={t('accessTokens.deleteMessage')}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={confirmation.cancel}
      />
    </>
  );
}
