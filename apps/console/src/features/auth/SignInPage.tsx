import { SignInForm } from './SignInForm';

/** /login: the sign-in form on the blank layout. */
export default function SignInPage() {
  return <SignInForm />;
}
