import { useId, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useReadOnly } from '../../../components/read-only';

/** One section of the details page: a heading, its button on the right (for who may change the application), and its content. */
export function SectionCard({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  const readOnly = useReadOnly();
  const headingId = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 3 } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <Typography id={headingId} variant="h6" component="h2">
          {title}
        </Typography>
        {!readOnly && action}
      </Box>
      {children}
    </Paper>
  );
}
