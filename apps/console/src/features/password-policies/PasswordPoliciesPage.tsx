import { useCallback, useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_OPTIONS, type TPolicy } from '@rollcall/contracts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useConfirmation } from '../../components/use-confirmation';
import { DataTable } from '../../components/data-table';
import { readPaging, writePaging } from '../../components/data-table/use-url-table-state';
import { PageHeader } from '../../components/PageHeader';
import { trpc } from '../../trpc';
import { usePolicyColumns } from './policy-columns';
import { PolicyDialog } from './PolicyDialog';

/** Page and size live in the URL; the handful of policies is paged in the browser. */
function usePaging() {
  const [params, setParams] = useSearchParams();
  const { page, limit: pageSize } = readPaging(params);
  const write = useCallback(
    (nextPage: number, nextSize: number) => {
      const next = new URLSearchParams();
      writePaging({ page: nextPage, limit: nextSize }, next);
      setParams(next, { replace: false });
    },
    [setParams],
  );
  return { page, pageSize, setPage: (p: number) => write(p, pageSize), setPageSize: (size: number) => write(1, size) };
}

/** /password-policies: every policy, Add policy, row menu Edit / Delete. */
export default function PasswordPoliciesPage() {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const list = trpc.policies.list.useQuery();
  const remove = trpc.policies.delete.useMutation();
  const { page, pageSize, setPage, setPageSize } = usePaging();

  // The edited policy stays set while the dialog closes, so its form does not flip to 'Add'.
  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<TPolicy | null>(null);
  const confirmation = useConfirmation<TPolicy>();
  const askToConfirm = confirmation.ask;

  const onEdit = useCallback((policy: TPolicy) => {
    setEditing(policy);
    setDialogOpen(true);
  }, []);
  const onDelete = useCallback((policy: TPolicy) => {
    askToConfirm(policy);
  }, [askToConfirm, ]);
  const columns = usePolicyColumns({ onEdit, onDelete });

  const rows = list.data;
  const total = rows?.length ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  const shownPage = Math.min(page, lastPage);
  const pageRows = useMemo(() => rows?.slice((shownPage - 1) * pageSize, shownPage * pageSize), [rows, shownPage, pageSize]);

  const confirmDelete = () => {
    const deleting = confirmation.item;
    if (!deleting) return;
    remove.mutate({ id: deleting.id }, confirmation.outcome(() => t('passwordPolicies.deleted'), () => {
      void utils.policies.list.invalidate();
    }));
  };

  return (
    <>
      <PageHeader
        title={t('passwordPolicies.title')}
        actions={
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => {
              setEditing(null);
              setDialogOpen(true);
            }}
          >
            {t('passwordPolicies.addButton')}
          </Button>
        }
      />
      <DataTable
        label={t('passwordPolicies.tableLabel')}
        columns={columns}
        rows={pageRows}
        getRowId={(row) => row.id}
        page={shownPage}
        pageSize={pageSize}
        pageSizeOptions={PAGE_SIZE_OPTIONS}
        total={total}
        onPageChange={setPage}
        onPageSizeChange={setPageSize}
        isLoading={list.isLoading}
        isFetching={list.isFetching}
        error={list.error}
        onRetry={() => void list.refetch()}
        emptyText={t('passwordPolicies.empty')}
      />
      <PolicyDialog open={dialogOpen} policy={editing} onClose={() => setDialogOpen(false)} />
      <ConfirmDialog
        open={confirmation.open}
        title={t('passwordPolicies.deleteTitle', { title: confirmation.item?.title ?? '' })}
        message={t('passwordPolicies.deleteMessage')}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={confirmation.cancel}
      />
    </>
  );
}
