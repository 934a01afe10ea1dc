/** what REST and tRPC answer alike (docs/adr/0022) */
export const secondFactorsResetMessage = 'Second factors reset: the account signs in with its password alone, or enrols again where its policy requires it';
export const totpRemovedMessage = 'Authenticator app removed';
export const passkeyRenamedMessage = 'Passkey renamed';
export const passkeyRemovedMessage = 'Passkey removed';
