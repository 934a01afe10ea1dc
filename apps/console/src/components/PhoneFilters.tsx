import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import FilterListIcon from '@mui/icons-material/FilterList';
import { useTranslation } from 'react-i18next';

/**
 * A list's filters: shown as they are on a wider screen; on a phone they wait behind a 'Filters'
 * button (with the number of filters in use) so that the first screen shows the list itself.
 */
export function PhoneFilters({ id, activeCount, children }: { id: string; activeCount: number; children: ReactNode }) {
  const { t } = useTranslation();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const [open, setOpen] = useState(false);
  return (
    <>
      {phone && (
        <Box sx={{ px: 2, pt: 2 }}>
          <Button variant="outlined" startIcon={<FilterListIcon />} aria-expanded={open} aria-controls={id} onClick={() => setOpen((current) => !current)}>
            {open ? t('common.hideFilters') : t('common.showFilters')}
            {/* how many filters narrow the list, in the label: a badge's number would not be read with it */}
            {activeCount ? ` (${activeCount})` : ''}
          </Button>
        </Box>
      )}
      <Collapse in={!phone || open} id={id}>
        {children}
      </Collapse>
    </>
  );
}
