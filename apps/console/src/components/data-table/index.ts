export { DataTable, type DataTableProps, type ServerSort } from './DataTable';
export { DataTableFooter } from './DataTableFooter';
export { pageQueryProps } from './page-query-props';
export { ExpandRowButton } from './ExpandRowButton';
export { localPage } from './local-page';
