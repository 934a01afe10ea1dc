import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useReadOnly } from '../../../components/read-only';

/** A tab's heading with its button on the right (wrapping under it on a phone), shown to who may change the organization. */
export function TabHeading({ title, action }: { title: string; action?: ReactNode }) {
  const readOnly = useReadOnly();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2, flexWrap: 'wrap' }}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {!readOnly && action}
    </Box>
  );
}
