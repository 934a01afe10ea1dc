import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import { TitleBar } from './TitleBar';

/** Title bar and plain content; the error pages use it. */
export function DefaultLayout({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <TitleBar />
      <Container component="main" maxWidth="md" sx={{ flexGrow: 1, py: 6 }}>
        {children}
      </Container>
    </Box>
  );
}
