/** what REST, tRPC and the OpenID Connect login say when the password was right and a code is needed */
export const SECOND_FACTOR_REQUIRED_MESSAGE =
  'This account signs in with a second factor: send the challenge back with a code from the authenticator app or a recovery code ({challenge, code}), or sign in again with {username, password, code}';
