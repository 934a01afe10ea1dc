import { useId } from 'react';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Select from '@mui/material/Select';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

interface DataTableFooterProps {
  page: number;
  pageCount: number;
  pageSize: number;
  pageSizeOptions: readonly number[];
  total: number;
  from: number;
  to: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
}

/** 'Showing {from}-{to} of {total} records', Rows per page, pagination by page count. */
export function DataTableFooter(props: DataTableFooterProps) {
  const { t } = useTranslation();
  const rowsPerPageId = useId();
  return (
    <Box
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: 2,
        px: 2,
        py: 1.5,
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      <Typography variant="body2" aria-live="polite">
        {t('table.showing', { from: props.total ? props.from : 0, to: props.total ? props.to : 0, total: props.total })}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography variant="body2" id={rowsPerPageId} component="span">
            {t('table.rowsPerPage')}
          </Typography>
          <Select
            size="small"
            variant="standard"
            value={props.pageSize}
            onChange={(event) => props.onPageSizeChange(Number(event.target.value))}
            labelId={rowsPerPageId}
          >
            {props.pageSizeOptions.map((size) => (
              <MenuItem key={size} value={size}>
                {size}
              </MenuItem>
            ))}
          </Select>
        </Box>
        <Pagination
          count={props.pageCount}
          page={Math.min(props.page, props.pageCount)}
          onChange={(_event, page) => props.onPageChange(page)}
          color="primary"
          shape="rounded"
          siblingCount={1}
          aria-label={t('table.pagination')}
          getItemAriaLabel={(type, page, selected) => {
            if (type === 'previous') return t('table.previousPage');
            if (type === 'next') return t('table.nextPage');
            if (type === 'first') return t('table.firstPage');
            if (type === 'last') return t('table.lastPage');
            return selected ? t('table.currentPage', { page }) : t('table.goToPage', { page });
          }}
        />
      </Box>
    </Box>
  );
}
