import { useCallback, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_OPTIONS, READER_SORT_FIELDS, type TReader } from '@rollcall/contracts';
import { describeError } from '../../api/api-error';
import { useGrants } from '../../auth/use-grants';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, pageQueryProps, type ServerSort } from '../../components/data-table';
import { PageHeader } from '../../components/PageHeader';
import { SearchField } from '../../components/SearchField';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { useConfirmation } from '../../components/use-confirmation';
import { trpc } from '../../trpc';
import { EntityHistoryDialog } from '../../components/history/EntityHistoryDialog';
import { EditReaderDialog } from './EditReaderDialog';
import { useReaderColumns } from './reader-columns';
import { ReaderTokenDialog, type ShownReaderToken } from './ReaderTokenDialog';
import { RegisterReaderDialog } from './RegisterReaderDialog';

type SortField = (typeof READER_SORT_FIELDS)[number];
const isSortField = (value: string): value is SortField => (READER_SORT_FIELDS as readonly string[]).includes(value);

/** Connection state is judged by the server from the time since last contact: look again now and then. */
const REFRESH_MS = 15_000;

/**
 * /readers (not in the spec; docs/readers.md): the door and enrollment readers with what they last
 * reported; register one (its token is issued and shown once), issue a new token, revoke it, rename
 * or move it, delete it.
 */
export default function ReadersPage() {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const grants = useGrants();
  const mayManage = grants.mayEverywhere('readers:manage');
  const utils = trpc.useUtils();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZE_OPTIONS[0]);
  const [sort, setSort] = useState<{ sortBy: SortField; desc: boolean }>({ sortBy: 'name', desc: false });
  const [search, setSearch] = useState('');
  const list = trpc.readers.list.useQuery(
    { page, limit: pageSize, sortBy: sort.sortBy, desc: sort.desc, ...(search ? { search } : {}) },
    { placeholderData: (previous) => previous, refetchInterval: REFRESH_MS },
  );
  const refresh = useCallback(() => void utils.readers.list.invalidate(), [utils]);

  const [registering, setRegistering] = useState(false);
  const [editing, setEditing] = useState<TReader | null>(null);
  const [shownToken, setShownToken] = useState<ShownReaderToken | null>(null);
  const issue = trpc.readers.issueToken.useMutation();
  const revoke = trpc.readers.revokeToken.useMutation();
  const remove = trpc.readers.delete.useMutation();
  const revoking = useConfirmation<TReader>();
  const deleting = useConfirmation<TReader>();
  const replacing = useConfirmation<TReader>();

  const issueToken = useCallback(
    (reader: TReader) =>
      issue.mutate(
        { id: reader.id },
        {
          onSuccess: (issued) => {
            setShownToken({ readerId: reader.id, readerName: reader.name, token: issued.token });
            refresh();
          },
          onError: (error) => notify(describeError(error, t), 'error'),
        },
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the mutation object changes every render; its mutate does not
    [issue.mutate, refresh, notify, t],
  );

  const askReplace = replacing.ask;
  const onIssueToken = useCallback((reader: TReader) => (reader.token_prefix ? askReplace(reader) : issueToken(reader)), [askReplace, issueToken]);
  const onEdit = useCallback((reader: TReader) => setEditing(reader), []);
  const [historyOf, setHistoryOf] = useState<TReader | null>(null);
  const mayReadHistory = grants.mayEverywhere('audit:read');
  const columns = useReaderColumns({ onIssueToken, onRevokeToken: revoking.ask, onEdit, onDelete: deleting.ask, onShowHistory: mayReadHistory ? setHistoryOf : undefined }, mayManage);

  const onRegistered = (reader: TReader) => {
    setRegistering(false);
    notify(t('readers.registered', { name: reader.name }), 'success');
    refresh();
    issueToken(reader);
  };

  const onSortChange = (next: ServerSort) => {
    if (!isSortField(next.sortBy)) return;
    setSort({ sortBy: next.sortBy, desc: next.desc });
    setPage(1);
  };

  return (
    <>
      <PageHeader
        title={t('readers.title')}
        actions={
          mayManage ? (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setRegistering(true)}>
              {t('readers.addButton')}
            </Button>
          ) : undefined
        }
      />
      <DataTable
        {...pageQueryProps(list)}
        label={t('readers.tableLabel')}
        toolbar={
          <Box sx={{ display: 'flex', gap: 2, p: 2, pb: 0, flexWrap: 'wrap' }}>
            <SearchField
              label={t('readers.search')}
              value={search}
              onSearch={(value) => {
                setSearch(value);
                setPage(1);
              }}
            />
          </Box>
        }
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
        emptyText={t('readers.empty')}
      />
      <RegisterReaderDialog open={registering} onClose={() => setRegistering(false)} onRegistered={onRegistered} />
      <EditReaderDialog reader={editing} onClose={() => setEditing(null)} />
      <EntityHistoryDialog kind="reader" entity={historyOf} onClose={() => setHistoryOf(null)} />
      <ReaderTokenDialog shown={shownToken} onClose={() => setShownToken(null)} />
      <ConfirmDialog
        open={replacing.open}
        title={t('readers.replaceTitle', { name: replacing.item?.name ?? '' })}
        message={t('readers.replaceMessage')}
        busy={issue.isPending}
        onConfirm={() => {
          if (replacing.item) issueToken(replacing.item);
          replacing.cancel();
        }}
        onCancel={replacing.cancel}
      />
      <ConfirmDialog
        open={revoking.open}
        title={t('readers.revokeTitle', { name: revoking.item?.name ?? '' })}
        message={t('readers.revokeMessage')}
        busy={revoke.isPending}
        onConfirm={() => revoking.item && revoke.mutate({ id: revoking.item.id }, revoking.outcome(() => t('readers.revoked'), refresh))}
        onCancel={revoking.cancel}
      />
      <ConfirmDialog
        open={deleting.open}
        title={t('readers.deleteTitle', { name: deleting.item?.name ?? '' })}
        message={t('readers.deleteMessage')}
        busy={remove.isPending}
        onConfirm={() => deleting.item && remove.mutate({ id: deleting.item.id }, deleting.outcome(() => t('readers.deleted', { name: deleting.item?.name ?? '' }), refresh))}
        onCancel={deleting.cancel}
      />
    </>
  );
}
