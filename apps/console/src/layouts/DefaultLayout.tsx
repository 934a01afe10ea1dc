import type { ReactNode } from 'react';
import Container from '@mui/material/Container';
import { styled } from '@mui/material/styles';
import { TitleBar } from './TitleBar';

// static styles, made once (not `sx` worked out on every render)
const Page = styled('div')(({ theme }) => ({ minHeight: '100vh', display: 'flex', flexDirection: 'column', backgroundColor: theme.palette.background.default }));
const Main = styled(Container)(({ theme }) => ({ flexGrow: 1, paddingTop: theme.spacing(6), paddingBottom: theme.spacing(6) })) as typeof Container;

/** Title bar and plain content; the error pages use it. */
export function DefaultLayout({ children }: { children: ReactNode }) {
  return (
    <Page>
      <TitleBar />
      <Main component="main" maxWidth="md">
        {children}
      </Main>
    </Page>
  );
}
