import { Suspense } from 'react';
import { styled } from '@mui/material/styles';
import { Outlet } from 'react-router-dom';
import { LoadingState } from '../components/LoadingState';
import { TitleBar } from './TitleBar';

// static styles, made once (not `sx` worked out on every render)
const Page = styled('div')(({ theme }) => ({ minHeight: '100vh', display: 'flex', flexDirection: 'column', backgroundColor: theme.palette.background.default }));
const Main = styled('main')(({ theme }) => ({ flexGrow: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', padding: theme.spacing(2) }));

/** Title bar and a centred form (sign-in). */
export default function BlankLayout() {
  return (
    <Page>
      <TitleBar />
      <Main>
        <Suspense fallback={<LoadingState />}>
          <Outlet />
        </Suspense>
      </Main>
    </Page>
  );
}
